"use client"
/**
 * The customer's crypto payment, live: the hosted page's link while no coin is chosen, then the amount,
 * the address, its QR code and the countdown, what is left to send if part arrived, the confirmations,
 * and the end: paid (only when the shop accepted the payment: `verdict` "paid"), expired/failed with a way
 * to start again, or "needs attention" (money the shop did not accept as it stands: the payment id to
 * quote to the shop, no start again). It polls the store status route (shared and cached on the server)
 * until the backend says the verdict is final, and never decides anything itself.
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
  isCryptoPaymentFinal,
  remainingAmount,
  watchCryptoPayment,
} from "./crypto-payment"

/**
 * The payment's status, polled until the backend says it is final (`view.final`); `error` while the status
 * route cannot answer (polling goes on).
 */
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
    // the browser's timers (a number), whatever Node types the storefront compiles with
    const timer = window.setInterval(() => setNow(Date.now()), 1_000)
    return () => window.clearInterval(timer)
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
  const timer = useRef<number | undefined>(undefined)
  useEffect(() => () => window.clearTimeout(timer.current), [])
  return (
    <button
      type="button"
      className="crypto-copy"
      aria-label={`Copy the ${label}`}
      onClick={() =>
        navigator.clipboard?.writeText(text).then(() => {
          setCopied(true)
          timer.current = window.setTimeout(() => setCopied(false), 1_500)
        })
      }
    >
      {copied ? "Copied" : "Copy"}
    </button>
  )
}

function Confirmations({ view }: { view: CryptoPaymentView }) {
  if (view.requiredConfirmations === null) return null
  return (
    <>
      <dt>Confirmations</dt>
      <dd data-testid="crypto-confirmations">
        <progress value={view.confirmations} max={view.requiredConfirmations} /> {view.confirmations} of{" "}
        {view.requiredConfirmations}
      </dd>
    </>
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
  /**
   * Every status read, e.g. to complete the cart (placeOrder after_payment: `readyToCompleteCart(view)`) or
   * to reload the order once `view.final`. Call a payment paid only on `isCryptoPaymentPaid(view)`.
   */
  onStatus?: (view: CryptoPaymentView) => void
  /** Offered once the payment expired or failed (never on "needs attention": the customer's money arrived). */
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
  const verdict = message?.verdict
  const state = message?.state ?? "loading"
  /** The customer still has to send money: the payment link or the amount and address, and the countdown. */
  const toPay = !view || ((verdict === "awaiting" || verdict === "short") && !isCryptoPaymentFinal(view))
  const toSend = view && verdict === "short" ? remainingAmount(view) : amount
  /** Money arrived that the shop did not take: the id to quote when contacting the shop. */
  const quoteId =
    verdict === "needs_attention" ||
    ((verdict === "expired" || verdict === "failed") && Number(view?.receivedAmount || "0") > 0)

  return (
    <section className="crypto-box" data-testid="crypto-payment" data-state={state} data-verdict={verdict}>
      <header className="crypto-box__header">
        <span className={`crypto-badge crypto-badge--${state}`} data-testid="crypto-payment-title">
          {message?.title ?? "Checking the payment…"}
        </span>
        {toPay && (
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

      {toPay && !coin && (
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

      {toPay && coin && address && (
        <div className={verdict === "short" ? "crypto-box__pay crypto-box__pay--rest" : "crypto-box__pay"}>
          {/* the QR code and wallet link carry the full amount: not for sending the rest */}
          {verdict === "short" ? null : qrImage ? (
            <img className="crypto-qr" src={qrImage} alt={`QR code: ${toSend} ${coin} to ${address}`} width={168} />
          ) : (
            <div className="crypto-qr crypto-qr--empty" />
          )}
          <dl className="crypto-box__facts">
            <dt>{verdict === "short" ? "Send the remaining" : "Send exactly"}</dt>
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
            {view && <Confirmations view={view} />}
          </dl>
          <div className="crypto-box__links">
            {qrCode && verdict !== "short" && <a href={qrCode}>Open in a wallet app</a>}
            <a href={session.invoiceUrl} target="_blank" rel="noopener noreferrer" data-testid="crypto-invoice-link">
              Payment page
            </a>
          </div>
        </div>
      )}

      {view && verdict === "confirming" && view.status !== "COMPLETED" && view.requiredConfirmations !== null && (
        <dl className="crypto-box__facts">
          <Confirmations view={view} />
        </dl>
      )}

      {view && quoteId && (
        <dl className="crypto-box__facts crypto-box__attention">
          <dt>Payment id</dt>
          <dd data-testid="crypto-payment-id">
            <code>{view.paymentId}</code> <CopyButton text={view.paymentId} label="payment id" />
          </dd>
          {Number(view.receivedAmount || "0") > 0 && coin && (
            <>
              <dt>Received</dt>
              <dd data-testid="crypto-received">
                {view.receivedAmount} {coin.replace("_", " ")}
              </dd>
            </>
          )}
        </dl>
      )}

      {(verdict === "expired" || verdict === "failed") && onStartAgain && (
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
