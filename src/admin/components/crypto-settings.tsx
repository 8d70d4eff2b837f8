import { Badge, Button, Container, Heading, Hint, Input, Label, Select, Table, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { actorText, latePaymentsLabel, policyFieldLabel, policyValueText } from "../lib/payment-labels"
import {
  overridesDefault,
  parseTolerancePercent,
  POLICY_FIELDS,
  policyUpdate,
  PolicyEdits,
  TOLERANCE_MAX_PERCENT,
} from "../lib/payment-policy"
import { useCryptoSettings, useSaveCryptoSetting } from "../lib/payment-queries"
import type {
  CryptoSetting,
  CryptoSettingChange,
  CryptoSettingUpdate,
  LatePayments,
  PaymentPolicyField,
} from "../lib/payment-types"
import { formatDateTime } from "../lib/format"
import { useCryptoI18n } from "../lib/i18n"
import { ExchangeRatesSection } from "./exchange-rates"
import { ProviderKeysSection } from "./provider-keys"

/** Beside a field: medusa-config's default, whether a saved value overrides it, and the way back to it. */
function DefaultNote({
  setting,
  field,
  busy,
  onUseDefault,
}: {
  setting: CryptoSetting
  field: PaymentPolicyField
  busy: boolean
  onUseDefault: () => void
}) {
  const { t, locale } = useCryptoI18n()
  const overridden = overridesDefault(setting, field)
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <Text size="xsmall" className="text-ui-fg-subtle">
        {t("policy.configDefault", { value: policyValueText(t, locale, field, setting.defaults[field]) })}
      </Text>
      <Badge size="2xsmall" color={overridden ? "blue" : "grey"}>
        {overridden ? t("policy.overrides") : t("policy.usesDefault")}
      </Badge>
      {overridden && (
        <Button
          size="small"
          variant="transparent"
          disabled={busy}
          onClick={onUseDefault}
          data-testid="crypto-use-default"
          data-field={field}
        >
          {t("policy.useDefault")}
        </Button>
      )}
    </div>
  )
}

function ToleranceField({ id, value, onChange }: { id: string; value: string; onChange: (value: string) => void }) {
  const { t } = useCryptoI18n()
  const invalid = parseTolerancePercent(value) === null
  return (
    <div className="flex flex-col gap-y-1">
      <Label htmlFor={id} size="small" weight="plus">
        {`${policyFieldLabel(t, "underpayment_tolerance_percent")} (%)`}
      </Label>
      <Text size="xsmall" className="text-ui-fg-subtle">
        {t("policy.toleranceHint")}
      </Text>
      <Input
        id={id}
        className="w-32"
        type="number"
        min={0}
        max={TOLERANCE_MAX_PERCENT}
        step={0.01}
        value={value}
        aria-invalid={invalid}
        onChange={(event) => onChange(event.target.value)}
        data-testid="crypto-tolerance-input"
      />
      {invalid && <Hint variant="error">{t("policy.toleranceInvalid", { max: TOLERANCE_MAX_PERCENT })}</Hint>}
    </div>
  )
}

function LatePaymentsField({
  id,
  value,
  windowHours,
  onChange,
}: {
  id: string
  value: LatePayments
  windowHours: number
  onChange: (value: LatePayments) => void
}) {
  const { t } = useCryptoI18n()
  return (
    <div className="flex flex-col gap-y-1">
      <Label htmlFor={id} size="small" weight="plus">
        {policyFieldLabel(t, "late_payments")}
      </Label>
      <Text size="xsmall" className="text-ui-fg-subtle">
        {t("policy.latePaymentsHint")}
      </Text>
      <Select value={value} onValueChange={(v) => onChange(v as LatePayments)}>
        <Select.Trigger id={id} className="max-w-xl" data-testid="crypto-late-payments-select">
          <Select.Value />
        </Select.Trigger>
        <Select.Content>
          {(["flag", "fulfil"] as const).map((option) => (
            <Select.Item key={option} value={option}>
              {latePaymentsLabel(t, option, windowHours)}
            </Select.Item>
          ))}
        </Select.Content>
      </Select>
    </div>
  )
}

/**
 * One provider's policy: both fields with their defaults, saved together; each field can go back to its
 * default. Below them, the provider's exchange rates.
 */
function ProviderPolicyForm({ setting, showProvider }: { setting: CryptoSetting; showProvider: boolean }) {
  const { t } = useCryptoI18n()
  const save = useSaveCryptoSetting()
  // only what the admin touched: untouched fields follow the settings as the backend reads them
  const [edits, setEdits] = useState<PolicyEdits>({})
  const update = policyUpdate(setting, edits)

  const post = (body: CryptoSettingUpdate, done: string) =>
    save.mutate(body, {
      onSuccess: () => {
        setEdits((current) => {
          const rest = { ...current }
          for (const field of POLICY_FIELDS) {
            if (field in body) delete rest[field]
          }
          return rest
        })
        toast.success(done)
      },
      onError: (error) => toast.error((error as Error).message),
    })
  const resetToDefault = (field: PaymentPolicyField) =>
    post(
      { provider_id: setting.provider_id, [field]: null },
      t("policy.backToDefault", { field: policyFieldLabel(t, field) })
    )

  return (
    <div
      className="flex flex-col gap-y-4 px-6 py-4"
      data-testid="crypto-settings-provider"
      data-provider-id={setting.provider_id}
    >
      {showProvider && <Heading level="h3">{setting.provider_id}</Heading>}
      <div className="flex flex-col gap-y-2">
        <ToleranceField
          id={`${setting.provider_id}-tolerance`}
          value={edits.underpayment_tolerance_percent ?? String(setting.underpayment_tolerance_percent)}
          onChange={(value) => setEdits({ ...edits, underpayment_tolerance_percent: value })}
        />
        <DefaultNote
          setting={setting}
          field="underpayment_tolerance_percent"
          busy={save.isPending}
          onUseDefault={() => resetToDefault("underpayment_tolerance_percent")}
        />
      </div>
      <div className="flex flex-col gap-y-2">
        <LatePaymentsField
          id={`${setting.provider_id}-late-payments`}
          value={edits.late_payments ?? setting.late_payments}
          windowHours={setting.late_window_hours}
          onChange={(value) => setEdits({ ...edits, late_payments: value })}
        />
        <DefaultNote
          setting={setting}
          field="late_payments"
          busy={save.isPending}
          onUseDefault={() => resetToDefault("late_payments")}
        />
      </div>
      <div className="flex justify-end">
        <Button
          size="small"
          disabled={!update}
          isLoading={save.isPending}
          onClick={() => update && post(update, t("policy.saved"))}
          data-testid="crypto-settings-save"
        >
          {t("policy.save")}
        </Button>
      </div>
      <ExchangeRatesSection providerId={setting.provider_id} rates={setting.exchange_rates} />
      <ProviderKeysSection setting={setting} />
    </div>
  )
}

function ChangeLog({ changes, showProvider }: { changes: CryptoSettingChange[]; showProvider: boolean }) {
  const { t, locale } = useCryptoI18n()
  const valueText = (change: CryptoSettingChange, value: string | null) =>
    policyValueText(t, locale, change.field, value)
  return (
    <div className="flex flex-col gap-y-2 py-4">
      <Heading level="h3" className="px-6">
        {t("policy.changeLog.title")}
      </Heading>
      {!changes.length ? (
        <Text size="small" className="text-ui-fg-subtle px-6">
          {t("policy.changeLog.empty")}
        </Text>
      ) : (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>{t("policy.changeLog.when")}</Table.HeaderCell>
              <Table.HeaderCell>{t("policy.changeLog.who")}</Table.HeaderCell>
              {showProvider && <Table.HeaderCell>{t("policy.changeLog.provider")}</Table.HeaderCell>}
              <Table.HeaderCell>{t("policy.changeLog.setting")}</Table.HeaderCell>
              <Table.HeaderCell>{t("policy.changeLog.change")}</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {changes.map((change) => (
              <Table.Row
                key={change.id}
                data-testid="crypto-settings-change"
                data-change-id={change.id}
                data-field={change.field}
              >
                <Table.Cell>{change.created_at ? formatDateTime(change.created_at, locale) : "—"}</Table.Cell>
                <Table.Cell>{actorText(change)}</Table.Cell>
                {showProvider && <Table.Cell className="font-mono">{change.provider_id}</Table.Cell>}
                <Table.Cell>{policyFieldLabel(t, change.field)}</Table.Cell>
                <Table.Cell>{`${valueText(change, change.from)} → ${valueText(change, change.to)}`}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      )}
    </div>
  )
}

/**
 * "Payment policy": how the plugin treats short and late payments and prices other store currencies, per
 * crypto provider, and who changed it.
 */
export function PaymentPolicyPanel() {
  const { t } = useCryptoI18n()
  const { data, error, isLoading } = useCryptoSettings()
  const several = (data?.settings.length ?? 0) > 1
  return (
    <Container className="divide-y p-0" data-testid="crypto-settings">
      <div className="px-6 py-4">
        <Heading level="h2">{t("policy.title")}</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          {t("policy.hint")}
        </Text>
      </div>
      {isLoading && <Text className="px-6 py-4">{t("common.loading")}</Text>}
      {error && (
        <Text className="text-ui-fg-error px-6 py-4" data-testid="crypto-settings-error">
          {(error as Error).message}
        </Text>
      )}
      {data && !data.settings.length && <Text className="px-6 py-4">{t("policy.noProvider")}</Text>}
      {data?.settings.map((setting) => (
        <ProviderPolicyForm key={setting.provider_id} setting={setting} showProvider={several} />
      ))}
      {data && <ChangeLog changes={data.changes} showProvider={several} />}
    </Container>
  )
}
