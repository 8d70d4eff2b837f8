import { Alert, Badge, Button, Copy, Heading, Input, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { CryptoPayment, FLAG_LABELS, useMarkRefundSent, useRecheckPayment } from "../lib/crypto-payments"
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

/** One crypto payment of an order: what was asked and received, confirmations, flags, timeline, actions. */
export function CryptoPaymentCard({ payment }: { payment: CryptoPayment }) {
  const recheck = useRecheckPayment()
  const refundSent = useMarkRefundSent()
  const [reference, setReference] = useState("")
  const coin = payment.coin ?? ""
  const warnings = payment.flags.filter((f) => f !== "refund_owed" && f !== "needs_attention")

  const onRecheck = () =>
    recheck.mutate(payment.id, {
      onSuccess: ({ payment: fresh }) => toast.success(`Re-checked: the service says ${fresh.status}.`),
      onError: (error) => toast.error((error as Error).message),
    })
  const onRefundSent = () =>
    refundSent.mutate(
      { id: payment.id, reference: reference.trim() || undefined },
      {
        onSuccess: () => toast.success("Refund marked as sent."),
        onError: (error) => toast.error((error as Error).message),
      }
    )

  return (
    <div className="flex flex-col gap-y-3 px-6 py-4" data-testid="crypto-payment" data-payment-id={payment.id}>
      <div className="flex items-center justify-between gap-x-2">
        <Heading level="h3">{payment.kind === "invoice" ? "Crypto invoice" : `${coin} payment`}</Heading>
        <PaymentStatusBadge status={payment.status} />
      </div>

      {warnings.length > 0 && (
        <div className="flex flex-wrap gap-1">
          {warnings.map((flag) => (
            <Badge key={flag} size="2xsmall" color="orange">
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
      {payment.refund.owed && (
        <Alert variant="error" data-testid="crypto-refund-owed">
          <div className="flex flex-col gap-y-2">
            <span>
              Refund owed: send {payment.refund.amount ?? "the refunded share"} {coin} to the customer from the crypto
              payment service's dashboard (the service has no refund API), then mark it sent.
            </span>
            <div className="flex gap-x-2">
              <Input
                size="small"
                placeholder="Transaction reference (optional)"
                value={reference}
                onChange={(e) => setReference(e.target.value)}
              />
              <Button size="small" variant="secondary" onClick={onRefundSent} isLoading={refundSent.isPending}>
                Mark refund sent
              </Button>
            </div>
          </div>
        </Alert>
      )}

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
