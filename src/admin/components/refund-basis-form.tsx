import { Button, Hint, Input, Label, Select, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { basisFormDefaults, basisLabel, checkBasisForm, REFUND_BASES } from "../lib/owed-refunds"
import { useChooseRefundBasis, type OwedRef } from "../lib/payment-queries"
import type { OwedRecord, RefundBasis } from "../lib/payment-types"
import { formatAmount } from "../lib/format"
import { useCryptoI18n } from "../lib/i18n"
import { OwedSectionTitle } from "./owed-section-title"

function DecimalField(props: {
  id: string
  label: string
  placeholder: string
  value: string
  error?: string
  onChange: (value: string) => void
  testId: string
  className?: string
}) {
  return (
    <div className="flex flex-col gap-y-1">
      <Label htmlFor={props.id} size="xsmall" weight="plus">
        {props.label}
      </Label>
      <Input
        id={props.id}
        size="small"
        inputMode="decimal"
        autoComplete="off"
        placeholder={props.placeholder}
        className={props.className}
        value={props.value}
        aria-invalid={!!props.error}
        onChange={(event) => props.onChange(event.target.value)}
        data-testid={props.testId}
      />
      {props.error && <Hint variant="error">{props.error}</Hint>}
    </div>
  )
}

/** Chooses the refund's basis (the rate at payment, or coins typed) and a fee; the server's refusal shows below it. */
export function RefundBasisForm({ record, owed, coin }: { record: OwedRecord; owed: OwedRef; coin: string }) {
  const { t, locale } = useCryptoI18n()
  const choose = useChooseRefundBasis()
  const [values, setValues] = useState(() => basisFormDefaults(record))
  const [serverError, setServerError] = useState<string | null>(null)
  const { body, errors } = checkBasisForm(values, record.coin ?? coin)
  const id = `crypto-basis-${record.id}`

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault()
    if (!body) return
    setServerError(null)
    choose.mutate(
      { ...owed, body },
      {
        onSuccess: ({ payment }) => {
          const saved = payment.refund.records.find((r) => r.id === record.id)
          toast.success(
            saved?.coin_amount
              ? t("owed.basisForm.saved", {
                  amount: formatAmount(saved.coin_amount_sendable ?? saved.coin_amount, locale),
                  coin,
                })
              : t("owed.basisForm.savedNoAmount")
          )
        },
        onError: (error) => setServerError((error as Error).message),
      }
    )
  }

  return (
    <form
      className="flex flex-col gap-y-2"
      onSubmit={onSubmit}
      data-testid="crypto-refund-basis-form"
      data-owed-id={record.id}
    >
      <OwedSectionTitle>{t("owed.basisForm.title")}</OwedSectionTitle>
      <Text size="xsmall" className="text-ui-fg-muted">
        {t("owed.basisForm.hint")}
      </Text>
      <div className="flex flex-col gap-y-1">
        <Label htmlFor={`${id}-basis`} size="xsmall" weight="plus">
          {t("owed.basisForm.basis")}
        </Label>
        <Select
          size="small"
          value={values.basis}
          onValueChange={(basis) => setValues({ ...values, basis: basis as RefundBasis })}
        >
          <Select.Trigger id={`${id}-basis`} data-testid="crypto-refund-basis-select">
            <Select.Value />
          </Select.Trigger>
          <Select.Content>
            {REFUND_BASES.map((basis) => (
              <Select.Item key={basis} value={basis}>
                {basisLabel(t, basis)}
              </Select.Item>
            ))}
          </Select.Content>
        </Select>
      </div>
      {values.basis === "fixed_coins" && (
        <DecimalField
          id={`${id}-coins`}
          label={t("owed.basisForm.coins", { coin })}
          placeholder="0.0051"
          value={values.coins}
          error={errors.coins && t(errors.coins.key, errors.coins.values)}
          onChange={(coins) => setValues({ ...values, coins })}
          testId="crypto-refund-basis-coins"
        />
      )}
      <DecimalField
        id={`${id}-fee`}
        label={t("owed.basisForm.fee")}
        placeholder="0"
        className="w-32"
        value={values.fee}
        error={errors.fee && t(errors.fee.key, errors.fee.values)}
        onChange={(fee) => setValues({ ...values, fee })}
        testId="crypto-refund-basis-fee"
      />
      {serverError && (
        <Hint variant="error" data-testid="crypto-refund-basis-error">
          {serverError}
        </Hint>
      )}
      <div>
        <Button
          type="submit"
          size="small"
          variant="secondary"
          disabled={!body}
          isLoading={choose.isPending}
          data-testid="crypto-refund-basis-submit"
        >
          {t("owed.basisForm.submit")}
        </Button>
      </div>
    </form>
  )
}
