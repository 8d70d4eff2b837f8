import { Alert, Badge, Button, Copy, Heading, Input, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { remainingToSend, shortfallOf } from "../lib/amounts-due"
import {
  CryptoPayment,
  FLAG_LABELS,
  INFO_FLAGS,
  OWED_KIND_LABELS,
  OwedRecord,
  owedNowText,
  signedPercent,
  useMarkRefundSent,
  useRecheckPayment,
  useRequestRemainder,
} from "../lib/crypto-payments"
import { Countdown } from "./countdown"
import { PaymentStatusBadge } from "./payment-status-badge"
import { ProgressBar } from "./progress-bar"
import { QrCode } from "./qr-code"

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[120px_1fr] items-start gap-x-3 py-1">
      <Text size="small" leading="compact" className="text-ui-fg-subtle">
        {label}
      </Text>
      <div className="text-ui-fg-base txt-compact-small min-w-0 break-all">{children}</div>
    </div>
  )
}

const when = (at: string) => new Date(at).toLocaleString()

/** One owed amount: its kind, coins and base amount, the refund's reason and note, sent or open. */
function OwedRecordItem({ record, coin, baseCurrency }: { record: OwedRecord; coin: string; baseCurrency: string }) {
  const why = record.kind === "refund" ? [record.reason, record.note].filter(Boolean).join(" · ") : ""
  return (
    <li
      className="border-ui-border-base flex flex-col gap-y-1 rounded-md border px-3 py-2"
      data-testid="crypto-owed-record"
      data-kind={record.kind}
      title={record.refund_id ? `Medusa refund ${record.refund_id}` : undefined}
    >
      <div className="flex items-center justify-between gap-x-2">
        <Badge size="2xsmall" color="grey">
          {OWED_KIND_LABELS[record.kind] ?? record.kind}
        </Badge>
        {record.sent_at ? (
          <Badge size="2xsmall" color="green">
            Sent
          </Badge>
        ) : (
          <Badge size="2xsmall" color="orange">
            Open
          </Badge>
        )}
      </div>
      <Text size="small" leading="compact">
        {`${record.coin_amount ?? "?"} ${coin} (≈ ${record.base_amount} ${baseCurrency})`}
      </Text>
      {why && (
        <Text size="xsmall" className="text-ui-fg-subtle">
          {why}
        </Text>
      )}
      <Text size="xsmall" className="text-ui-fg-muted">
        {`Owed since ${when(record.created_at)}`}
        {record.sent_at ? ` · sent ${when(record.sent_at)}` : ""}
        {record.reference ? ` · ref. ${record.reference}` : ""}
      </Text>
    </li>
  )
}

/**
 * Money owed to the customer: every record (refunds, excess, late money), what to send now, and the one
 * action that marks everything owed now as sent. The service has no refund API: the coins leave from its
 * dashboard, and the admin tells us they did.
 */
function OwedToCustomer({ payment }: { payment: CryptoPayment }) {
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
          toast.success("Everything owed now is marked as sent.")
        },
        onError: (error) => toast.error((error as Error).message),
      }
    )

  return (
    <div className="flex flex-col gap-y-2" data-testid="crypto-owed">
      <Text size="small" leading="compact" weight="plus">
        Owed to the customer
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
              {`Send now: ${owedNowText(refund, payment.coin)}`}
            </span>
            <span>
              Send it to the customer from the crypto payment service's dashboard (the service has no refund API), then
              mark it sent: this marks everything owed now as sent, with one reference.
            </span>
            <div className="flex gap-x-2">
              <Input
                size="small"
                placeholder="Transaction reference (optional)"
                value={reference}
                onChange={(e) => setReference(e.target.value)}
              />
              <Button size="small" variant="secondary" onClick={onRefundSent} isLoading={refundSent.isPending}>
                Mark all owed now as sent
              </Button>
            </div>
          </div>
        </Alert>
      )}
    </div>
  )
}

/**
 * The service's hosted page of a payment still open, to send to the customer by email or chat: the
 * link, a copy button and its QR code. Payments created from the admin (an order edit, claim or
 * exchange that costs more) have no storefront page, so this is how the customer gets there.
 */
function PaymentLink({ url }: { url: string }) {
  return (
    <div className="flex flex-col gap-y-2" data-testid="crypto-payment-link">
      <Text size="small" leading="compact" weight="plus">
        Payment link
      </Text>
      <Text size="xsmall" className="text-ui-fg-subtle">
        Send it to the customer by email or chat: it opens the payment page, where they pay in crypto.
      </Text>
      <div className="flex items-center gap-x-2">
        <Input
          size="small"
          readOnly
          value={url}
          aria-label="Payment link"
          onFocus={(e) => e.currentTarget.select()}
          className="flex-1"
        />
        <Copy content={url} asChild aria-label="Copy payment link">
          <Button size="small" variant="secondary">
            Copy
          </Button>
        </Copy>
      </div>
      <div className="flex justify-center">
        <QrCode payload={url} size={144} label="Payment link QR code" />
      </div>
    </div>
  )
}

/** One crypto payment of an order: what was asked and received, confirmations, flags, timeline, actions. */
export function CryptoPaymentCard({ payment }: { payment: CryptoPayment }) {
  const recheck = useRecheckPayment()
  const coin = payment.coin ?? ""
  // refund_owed and needs_attention have their own sections below; informational flags show in grey
  const badges = payment.flags.filter((f) => f !== "refund_owed" && f !== "needs_attention")
  const drift = payment.quote_drift
  const remaining = remainingToSend(payment)
  const shortfall = shortfallOf(payment)
  const remainder = useRequestRemainder()
  const onRemainder = () =>
    remainder.mutate(payment.id, {
      onSuccess: ({ payment: asked }) =>
        toast.success(`Remainder requested: ${asked.amount_required} ${asked.coin}. Its payment link is below.`),
      onError: (error) => toast.error((error as Error).message),
    })

  const onRecheck = () =>
    recheck.mutate(payment.id, {
      onSuccess: ({ payment: fresh }) => toast.success(`Re-checked: the service says ${fresh.status}.`),
      onError: (error) => toast.error((error as Error).message),
    })

  return (
    <div className="flex flex-col gap-y-3 px-6 py-4" data-testid="crypto-payment" data-payment-id={payment.id}>
      <div className="flex items-center justify-between gap-x-2">
        <Heading level="h3">{payment.kind === "invoice" ? "Crypto invoice" : `${coin} payment`}</Heading>
        <PaymentStatusBadge status={payment.status} />
      </div>

      {badges.length > 0 && (
        <div className="flex flex-wrap gap-1">
          {badges.map((flag) => (
            <Badge key={flag} size="2xsmall" color={INFO_FLAGS.has(flag) ? "grey" : "orange"}>
              {FLAG_LABELS[flag] ?? flag}
            </Badge>
          ))}
        </div>
      )}
      {payment.attention && (
        <Alert variant="warning" data-testid="crypto-attention">
          {payment.attention}
        </Alert>
      )}
      {remaining && (
        <Alert variant="info" data-testid="crypto-remaining">
          {`Part of the amount arrived: the customer can send the remaining ${remaining} ${coin} to the same address`}
        </Alert>
      )}
      {shortfall && (
        <Alert variant="warning" data-testid="crypto-shortfall">
          <div className="flex flex-col gap-y-2">
            <Text size="small">
              {`Expired short: ${shortfall} ${coin} is missing. Ask the customer for the rest: a payment for it, in ${coin}, completes this one.`}
            </Text>
            <Button size="small" variant="secondary" isLoading={remainder.isPending} onClick={onRemainder}>
              Request the remainder
            </Button>
          </div>
        </Alert>
      )}
      {(payment.refund.owed || payment.refund.records.length > 0) && <OwedToCustomer payment={payment} />}

      <div className="flex flex-col gap-y-3">
        <div className="min-w-0">
          <Row label="Coin">{coin || "not chosen yet"}</Row>
          {payment.address && (
            <Row label="Address">
              <span className="inline-flex items-center gap-x-1">
                <span className="font-mono">{payment.address}</span>
                <Copy content={payment.address} />
              </span>
            </Row>
          )}
          <Row label="Received">
            <span data-testid="crypto-received">
              {payment.amount_received} / {payment.amount_required ?? "?"} {coin}
            </span>
          </Row>
          {drift && (
            <Row label="Quote">
              <span data-testid="crypto-quote-drift">
                {`Re-priced by the service: quoted ${drift.quoted}, asked ${drift.required} ${drift.coin} (${signedPercent(drift.percent)})`}
              </span>
            </Row>
          )}
          <Row label="Amount">
            {payment.base_amount} {payment.base_currency}
          </Row>
          <Row label="Confirmations">
            <div className="flex flex-col gap-y-1">
              <span data-testid="crypto-confirmations">
                {payment.confirmations} / {payment.required_confirmations ?? "?"}
              </span>
              {payment.required_confirmations ? (
                <ProgressBar value={payment.confirmations} max={payment.required_confirmations} label="Confirmations" />
              ) : null}
            </div>
          </Row>
          {payment.expires_at && (
            <Row label="Expires">
              {payment.status === "PENDING" ? (
                <Countdown until={payment.expires_at} />
              ) : (
                new Date(payment.expires_at).toLocaleString()
              )}
            </Row>
          )}
          {payment.invoice_url && (
            <Row label="Payment page">
              <a
                className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover"
                href={payment.invoice_url}
                target="_blank"
                rel="noreferrer"
              >
                Open
              </a>
            </Row>
          )}
          <Row label="Payment id">
            <span className="font-mono">{payment.id}</span>
          </Row>
        </div>
        {payment.qr_code && (
          <div className="flex justify-center">
            <QrCode payload={payment.qr_code} size={144} />
          </div>
        )}
      </div>

      {payment.status === "PENDING" && payment.invoice_url && <PaymentLink url={payment.invoice_url} />}

      <details>
        <summary className="txt-compact-small text-ui-fg-subtle cursor-pointer">
          Timeline ({payment.timeline.length})
        </summary>
        <ol className="mt-2 flex flex-col gap-y-1" data-testid="crypto-timeline">
          {payment.timeline.map((entry, i) => (
            <li key={i} className="txt-compact-xsmall text-ui-fg-subtle">
              {new Date(entry.at).toLocaleString()} · {entry.source} · {entry.status} · {entry.confirmations} conf. ·{" "}
              {entry.received}
              {entry.applied ? ` · ${entry.applied}` : ""}
              {entry.note ? ` · ${entry.note}` : ""}
            </li>
          ))}
        </ol>
      </details>

      <div className="flex items-center justify-between">
        <Text size="xsmall" className="text-ui-fg-muted">
          {payment.last_checked_at
            ? `Checked ${new Date(payment.last_checked_at).toLocaleString()}`
            : "Not checked yet"}
        </Text>
        <Button size="small" variant="secondary" onClick={onRecheck} isLoading={recheck.isPending}>
          Re-check now
        </Button>
      </div>
    </div>
  )
}
