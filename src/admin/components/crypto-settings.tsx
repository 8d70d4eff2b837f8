import { Badge, Button, Container, Heading, Hint, Input, Label, Select, Table, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import {
  actorText,
  CryptoSetting,
  CryptoSettingChange,
  CryptoSettingUpdate,
  LatePayments,
  latePaymentsLabel,
  overridesDefault,
  parseTolerancePercent,
  PaymentPolicyField,
  POLICY_FIELD_LABELS,
  policyUpdate,
  PolicyEdits,
  policyValueText,
  TOLERANCE_MAX_PERCENT,
  useCryptoSettings,
  useSaveCryptoSetting,
} from "../lib/crypto-payments"

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
  const overridden = overridesDefault(setting, field)
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <Text size="xsmall" className="text-ui-fg-subtle">
        {`medusa-config default: ${policyValueText(field, setting.defaults[field])}`}
      </Text>
      <Badge size="2xsmall" color={overridden ? "blue" : "grey"}>
        {overridden ? "Saved value overrides it" : "Uses the default"}
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
          Use default
        </Button>
      )}
    </div>
  )
}

/** The underpayment tolerance as typed, with why a typed value cannot be saved. */
function ToleranceField({ id, value, onChange }: { id: string; value: string; onChange: (value: string) => void }) {
  const invalid = parseTolerancePercent(value) === null
  return (
    <div className="flex flex-col gap-y-1">
      <Label htmlFor={id} size="small" weight="plus">
        {`${POLICY_FIELD_LABELS.underpayment_tolerance_percent} (%)`}
      </Label>
      <Text size="xsmall" className="text-ui-fg-subtle">
        An invoice that expires short by no more than this share of its amount is accepted as paid.
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
      {invalid && (
        <Hint variant="error">{`Enter a percent from 0 to ${TOLERANCE_MAX_PERCENT}, with at most 2 decimals.`}</Hint>
      )}
    </div>
  )
}

/** What happens to an order whose invoice expires before the money arrives. */
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
  return (
    <div className="flex flex-col gap-y-1">
      <Label htmlFor={id} size="small" weight="plus">
        {POLICY_FIELD_LABELS.late_payments}
      </Label>
      <Text size="xsmall" className="text-ui-fg-subtle">
        What happens to an order when its invoice expires before the payment arrives.
      </Text>
      <Select value={value} onValueChange={(v) => onChange(v as LatePayments)}>
        <Select.Trigger id={id} className="max-w-xl" data-testid="crypto-late-payments-select">
          <Select.Value />
        </Select.Trigger>
        <Select.Content>
          {(["flag", "fulfil"] as const).map((option) => (
            <Select.Item key={option} value={option}>
              {latePaymentsLabel(option, windowHours)}
            </Select.Item>
          ))}
        </Select.Content>
      </Select>
    </div>
  )
}

/** One provider's policy: both fields with their defaults, saved together; each field can go back to its default. */
function ProviderPolicyForm({ setting, showProvider }: { setting: CryptoSetting; showProvider: boolean }) {
  const save = useSaveCryptoSetting()
  // only what the admin touched: untouched fields follow the settings as the backend reads them
  const [edits, setEdits] = useState<PolicyEdits>({})
  const update = policyUpdate(setting, edits)

  const post = (body: CryptoSettingUpdate, done: string) =>
    save.mutate(body, {
      onSuccess: () => {
        setEdits((current) => {
          const rest = { ...current }
          for (const field of Object.keys(POLICY_FIELD_LABELS) as PaymentPolicyField[]) {
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
      `${POLICY_FIELD_LABELS[field]} uses the medusa-config default again.`
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
          onClick={() => update && post(update, "Payment policy saved.")}
          data-testid="crypto-settings-save"
        >
          Save
        </Button>
      </div>
    </div>
  )
}

/** Every saved change, newest first: when, who, which field, from what to what. */
function ChangeLog({ changes, showProvider }: { changes: CryptoSettingChange[]; showProvider: boolean }) {
  return (
    <div className="flex flex-col gap-y-2 py-4">
      <Heading level="h3" className="px-6">
        Change log
      </Heading>
      {!changes.length ? (
        <Text size="small" className="text-ui-fg-subtle px-6">
          No changes yet: the medusa-config defaults apply.
        </Text>
      ) : (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>When</Table.HeaderCell>
              <Table.HeaderCell>Who</Table.HeaderCell>
              {showProvider && <Table.HeaderCell>Provider</Table.HeaderCell>}
              <Table.HeaderCell>Setting</Table.HeaderCell>
              <Table.HeaderCell>Change</Table.HeaderCell>
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
                <Table.Cell>{new Date(change.created_at).toLocaleString()}</Table.Cell>
                <Table.Cell>{actorText(change)}</Table.Cell>
                {showProvider && <Table.Cell className="font-mono">{change.provider_id}</Table.Cell>}
                <Table.Cell>{POLICY_FIELD_LABELS[change.field] ?? change.field}</Table.Cell>
                <Table.Cell>
                  {`${policyValueText(change.field, change.from)} → ${policyValueText(change.field, change.to)}`}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      )}
    </div>
  )
}

/** "Payment policy": how the plugin treats short and late payments, per crypto provider, and who changed it. */
export function PaymentPolicyPanel() {
  const { data, error, isLoading } = useCryptoSettings()
  const several = (data?.settings.length ?? 0) > 1
  return (
    <Container className="divide-y p-0" data-testid="crypto-settings">
      <div className="px-6 py-4">
        <Heading level="h2">Payment policy</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          Saved values override the provider options in medusa-config; "Use default" goes back to them.
        </Text>
      </div>
      {isLoading && <Text className="px-6 py-4">Loading…</Text>}
      {error && (
        <Text className="text-ui-fg-error px-6 py-4" data-testid="crypto-settings-error">
          {(error as Error).message}
        </Text>
      )}
      {data && !data.settings.length && <Text className="px-6 py-4">No crypto payment provider is configured.</Text>}
      {data?.settings.map((setting) => (
        <ProviderPolicyForm key={setting.provider_id} setting={setting} showProvider={several} />
      ))}
      {data && <ChangeLog changes={data.changes} showProvider={several} />}
    </Container>
  )
}
