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
  currentLastFourToSend,
  currentLastFourTypedWrong,
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
 * The typed key lives in this input's state only until the save settles, then it is cleared with the
 * mutation's copy; it goes in a POST body, never a URL (no <form>: one falling back to GET would put it there).
 */
function ReplaceApiKey({ providerId, inUseLastFour }: { providerId: string; inUseLastFour: string }) {
  const { t } = useCryptoI18n()
  const save = useSaveApiKey()
  const [typed, setTyped] = useState("")
  const [confirmTyped, setConfirmTyped] = useState("")
  const key = apiKeyToSend(typed)
  // no key in use (none configured): nothing to confirm
  const asksConfirmation = inUseLastFour !== ""
  const confirmation = asksConfirmation ? currentLastFourToSend(confirmTyped, inUseLastFour) : null
  const ready = !!key && (!asksConfirmation || !!confirmation)
  const id = `${providerId}-api-key`
  const confirmId = `${providerId}-api-key-current`

  const submit = () => {
    if (!key || !ready || save.isPending) return
    save.mutate(
      { provider_id: providerId, api_key: key, ...(confirmation ? { current_key_last4: confirmation } : {}) },
      {
        onSuccess: ({ setting }) =>
          toast.success(t("policy.keys.replaced", { key: maskedKey(setting.secrets.api_key.last_four) })),
        onError: (error) => toast.error((error as Error).message),
        onSettled: () => {
          setTyped("")
          setConfirmTyped("")
          save.reset()
        },
      }
    )
  }

  return (
    <div className="flex flex-col gap-y-3" data-testid="crypto-replace-api-key">
      {asksConfirmation && (
        <div className="flex flex-col gap-y-1">
          <Label htmlFor={confirmId} size="small" weight="plus">
            {t("policy.keys.currentLastFour")}
          </Label>
          <Text size="xsmall" className="text-ui-fg-subtle">
            {t("policy.keys.currentLastFourHint")}
          </Text>
          <Input
            id={confirmId}
            className="w-24 font-mono"
            autoComplete="off"
            spellCheck={false}
            maxLength={8}
            value={confirmTyped}
            disabled={save.isPending}
            aria-invalid={currentLastFourTypedWrong(confirmTyped, inUseLastFour)}
            onChange={(event) => setConfirmTyped(event.target.value)}
            onKeyDown={(event) => event.key === "Enter" && submit()}
            data-testid="crypto-api-key-current-last-four"
          />
          {currentLastFourTypedWrong(confirmTyped, inUseLastFour) && (
            <Hint variant="error">{t("policy.keys.currentLastFourInvalid", { number: inUseLastFour.length })}</Hint>
          )}
        </div>
      )}
      <div className="flex flex-col gap-y-1">
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
            disabled={!ready}
            isLoading={save.isPending}
            onClick={submit}
            data-testid="crypto-replace-api-key-button"
          >
            {t("policy.keys.replace")}
          </Button>
        </div>
        {apiKeyTypedWrong(typed) && <Hint variant="error">{t("policy.keys.newKeyInvalid")}</Hint>}
      </div>
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
 * "Keys" of one provider: the API key in use, the way to replace it (only with CRYPTO_SECRETS_KEY set:
 * the key is stored sealed under it), and where the webhook secret comes from.
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
        <ReplaceApiKey providerId={providerId} inUseLastFour={apiKey.last_four} />
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
