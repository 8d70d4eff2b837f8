"use client"
/**
 * The customer's crypto payment, live: the hosted page's link while no coin is chosen, then the amount,
 * the address, its QR code and the countdown, the confirmations, and the end (paid, or expired/failed
 * with a way to start again). It polls the store status route (shared and cached on the server) and
 * never decides anything itself: only the backend marks an order paid.
 *
 * Copy it with crypto-payment.ts and crypto-payment.css. The demo storefront (scripts/demo/storefront)
 * renders exactly this file, and the browser test buys through it.
 */
import type Medusa from "@medusajs/js-sdk"
import { useEffect, useRef, useState } from "react"
import {
  COIN_NAMES,
  CryptoPaymentView,
  CryptoSessionData,
  describeCryptoPayment,
  fetchCryptoQrSvg,
  formatTimeLeft,
  remainingAmount,
  watchCryptoPayment,
} from "./crypto-payment"

/** The payment's status, polled until final (`error` while the status route cannot answer; polling goes on). */
export function useCryptoPayment(sdk: Medusa, paymentId: string, intervalMs = 5_000) {
  const [view, setView] = useState<CryptoPaymentView>()
  const [error, setError] = useState<string>()
  useEffect(() => {
    setView(undefined)
    return watchCryptoPayment(
      sdk,
      paymentId,
      (next) => {
        setView(next)
        setError(undefined)
      },
      { intervalMs, onError: () => setError("The payment status is not available right now; trying again.") }
    )
  }, [sdk, paymentId, intervalMs])
  return { view, error }
}

/** The time left until `expiresAt`, ticking every second. */
function useTimeLeft(expiresAt: string): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000)
    return () => clearInterval(timer)
  }, [])
  return new Date(expiresAt).getTime() - now
}

/** The QR code (SVG from the plugin's route) as an image URL, once the payment has an address. */
function useQrImage(sdk: Medusa, paymentId: string, qrCode: string | null | undefined): string | undefined {
  const [image, setImage] = useState<string>()
  useEffect(() => {
    if (!qrCode) return
    let live = true
    fetchCryptoQrSvg(sdk, paymentId).then(
      (svg) => live && setImage(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`),
      () => live && setImage(undefined)
    )
    return () => {
      live = false
    }
  }, [sdk, paymentId, qrCode])
  return image
}

function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  return (
    <button
      type="button"
      className="crypto-copy"
      aria-label={`Copy the ${label}`}
      onClick={() =>
        navigator.clipboard?.writeText(text).then(() => {
          setCopied(true)
          timer.current = setTimeout(() => setCopied(false), 1_500)
        })
      }
    >
      {copied ? "Copied" : "Copy"}
    </button>
  )
}

export function CryptoPaymentBox({
  sdk,
  session,
  onStatus,
  onStartAgain,
  startAgainLabel = "Start again",
  intervalMs,
}: {
  sdk: Medusa
  /** The session data of the crypto payment session (`cryptoSessionOf(cart.payment_collection)`, or the order's). */
  session: CryptoSessionData
  /** Every status read, e.g. to complete the cart once paid (placeOrder after_payment) or to reload the order. */
  onStatus?: (view: CryptoPaymentView) => void
  /** Offered once the payment expired or failed. */
  onStartAgain?: () => void
  startAgainLabel?: string
  intervalMs?: number
}) {
  const { view, error } = useCryptoPayment(sdk, session.paymentId, intervalMs)
  const onStatusRef = useRef(onStatus)
  onStatusRef.current = onStatus
  useEffect(() => {
    if (view) onStatusRef.current?.(view)
  }, [view])

  const coin = view?.currency ?? session.currency ?? null
  const address = view?.address ?? session.address ?? null
  const amount = view?.requiredAmount ?? (session.amount !== undefined ? String(session.amount) : null)
  const qrCode = view?.qrCode ?? session.qrCode ?? null
  const qrImage = useQrImage(sdk, session.paymentId, qrCode)
  const timeLeft = useTimeLeft(view?.expiresAt ?? session.expiresAt)
  const message = view ? describeCryptoPayment(view) : undefined
  const state = message?.state ?? "loading"
  const open = !view || !view.final
  const toSend = view?.underpaid ? remainingAmount(view) : amount

  return (
    <section className="crypto-box" data-testid="crypto-payment" data-state={state}>
      <header className="crypto-box__header">
        <span className={`crypto-badge crypto-badge--${state}`} data-testid="crypto-payment-title">
          {message?.title ?? "Checking the payment…"}
        </span>
        {open && (
          <span className="crypto-countdown" data-testid="crypto-countdown">
            {timeLeft > 0 ? `Expires in ${formatTimeLeft(timeLeft)}` : "Expiring…"}
          </span>
        )}
      </header>
      {message && (
        <p className="crypto-box__detail" data-testid="crypto-payment-detail">
          {message.detail}
        </p>
      )}

      {open && !coin && (
        <div className="crypto-box__invoice">
          <a
            className="crypto-button"
            href={session.invoiceUrl}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="crypto-invoice-link"
          >
            Choose a coin and pay
          </a>
          <span className="crypto-hint">Opens the payment page in a new tab; this page updates by itself.</span>
        </div>
      )}

      {open && coin && address && (
        <div className="crypto-box__pay">
          {qrImage ? (
            <img className="crypto-qr" src={qrImage} alt={`QR code: ${toSend} ${coin} to ${address}`} width={168} />
          ) : (
            <div className="crypto-qr crypto-qr--empty" />
          )}
          <dl className="crypto-box__facts">
            <dt>Send exactly</dt>
            <dd data-testid="crypto-amount">
              <strong>
                {toSend} {coin.replace("_", " ")}
              </strong>{" "}
              {toSend && <CopyButton text={toSend} label="amount" />}
              <span className="crypto-hint">{COIN_NAMES[coin]}</span>
            </dd>
            <dt>To</dt>
            <dd data-testid="crypto-address">
              <code>{address}</code> <CopyButton text={address} label="address" />
            </dd>
            {view && view.requiredConfirmations !== null && (
              <>
                <dt>Confirmations</dt>
                <dd data-testid="crypto-confirmations">
                  <progress value={view.confirmations} max={view.requiredConfirmations} /> {view.confirmations} of{" "}
                  {view.requiredConfirmations}
                </dd>
              </>
            )}
          </dl>
          <div className="crypto-box__links">
            {qrCode && <a href={qrCode}>Open in a wallet app</a>}
            <a href={session.invoiceUrl} target="_blank" rel="noopener noreferrer" data-testid="crypto-invoice-link">
              Payment page
            </a>
          </div>
        </div>
      )}

      {view && (view.status === "EXPIRED" || view.status === "FAILED") && onStartAgain && (
        <button type="button" className="crypto-button" onClick={onStartAgain} data-testid="crypto-start-again">
          {startAgainLabel}
        </button>
      )}
      {error && (
        <p className="crypto-error" role="status">
          {error}
        </p>
      )}
    </section>
  )
}
