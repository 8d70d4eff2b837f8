"use client"
/**
 * The customer's crypto payment, live: the hosted page's link while no coin is chosen, then the amount,
 * the address, the QR code and "Open in a wallet app" link of the wallet URI (BIP-21 / EIP-681: what wallets
 * read, with the network and the amount still to send), a line naming the network for a token (USDT), and the
 * countdown; what is left to send if part arrived (the QR code and the link then carry the rest), the confirmations,
 * and the end: paid (only when the shop accepted the payment: `verdict` "paid"), expired/failed with a way
 * to start again, or "needs attention" (money the shop did not accept as it stands: the payment id to
 * quote to the shop, no start again). It polls the store status route (shared and cached on the server)
 * until the backend says the verdict is final, and never decides anything itself.
 * While there is something to pay in a store currency the shop converted to USD for the service (EUR, GBP,
 * JPY …), it shows the price beside it: "€46.00 ≈ $49.88".
 *
 * Every text comes from crypto-payment-labels.ts in the `locale` you pass (en, de, fr, es built in; any
 * BCP 47 tag, by its language, else English), with your `labels` on top; amounts, counts, the countdown
 * and the time are formatted for that locale. The countdown and the time start once mounted ("Expires in –:––"
 * until then), so a server's render and the browser's first one are the same markup.
 *
 * Copy it with crypto-payment.ts, crypto-payment-i18n.ts, crypto-payment-labels.ts, crypto-payment-errors.ts
 * and crypto-payment.css. The demo storefront (scripts/demo/storefront) renders exactly this file, and the
 * browser test buys through it.
 */
import type Medusa from "@medusajs/js-sdk"
import { useEffect, useRef, useState } from "react"
import {
  coinCode,
  CryptoPaymentView,
  CryptoSessionData,
  decimalText,
  describeCryptoPayment,
  fetchCryptoQrSvg,
  formatCryptoPrice,
  isCryptoPaymentFinal,
  isTokenCoin,
  paymentPageUrl,
  remainingAmount,
  walletUriOf,
  watchCryptoPayment,
} from "./crypto-payment"
import {
  cryptoPaymentI18n,
  CryptoPaymentI18n,
  fillLabel,
  formatCryptoAmount,
  formatCryptoCount,
  formatCryptoTime,
  formatTimeLeft,
} from "./crypto-payment-i18n"
import type { CryptoPaymentLabelOverrides } from "./crypto-payment-labels"

/**
 * The payment's status, polled until the backend says it is final (`view.final`), starting from `initialView`
 * if you have one. While the status route cannot answer, `unavailable` is true and `error` its last failure
 * (polling goes on). `locale` goes to the route as `x-medusa-locale` (it only sets the language of its errors).
 */
export function useCryptoPayment(
  sdk: Medusa,
  paymentId: string,
  intervalMs = 5_000,
  { initialView, locale }: { initialView?: CryptoPaymentView; locale?: string } = {}
) {
  // the view belongs to its payment: another paymentId starts without one
  const [read, setRead] = useState<{ paymentId: string; view?: CryptoPaymentView }>({ paymentId, view: initialView })
  const [failure, setFailure] = useState<{ error: unknown }>()
  useEffect(
    () =>
      watchCryptoPayment(
        sdk,
        paymentId,
        (next) => {
          setRead({ paymentId, view: next })
          setFailure(undefined)
        },
        { intervalMs, onError: (error) => setFailure({ error }), locale }
      ),
    [sdk, paymentId, intervalMs, locale]
  )
  return {
    view: read.paymentId === paymentId ? read.view : undefined,
    unavailable: failure !== undefined,
    error: failure?.error,
  }
}

/**
 * The time left until `expiresAt`, ticking every second; null until mounted: a server renders at another moment
 * than the browser hydrates, and the first render in the browser must be the server's markup.
 */
function useTimeLeft(expiresAt: string): number | null {
  const [now, setNow] = useState<number | null>(null)
  useEffect(() => {
    setNow(Date.now())
    // the browser's timers (a number), whatever Node types the storefront compiles with
    const timer = window.setInterval(() => setNow(Date.now()), 1_000)
    return () => window.clearInterval(timer)
  }, [])
  return now === null ? null : new Date(expiresAt).getTime() - now
}

/** The countdown's time until the browser knows it: the shape of "29:37", so the line keeps its place. */
const TIME_LEFT_PENDING = "–:––"

/**
 * The time of day `expiresAt` falls on, as the locale writes it: set once mounted, since a server renders it
 * in its own time zone and React does not correct an attribute the browser would write otherwise.
 */
function useExpiryTime(expiresAt: string, locale: string): string {
  const [time, setTime] = useState("")
  useEffect(() => setTime(formatCryptoTime(expiresAt, locale)), [expiresAt, locale])
  return time
}

/**
 * The QR code (SVG from the plugin's route, which encodes the wallet URI) as an image URL, while there is a
 * wallet URI. Fetched again whenever it changes (once part arrived, it carries the rest), and never shown for
 * another URI than the one the wallet link carries: none until the new one is in.
 */
function useQrImage(sdk: Medusa, paymentId: string, walletUri: string | null): string | undefined {
  const [qr, setQr] = useState<{ walletUri: string; image: string }>()
  useEffect(() => {
    if (!walletUri) return
    let live = true
    fetchCryptoQrSvg(sdk, paymentId).then(
      (svg) => live && setQr({ walletUri, image: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` }),
      () => live && setQr(undefined)
    )
    return () => {
      live = false
    }
  }, [sdk, paymentId, walletUri])
  return qr && qr.walletUri === walletUri ? qr.image : undefined
}

function CopyButton({ text, label, i18n }: { text: string; label: string; i18n: CryptoPaymentI18n }) {
  const [copied, setCopied] = useState(false)
  const timer = useRef<number | undefined>(undefined)
  useEffect(() => () => window.clearTimeout(timer.current), [])
  return (
    <button
      type="button"
      className="crypto-copy"
      aria-label={label}
      onClick={() =>
        navigator.clipboard?.writeText(text).then(() => {
          setCopied(true)
          timer.current = window.setTimeout(() => setCopied(false), 1_500)
        })
      }
    >
      {copied ? i18n.labels.copied : i18n.labels.copy}
    </button>
  )
}

/** The price and its USD equivalent, when the shop converted the store's currency for the service. */
function Price({ session, i18n }: { session: CryptoSessionData; i18n: CryptoPaymentI18n }) {
  if (!session.exchange) return null
  return (
    <>
      <dt>{i18n.labels.price}</dt>
      <dd className="crypto-price" data-testid="crypto-price">
        {formatCryptoPrice(session, i18n.locale)}
      </dd>
    </>
  )
}

function Confirmations({ view, i18n }: { view: CryptoPaymentView; i18n: CryptoPaymentI18n }) {
  if (view.requiredConfirmations === null) return null
  const { labels, locale } = i18n
  return (
    <>
      <dt>{labels.confirmations}</dt>
      <dd data-testid="crypto-confirmations">
        <progress value={view.confirmations} max={view.requiredConfirmations} />{" "}
        {fillLabel(labels.confirmationsCount, {
          confirmations: formatCryptoCount(view.confirmations, locale),
          requiredConfirmations: formatCryptoCount(view.requiredConfirmations, locale),
        })}
      </dd>
    </>
  )
}

export function CryptoPaymentBox({
  sdk,
  session,
  onStatus,
  onStartAgain,
  startAgainLabel,
  intervalMs,
  locale,
  labels,
  initialView,
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
  /** The start-again button's text; `labels.startAgain` by default. */
  startAgainLabel?: string
  intervalMs?: number
  /** The customer's locale: "en", "de", "fr", "es", or any BCP 47 tag ("de-AT" → German, "pt-BR" → English). */
  locale?: string
  /** Texts to use instead of the built-in ones (any of them). */
  labels?: CryptoPaymentLabelOverrides
  /** A status read you already have (e.g. from the server), shown until the first poll answers. */
  initialView?: CryptoPaymentView
}) {
  const i18n = cryptoPaymentI18n(locale, labels)
  const text = i18n.labels
  const { view, unavailable } = useCryptoPayment(sdk, session.paymentId, intervalMs, { initialView, locale })
  const onStatusRef = useRef(onStatus)
  onStatusRef.current = onStatus
  useEffect(() => {
    if (view) onStatusRef.current?.(view)
  }, [view])

  const coin = view?.currency ?? session.currency ?? null
  const address = view?.address ?? session.address ?? null
  const amount =
    view?.requiredAmount ??
    session.cryptoAmount ??
    (session.amount !== undefined && Number.isFinite(session.amount) ? decimalText(session.amount) : null)
  // what wallets read (BIP-21 / EIP-681), never the service's own `qrCode`: the QR code and the wallet link
  const walletUri = walletUriOf(view, session)
  const qrImage = useQrImage(sdk, session.paymentId, walletUri)
  const expiresAt = view?.expiresAt ?? session.expiresAt
  const timeLeft = useTimeLeft(expiresAt)
  const message = view ? describeCryptoPayment(view, i18n) : undefined
  const verdict = message?.verdict
  const state = message?.state ?? "loading"
  /** The customer still has to send money: the payment link or the amount and address, and the countdown. */
  // the service's page, only when it is a web page: never a javascript: or data: URL in a link
  const pageUrl = paymentPageUrl(session)
  const toPay = !view || ((verdict === "awaiting" || verdict === "short") && !isCryptoPaymentFinal(view))
  const toSend = view && verdict === "short" ? remainingAmount(view) : amount
  /** Money arrived that the shop did not take: the id to quote when contacting the shop. */
  const quoteId =
    verdict === "needs_attention" ||
    ((verdict === "expired" || verdict === "failed") && Number(view?.receivedAmount || "0") > 0)
  const shown = (decimal: string) => formatCryptoAmount(decimal, i18n.locale)
  const payBy = useExpiryTime(expiresAt, i18n.locale)

  return (
    <section className="crypto-box" data-testid="crypto-payment" data-state={state} data-verdict={verdict}>
      <header className="crypto-box__header">
        <span className={`crypto-badge crypto-badge--${state}`} data-testid="crypto-payment-title">
          {message?.title ?? text.checking}
        </span>
        {toPay && (
          <time
            className="crypto-countdown"
            data-testid="crypto-countdown"
            dateTime={expiresAt}
            title={payBy ? fillLabel(text.expiresAt, { time: payBy }) : undefined}
            aria-hidden={timeLeft === null || undefined}
          >
            {timeLeft === null
              ? fillLabel(text.expiresIn, { time: TIME_LEFT_PENDING })
              : timeLeft > 0
                ? fillLabel(text.expiresIn, { time: formatTimeLeft(timeLeft, i18n.locale) })
                : text.expiring}
          </time>
        )}
      </header>
      {message && (
        <p className="crypto-box__detail" data-testid="crypto-payment-detail">
          {message.detail}
        </p>
      )}

      {toPay && !coin && session.exchange && (
        <dl className="crypto-box__facts">
          <Price session={session} i18n={i18n} />
        </dl>
      )}
      {toPay && !coin && pageUrl && (
        <div className="crypto-box__invoice">
          <a
            className="crypto-button"
            href={pageUrl}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="crypto-invoice-link"
          >
            {text.chooseCoinAndPay}
          </a>
          <span className="crypto-hint">{text.opensPaymentPage}</span>
        </div>
      )}

      {toPay && coin && address && (
        <div className={walletUri ? "crypto-box__pay" : "crypto-box__pay crypto-box__pay--no-qr"}>
          {/* a token goes to an 0x… address on any EVM chain: the network, where the customer cannot miss it */}
          {isTokenCoin(coin) && (
            <p className="crypto-network crypto-network--token" data-testid="crypto-network">
              {fillLabel(text.sendOnNetworkOnly, { network: text.coins[coin] })}
            </p>
          )}
          {/* the wallet URI carries what is still to send: the whole amount, or the rest once part arrived */}
          {!walletUri ? null : qrImage ? (
            <img
              className="crypto-qr"
              src={qrImage}
              alt={fillLabel(text.qrAlt, { amount: toSend ? shown(toSend) : "", coin: coinCode(coin), address })}
              width={168}
              data-testid="crypto-qr"
            />
          ) : (
            <div className="crypto-qr crypto-qr--empty" />
          )}
          <dl className="crypto-box__facts">
            <Price session={session} i18n={i18n} />
            <dt>{verdict === "short" ? text.sendRemaining : text.sendExactly}</dt>
            <dd data-testid="crypto-amount">
              <strong>
                {toSend ? shown(toSend) : ""} {coinCode(coin)}
              </strong>{" "}
              {/* the copy is the amount as wallets take it: digits and a point */}
              {toSend && <CopyButton text={toSend} label={text.copyAmount} i18n={i18n} />}
              {/* a coin on its own chain: its name, quietly (a token's network has its own line above) */}
              {!isTokenCoin(coin) && <span className="crypto-hint">{text.coins[coin]}</span>}
            </dd>
            <dt>{text.to}</dt>
            <dd data-testid="crypto-address">
              {/* as the backend writes it: ETH and USDT addresses with their EIP-55 checksum, which wallets check */}
              <code>{address}</code> <CopyButton text={address} label={text.copyAddress} i18n={i18n} />
            </dd>
            {view && <Confirmations view={view} i18n={i18n} />}
          </dl>
          <div className="crypto-box__links">
            {walletUri && (
              <a href={walletUri} data-testid="crypto-wallet-link">
                {text.openInWallet}
              </a>
            )}
            {pageUrl && (
              <a href={pageUrl} target="_blank" rel="noopener noreferrer" data-testid="crypto-invoice-link">
                {text.paymentPage}
              </a>
            )}
          </div>
        </div>
      )}

      {view && verdict === "confirming" && view.status !== "COMPLETED" && view.requiredConfirmations !== null && (
        <dl className="crypto-box__facts">
          <Confirmations view={view} i18n={i18n} />
        </dl>
      )}

      {view && quoteId && (
        <dl className="crypto-box__facts crypto-box__attention">
          <dt>{text.paymentId}</dt>
          <dd data-testid="crypto-payment-id">
            <code>{view.paymentId}</code> <CopyButton text={view.paymentId} label={text.copyPaymentId} i18n={i18n} />
          </dd>
          {Number(view.receivedAmount || "0") > 0 && coin && (
            <>
              <dt>{text.received}</dt>
              <dd data-testid="crypto-received">
                {shown(view.receivedAmount)} {coinCode(coin)}
              </dd>
            </>
          )}
        </dl>
      )}

      {(verdict === "expired" || verdict === "failed") && onStartAgain && (
        <button type="button" className="crypto-button" onClick={onStartAgain} data-testid="crypto-start-again">
          {startAgainLabel ?? text.startAgain}
        </button>
      )}
      {unavailable && (
        <p className="crypto-error" role="status">
          {text.statusUnavailable}
        </p>
      )}
    </section>
  )
}
