import { Alert, Badge, Button, Hint, Input, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import {
  actorLabel,
  basisText,
  coinsToSend,
  markSentBlocker,
  owedActions,
  refundSentBody,
  refusalText,
} from "../lib/owed-refunds"
import { owedKindLabel, owedNowText } from "../lib/payment-labels"
import { useMarkRefundSent, type OwedRef } from "../lib/payment-queries"
import type { CryptoPayment, OwedRecord } from "../lib/payment-types"
import { formatAmount, formatDateTime } from "../lib/format"
import { useCryptoI18n } from "../lib/i18n"
import { CoinsToSend } from "./coins-to-send"
import { OwedSectionTitle } from "./owed-section-title"
import { AddressHistory, RefundAddress } from "./refund-address"
import { RefundActions } from "./refund-actions"
import { RefundBasisForm } from "./refund-basis-form"

function RecordRefund({ record, paymentId, coin }: { record: OwedRecord; paymentId: string; coin: string }) {
  const { t, locale } = useCryptoI18n()
  const owed: OwedRef = { paymentId, owedId: record.id }
  return (
    <div className="border-ui-border-base mt-1 flex flex-col gap-y-2 border-t pt-2">
      <RefundAddress record={record} />
      <div className="flex flex-col gap-y-0.5">
        <OwedSectionTitle>{t("owed.basis.title")}</OwedSectionTitle>
        <Text
          size="xsmall"
          className="text-ui-fg-base"
          data-testid="crypto-refund-basis"
          data-basis={record.basis ?? ""}
        >
          {basisText(t, locale, record)}
        </Text>
      </div>
      {record.payout_started_at && (
        <Text size="xsmall" weight="plus" data-testid="crypto-payout-started">
          {t("owed.payout.started", {
            actor: actorLabel(t, record.payout_started_by, record.payout_started_by_name),
            at: formatDateTime(record.payout_started_at, locale),
          })}
        </Text>
      )}
      <RefundActions record={record} owed={owed} coin={coin} />
      {owedActions(record).chooseBasis && <RefundBasisForm record={record} owed={owed} coin={coin} />}
      <AddressHistory changes={record.address_changes} />
    </div>
  )
}

function OwedRecordItem({
  record,
  paymentId,
  coin,
  baseCurrency,
}: {
  record: OwedRecord
  paymentId: string
  coin: string
  baseCurrency: string
}) {
  const { t, locale } = useCryptoI18n()
  // the reason and the note are the merchant's words, as Medusa keeps them
  const why = record.kind === "refund" ? [record.reason, record.note].filter(Boolean).join(" · ") : ""
  const toSend = coinsToSend(record.coin_amount, record.coin_amount_sendable)
  const coins = toSend === null ? "?" : formatAmount(toSend.send, locale)
  const when = [
    record.created_at && t("owed.since", { at: formatDateTime(record.created_at, locale) }),
    record.sent_at && t("owed.sentAt", { at: formatDateTime(record.sent_at, locale) }),
    record.reference && t("owed.reference", { reference: record.reference }),
  ]
  return (
    <li
      className="border-ui-border-base flex flex-col gap-y-1 rounded-md border px-3 py-2"
      data-testid="crypto-owed-record"
      data-owed-id={record.id}
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
      <div className="flex flex-wrap items-center gap-x-1">
        <Text size="small" leading="compact" data-testid="crypto-owed-record-coins">
          {`${coins} ${coin} (≈ ${formatAmount(record.base_amount, locale)} ${baseCurrency})`}
        </Text>
        {toSend && !record.sent_at && (
          <CoinsToSend send={toSend.send} exact={toSend.exact} coin={coin} testId="crypto-owed-record-to-send" />
        )}
      </div>
      {why && (
        <Text size="xsmall" className="text-ui-fg-subtle">
          {why}
        </Text>
      )}
      <Text size="xsmall" className="text-ui-fg-muted">
        {when.filter(Boolean).join(" · ")}
      </Text>
      <RecordRefund record={record} paymentId={paymentId} coin={coin} />
    </li>
  )
}

/**
 * Money owed to the customer. The service has no refund API: the coins leave from its dashboard, and
 * the admin tells us they did, naming the records they saw, so what changed meanwhile is refused.
 */
export function OwedToCustomer({ payment }: { payment: CryptoPayment }) {
  const { t, locale } = useCryptoI18n()
  const refundSent = useMarkRefundSent()
  const [reference, setReference] = useState("")
  const [refusal, setRefusal] = useState<string | null>(null)
  const { refund } = payment
  const coin = refund.coin ?? payment.coin ?? ""
  const blocker = markSentBlocker(refund.records)
  const owedNow = coinsToSend(refund.owed_now, refund.owed_now_sendable)

  const onRefundSent = () => {
    setRefusal(null)
    refundSent.mutate(
      { id: payment.id, ...refundSentBody(refund.records, reference) },
      {
        onSuccess: () => {
          setReference("")
          toast.success(t("owed.markedSent"))
        },
        onError: (error) => setRefusal(refusalText(t, error)),
      }
    )
  }

  return (
    <div className="flex flex-col gap-y-2" data-testid="crypto-owed">
      <Text size="small" leading="compact" weight="plus">
        {t("owed.title")}
      </Text>
      {refund.records.length > 0 && (
        <ul className="flex flex-col gap-y-2">
          {refund.records.map((record) => (
            <OwedRecordItem
              key={record.id}
              record={record}
              paymentId={payment.id}
              coin={coin}
              baseCurrency={refund.base_currency}
            />
          ))}
        </ul>
      )}
      {refund.owed && (
        <Alert variant="warning" data-testid="crypto-refund-owed">
          <div className="flex flex-col gap-y-2">
            <div className="flex flex-wrap items-center gap-x-1">
              <span className="txt-compact-small-plus" data-testid="crypto-owed-now">
                {t("owed.sendNow", { amount: owedNowText(t, locale, refund, payment.coin) })}
              </span>
              {owedNow && (
                <CoinsToSend send={owedNow.send} exact={owedNow.exact} coin={coin} testId="crypto-owed-now-to-send" />
              )}
            </div>
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
                disabled={!!blocker}
                isLoading={refundSent.isPending}
                title={blocker ? t(blocker) : undefined}
                data-testid="crypto-mark-refund-sent"
              >
                {t("owed.markSent")}
              </Button>
            </div>
            {blocker && (
              <span className="txt-compact-xsmall" data-testid="crypto-mark-sent-blocked">
                {t(blocker)}
              </span>
            )}
            {refusal && (
              <Hint variant="error" data-testid="crypto-refund-sent-error">
                {refusal}
              </Hint>
            )}
          </div>
        </Alert>
      )}
    </div>
  )
}
