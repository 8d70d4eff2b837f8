import { Alert, Badge, Button, Hint, Input, Label, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { useCryptoI18n } from "../lib/i18n"
import { useCryptoSettings, useSaveApiKey } from "../lib/payment-queries"
import type { CryptoSetting, ProviderSecrets } from "../lib/payment-types"
import {
  acceptedSecretsText,
  apiKeySourceText,
  apiKeyToSend,
  apiKeyTypedWrong,
  maskedKey,
  webhookSecretSourceText,
  webhookSecretWarns,
} from "../lib/provider-keys"
import { LabelledRow } from "./labelled-row"

const Row = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <LabelledRow label={label} layout="panel">
    {children}
  </LabelledRow>
)

/**
 * A new API key, pasted: sent once the service accepted it (a refused key shows the server's reason).
 * The typed key lives in this input's state only until the save settles, then it is cleared, and so is
 * the mutation's copy of it; it goes in a POST body, never a URL (no <form>: one that fell back to a GET
 * would put it there).
 */
function ReplaceApiKey({ providerId }: { providerId: string }) {
  const { t } = useCryptoI18n()
  const save = useSaveApiKey()
  const [typed, setTyped] = useState("")
  const key = apiKeyToSend(typed)
  const id = `${providerId}-api-key`

  const submit = () => {
    if (!key || save.isPending) return
    save.mutate(
      { provider_id: providerId, api_key: key },
      {
        onSuccess: ({ setting }) =>
          toast.success(t("policy.keys.replaced", { key: maskedKey(setting.secrets.api_key.last_four) })),
        onError: (error) => toast.error((error as Error).message),
        onSettled: () => {
          setTyped("")
          save.reset()
        },
      }
    )
  }

  return (
    <div className="flex flex-col gap-y-1" data-testid="crypto-replace-api-key">
      <Label htmlFor={id} size="small" weight="plus">
        {t("policy.keys.newKey")}
      </Label>
      <Text size="xsmall" className="text-ui-fg-subtle">
        {t("policy.keys.newKeyHint")}
      </Text>
      <div className="flex flex-wrap items-center gap-2">
        <Input
          id={id}
          className="w-80 max-w-full"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={typed}
          disabled={save.isPending}
          aria-invalid={apiKeyTypedWrong(typed)}
          onChange={(event) => setTyped(event.target.value)}
          onKeyDown={(event) => event.key === "Enter" && submit()}
          data-testid="crypto-api-key-input"
        />
        <Button
          size="small"
          variant="secondary"
          disabled={!key}
          isLoading={save.isPending}
          onClick={submit}
          data-testid="crypto-replace-api-key-button"
        >
          {t("policy.keys.replace")}
        </Button>
      </div>
      {apiKeyTypedWrong(typed) && <Hint variant="error">{t("policy.keys.newKeyInvalid")}</Hint>}
    </div>
  )
}

/** Where the webhook URLs' signing secret comes from (amber while derived from the API key), and what still verifies. */
function WebhookSecret({ secret }: { secret: ProviderSecrets["webhook_secret"] }) {
  const { t } = useCryptoI18n()
  const accepted = acceptedSecretsText(t, secret.accepted)
  return (
    <div className="flex flex-col items-start gap-y-1" data-testid="crypto-webhook-secret" data-source={secret.source}>
      {webhookSecretWarns(secret.source) ? (
        <Alert variant="warning">{webhookSecretSourceText(t, secret.source)}</Alert>
      ) : (
        <span>{webhookSecretSourceText(t, secret.source)}</span>
      )}
      {accepted && (
        <Badge size="2xsmall" color="orange" data-testid="crypto-webhook-secrets-accepted">
          {accepted}
        </Badge>
      )}
      {secret.legacy_accepted && (
        <Text size="xsmall" className="text-ui-fg-subtle" data-testid="crypto-webhook-legacy-accepted">
          {t("policy.keys.legacyAccepted")}
        </Text>
      )}
    </div>
  )
}

/**
 * "Keys" of one provider: the API key in use (its last four, from medusa-config or saved from the admin
 * by whom and when), the way to replace it (only with CRYPTO_SECRETS_KEY set: the key is stored sealed
 * under it), a saved key that no longer opens, and where the webhook secret comes from.
 */
export function ProviderKeysSection({ setting }: { setting: CryptoSetting }) {
  const { t, locale } = useCryptoI18n()
  // the change log names who saved the key (the settings name a user id): the panel's own read, shared
  const { data } = useCryptoSettings()
  const { provider_id: providerId, secrets } = setting
  const apiKey = secrets.api_key
  return (
    <div
      className="border-ui-border-base flex flex-col gap-y-2 border-t pt-4"
      data-testid="crypto-provider-keys"
      data-api-key-source={apiKey.source}
      data-can-store={secrets.can_store}
    >
      <div className="flex flex-col gap-y-1">
        <Text size="small" leading="compact" weight="plus">
          {t("policy.keys.title")}
        </Text>
        <Text size="xsmall" className="text-ui-fg-subtle">
          {t("policy.keys.hint")}
        </Text>
      </div>
      <div>
        <Row label={t("policy.keys.rows.apiKey")}>
          <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1" data-testid="crypto-api-key">
            <span className="font-mono" data-testid="crypto-api-key-last-four">
              {maskedKey(apiKey.last_four)}
            </span>
            <span className="text-ui-fg-subtle" data-testid="crypto-api-key-source">
              {apiKeySourceText(t, locale, providerId, apiKey, data?.changes ?? [])}
            </span>
          </span>
        </Row>
      </div>
      {apiKey.unreadable && (
        <Alert variant="error" data-testid="crypto-api-key-unreadable">
          {t("policy.keys.unreadable")}
        </Alert>
      )}
      {secrets.can_store ? (
        <ReplaceApiKey providerId={providerId} />
      ) : (
        <Alert variant="info" data-testid="crypto-api-key-config-only">
          {t("policy.keys.configOnly")}
        </Alert>
      )}
      <div>
        <Row label={t("policy.keys.rows.webhookSecret")}>
          <WebhookSecret secret={secrets.webhook_secret} />
        </Row>
      </div>
    </div>
  )
}
