import { Alert, Badge, Button, Input, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { owedKindLabel, owedNowText } from "../lib/payment-labels"
import { useMarkRefundSent } from "../lib/payment-queries"
import type { CryptoPayment, OwedRecord } from "../lib/payment-types"
import { formatAmount, formatDateTime } from "../lib/format"
import { useCryptoI18n } from "../lib/i18n"

/** One owed amount: its kind, coins and base amount, the refund's reason and note, sent or open. */
function OwedRecordItem({ record, coin, baseCurrency }: { record: OwedRecord; coin: string; baseCurrency: string }) {
  const { t, locale } = useCryptoI18n()
  // the reason and the note are the merchant's words, as Medusa keeps them
  const why = record.kind === "refund" ? [record.reason, record.note].filter(Boolean).join(" · ") : ""
  const coins = record.coin_amount === null ? "?" : formatAmount(record.coin_amount, locale)
  const when = [
    record.created_at && t("owed.since", { at: formatDateTime(record.created_at, locale) }),
    record.sent_at && t("owed.sentAt", { at: formatDateTime(record.sent_at, locale) }),
    record.reference && t("owed.reference", { reference: record.reference }),
  ]
  return (
    <li
      className="border-ui-border-base flex flex-col gap-y-1 rounded-md border px-3 py-2"
      data-testid="crypto-owed-record"
      data-kind={record.kind}
      title={record.refund_id ? t("owed.medusaRefund", { id: record.refund_id }) : undefined}
    >
      <div className="flex items-center justify-between gap-x-2">
        <Badge size="2xsmall" color="grey">
          {owedKindLabel(t, record.kind)}
        </Badge>
        <Badge size="2xsmall" color={record.sent_at ? "green" : "orange"} data-sent={Boolean(record.sent_at)}>
          {record.sent_at ? t("owed.sent") : t("owed.open")}
        </Badge>
      </div>
      <Text size="small" leading="compact">
        {`${coins} ${coin} (≈ ${formatAmount(record.base_amount, locale)} ${baseCurrency})`}
      </Text>
      {why && (
        <Text size="xsmall" className="text-ui-fg-subtle">
          {why}
        </Text>
      )}
      <Text size="xsmall" className="text-ui-fg-muted">
        {when.filter(Boolean).join(" · ")}
      </Text>
    </li>
  )
}

/**
 * Money owed to the customer: every record (refunds, excess, late money), what to send now, and the one
 * action that marks everything owed now as sent. The service has no refund API: the coins leave from its
 * dashboard, and the admin tells us they did.
 */
export function OwedToCustomer({ payment }: { payment: CryptoPayment }) {
  const { t, locale } = useCryptoI18n()
  const refundSent = useMarkRefundSent()
  const [reference, setReference] = useState("")
  const { refund } = payment
  const coin = refund.coin ?? payment.coin ?? ""

  const onRefundSent = () =>
    refundSent.mutate(
      { id: payment.id, reference: reference.trim() || undefined },
      {
        onSuccess: () => {
          setReference("")
          toast.success(t("owed.markedSent"))
        },
        onError: (error) => toast.error((error as Error).message),
      }
    )

  return (
    <div className="flex flex-col gap-y-2" data-testid="crypto-owed">
      <Text size="small" leading="compact" weight="plus">
        {t("owed.title")}
      </Text>
      {refund.records.length > 0 && (
        <ul className="flex flex-col gap-y-2">
          {refund.records.map((record) => (
            <OwedRecordItem key={record.id} record={record} coin={coin} baseCurrency={refund.base_currency} />
          ))}
        </ul>
      )}
      {refund.owed && (
        <Alert variant="warning" data-testid="crypto-refund-owed">
          <div className="flex flex-col gap-y-2">
            <span className="txt-compact-small-plus" data-testid="crypto-owed-now">
              {t("owed.sendNow", { amount: owedNowText(t, locale, refund, payment.coin) })}
            </span>
            <span>{t("owed.howTo")}</span>
            <div className="flex gap-x-2">
              <Input
                size="small"
                placeholder={t("owed.referencePlaceholder")}
                value={reference}
                onChange={(e) => setReference(e.target.value)}
                data-testid="crypto-refund-reference"
              />
              <Button
                size="small"
                variant="secondary"
                onClick={onRefundSent}
                isLoading={refundSent.isPending}
                data-testid="crypto-mark-refund-sent"
              >
                {t("owed.markSent")}
              </Button>
            </div>
          </div>
        </Alert>
      )}
    </div>
  )
}
