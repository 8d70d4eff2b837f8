import { Alert, Badge, Button, Copy, Heading, Text, toast } from "@medusajs/ui"
import { remainingToSend, shortfallOf } from "../lib/amounts-due"
import { flagLabel, INFO_FLAGS, networkLabel, statusLabel } from "../lib/payment-labels"
import { useRecheckPayment, useRequestRemainder } from "../lib/payment-queries"
import type { CryptoPayment } from "../lib/payment-types"
import { formatAmount, formatDateTime, formatPercent } from "../lib/format"
import { useCryptoI18n } from "../lib/i18n"
import { walletHref } from "../lib/wallet-uri"
import { Countdown } from "./countdown"
import { OwedToCustomer } from "./owed-to-customer"
import { PaymentActivity } from "./payment-activity"
import { PaymentLink } from "./payment-link"
import { PaymentStatusBadge } from "./payment-status-badge"
import { ProgressBar } from "./progress-bar"
import { QrCode } from "./qr-code"
import { StoreAmount } from "./store-amount"
import { LabelledRow } from "./labelled-row"

const Row = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <LabelledRow label={label} layout="card">
    {children}
  </LabelledRow>
)

/** An amount the service may not know yet: "?" then. */
const amountOrUnknown = (value: string | number | null, locale: string | undefined) =>
  value === null ? "?" : formatAmount(value, locale)

/**
 * The payment as a wallet reads it (BIP-21 or EIP-681: address, network, the amount still to send), as
 * the server built it; the same text the card's QR code carries. Copied whole, or opened in a wallet app.
 */
function WalletUriRow({ uri }: { uri: string }) {
  const { t } = useCryptoI18n()
  const href = walletHref(uri)
  return (
    <Row label={t("card.rows.walletUri")}>
      <div className="flex flex-col items-start gap-y-1">
        <span className="inline-flex items-start gap-x-1">
          <span className="font-mono" data-testid="crypto-wallet-uri">
            {uri}
          </span>
          <Copy content={uri} aria-label={t("card.copyWalletUri")} />
        </span>
        {href && (
          <a
            className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover"
            href={href}
            data-testid="crypto-wallet-uri-open"
          >
            {t("card.openInWallet")}
          </a>
        )}
      </div>
    </Row>
  )
}

function PaymentDetails({ payment }: { payment: CryptoPayment }) {
  const { t, locale } = useCryptoI18n()
  const coin = payment.coin ?? ""
  const network = networkLabel(t, payment.coin)
  const drift = payment.quote_drift
  return (
    <div className="min-w-0">
      <Row label={t("card.rows.coin")}>{coin || t("card.coinNotChosen")}</Row>
      {network && (
        <Row label={t("card.rows.network")}>
          <span className="font-medium" data-testid="crypto-network">
            {network}
          </span>
        </Row>
      )}
      {payment.address && (
        <Row label={t("card.rows.address")}>
          <span className="inline-flex items-center gap-x-1">
            {/* as the server sends it: EVM addresses with their EIP-55 checksum */}
            <span className="font-mono" data-testid="crypto-address">
              {payment.address}
            </span>
            {/* the tooltip ("Copy", "Copied") is @medusajs/ui's own, in English */}
            <Copy content={payment.address} aria-label={t("card.copyAddress")} />
          </span>
        </Row>
      )}
      {payment.wallet_uri && <WalletUriRow uri={payment.wallet_uri} />}
      <Row label={t("card.rows.received")}>
        <span data-testid="crypto-received">
          {`${formatAmount(payment.amount_received, locale)} / ${amountOrUnknown(payment.amount_required, locale)} ${coin}`}
        </span>
      </Row>
      {drift && (
        <Row label={t("card.rows.quote")}>
          <span data-testid="crypto-quote-drift">
            {t("card.quoteDrift", {
              quoted: formatAmount(drift.quoted, locale),
              required: formatAmount(drift.required, locale),
              coin: drift.coin,
              percent: formatPercent(drift.percent, locale, true),
            })}
          </span>
        </Row>
      )}
      <Row label={t("card.rows.amount")}>
        <StoreAmount payment={payment} />
      </Row>
      <Row label={t("card.rows.confirmations")}>
        <div className="flex flex-col gap-y-1">
          <span data-testid="crypto-confirmations">
            {`${payment.confirmations} / ${payment.required_confirmations ?? "?"}`}
          </span>
          {payment.required_confirmations ? (
            <ProgressBar
              value={payment.confirmations}
              max={payment.required_confirmations}
              label={t("card.rows.confirmations")}
            />
          ) : null}
        </div>
      </Row>
      {payment.expires_at && (
        <Row label={t("card.rows.expires")}>
          {payment.status === "PENDING" ? (
            <Countdown until={payment.expires_at} />
          ) : (
            formatDateTime(payment.expires_at, locale)
          )}
        </Row>
      )}
      {payment.invoice_url && (
        <Row label={t("card.rows.paymentPage")}>
          <a
            className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover"
            href={payment.invoice_url}
            target="_blank"
            rel="noreferrer"
          >
            {t("card.openPaymentPage")}
          </a>
        </Row>
      )}
      <Row label={t("card.rows.paymentId")}>
        <span className="font-mono">{payment.id}</span>
      </Row>
    </div>
  )
}

/** What the service reported, oldest first; its sources, decisions and notes are codes and words of the server, shown as sent. */
function Timeline({ timeline }: { timeline: CryptoPayment["timeline"] }) {
  const { t, locale } = useCryptoI18n()
  return (
    <details>
      <summary className="txt-compact-small text-ui-fg-subtle cursor-pointer">
        {t("card.timeline", { entries: timeline.length })}
      </summary>
      <ol className="mt-2 flex flex-col gap-y-1" data-testid="crypto-timeline">
        {timeline.map((entry, i) => (
          <li key={i} className="txt-compact-xsmall text-ui-fg-subtle">
            {[
              formatDateTime(entry.at, locale),
              entry.source,
              statusLabel(t, entry.status),
              t("card.timelineConfirmations", { confirmations: entry.confirmations }),
              formatAmount(entry.received, locale),
              entry.applied,
              entry.rounding && t("card.timelineRounding", { amount: formatAmount(entry.rounding, locale) }),
              entry.note,
            ]
              .filter(Boolean)
              .join(" · ")}
          </li>
        ))}
      </ol>
    </details>
  )
}

function ShortPayment({ payment }: { payment: CryptoPayment }) {
  const { t, locale } = useCryptoI18n()
  const coin = payment.coin ?? ""
  const remaining = remainingToSend(payment)
  const shortfall = shortfallOf(payment)
  const remainder = useRequestRemainder()
  const onRemainder = () =>
    remainder.mutate(payment.id, {
      onSuccess: ({ payment: asked }) =>
        toast.success(
          t("card.remainderRequested", {
            amount: amountOrUnknown(asked.amount_required, locale),
            coin: asked.coin ?? "",
          })
        ),
      onError: (error) => toast.error((error as Error).message),
    })
  return (
    <>
      {remaining && (
        <Alert variant="info" data-testid="crypto-remaining">
          {t("card.remaining", { amount: formatAmount(remaining, locale), coin })}
        </Alert>
      )}
      {shortfall && (
        <Alert variant="warning" data-testid="crypto-shortfall">
          <div className="flex flex-col gap-y-2">
            <Text size="small">{t("card.shortfall", { amount: formatAmount(shortfall, locale), coin })}</Text>
            <Button size="small" variant="secondary" isLoading={remainder.isPending} onClick={onRemainder}>
              {t("card.requestRemainder")}
            </Button>
          </div>
        </Alert>
      )}
    </>
  )
}

/**
 * One crypto payment of an order: what was asked and received, confirmations, flags, timeline, its
 * events and customer emails (from the payment's own read: the list does not carry them), actions.
 */
export function CryptoPaymentCard({ payment }: { payment: CryptoPayment }) {
  const { t, locale } = useCryptoI18n()
  const recheck = useRecheckPayment()
  // refund_owed and needs_attention have their own sections below; informational flags show in grey
  const badges = payment.flags.filter((f) => f !== "refund_owed" && f !== "needs_attention")

  const onRecheck = () =>
    recheck.mutate(payment.id, {
      onSuccess: ({ payment: fresh }) => toast.success(t("card.rechecked", { status: statusLabel(t, fresh.status) })),
      onError: (error) => toast.error((error as Error).message),
    })

  return (
    <div className="flex flex-col gap-y-3 px-6 py-4" data-testid="crypto-payment" data-payment-id={payment.id}>
      <div className="flex items-center justify-between gap-x-2">
        <Heading level="h3">
          {payment.kind === "invoice" ? t("card.invoiceTitle") : t("card.paymentTitle", { coin: payment.coin ?? "" })}
        </Heading>
        <PaymentStatusBadge status={payment.status} />
      </div>

      {badges.length > 0 && (
        <div className="flex flex-wrap gap-1">
          {badges.map((flag) => (
            <Badge key={flag} size="2xsmall" color={INFO_FLAGS.has(flag) ? "grey" : "orange"} data-flag={flag}>
              {flagLabel(t, flag)}
            </Badge>
          ))}
        </div>
      )}
      {/* the server's words: what to do about the payment, in English */}
      {payment.attention && (
        <Alert variant="warning" data-testid="crypto-attention">
          {payment.attention}
        </Alert>
      )}
      <ShortPayment payment={payment} />
      {(payment.refund.owed || payment.refund.records.length > 0) && <OwedToCustomer payment={payment} />}

      <div className="flex flex-col gap-y-3">
        <PaymentDetails payment={payment} />
        {/* the wallet URI, never the service's own qr_code: no wallet reads `<coin>:<address>?amount=` */}
        {payment.wallet_uri && (
          <div className="flex justify-center" data-testid="crypto-qr">
            <QrCode payload={payment.wallet_uri} size={144} label={t("card.qrLabel")} />
          </div>
        )}
      </div>

      {payment.status === "PENDING" && payment.invoice_url && <PaymentLink url={payment.invoice_url} />}

      <Timeline timeline={payment.timeline} />
      <PaymentActivity paymentId={payment.id} />

      <div className="flex items-center justify-between">
        <Text size="xsmall" className="text-ui-fg-muted">
          {payment.last_checked_at
            ? t("card.checkedAt", { at: formatDateTime(payment.last_checked_at, locale) })
            : t("card.notChecked")}
        </Text>
        <Button size="small" variant="secondary" onClick={onRecheck} isLoading={recheck.isPending}>
          {t("card.recheck")}
        </Button>
      </div>
    </div>
  )
}
