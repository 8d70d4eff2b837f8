import { useRef, useState } from "react"
import { CryptoCoinPicker } from "../../../../docs/storefront/CryptoCoinPicker"
import { CryptoPaymentBox } from "../../../../docs/storefront/CryptoPaymentBox"
import {
  Coin,
  COIN_NAMES,
  CryptoPaymentView,
  isCryptoPaymentPaid,
  openCryptoSessionOf,
  PaymentCollectionDue,
  paymentCollectionDue,
  startCryptoCollectionPayment,
} from "../../../../docs/storefront/crypto-payment"
import { cryptoPaymentLabels } from "../../../../docs/storefront/crypto-payment-i18n"
import { messageOf, money } from "./medusa"
import type { PaymentLink } from "./payment-link"
import { SandboxNote } from "./sandbox-note"
import { useShop } from "./shop-context"
import { useStoreOrder } from "./use-order"

/**
 * 2.21 has no `GET /store/payment-collections/:id`: the collection is read through its order (a public
 * route), with its amounts and status (`*payment_collections`) and its sessions' data (the crypto payment).
 */
const ORDER_FIELDS =
  "id,display_id,status,currency_code,total,*payment_collections,*payment_collections.payment_sessions"

type Label = { text: string; tone: "good" | "bad" | "wait" }

const LABELS: Record<PaymentCollectionDue["state"], Label> = {
  due: { text: "Awaiting payment", tone: "wait" },
  authorized: { text: "Payment received", tone: "good" },
  paid: { text: "Paid", tone: "good" },
  canceled: { text: "Canceled", tone: "bad" },
}

const HEADLINES: Record<PaymentCollectionDue["state"], string> = {
  due: "An amount is outstanding on your order. Pay it with crypto below.",
  authorized: "Your payment was received; the shop is processing it. Nothing more to pay.",
  paid: "This amount is paid. Nothing more to pay.",
  canceled: "This payment request was canceled. Contact the shop if you think this is a mistake.",
}

/**
 * The page of the dashboard's payment link: the order, the amount due on the collection and its state, and
 * the crypto payment of that amount (the open one, or a new one with "any coin" or a coin of the picker).
 */
export function PaymentCollectionPage({ collectionId, orderId }: PaymentLink) {
  const { sdk, locale } = useShop()
  const labels = cryptoPaymentLabels(locale)
  const { order, load, error, setError } = useStoreOrder(orderId, ORDER_FIELDS)
  const [busy, setBusy] = useState(false)
  const [choosing, setChoosing] = useState(false)
  const [coin, setCoin] = useState<Coin>()
  /** The shop accepted the crypto payment (verdict "paid") before the order read shows the collection paid. */
  const [paidNow, setPaidNow] = useState(false)
  const following = useRef(false)

  if (!orderId) return <p className="error">This payment link is incomplete: it does not name its order.</p>
  if (error && !order) return <p className="error">{error}</p>
  if (!order) return <p className="muted">Loading the payment…</p>

  const collection = order.payment_collections?.find((c) => c.id === collectionId)
  if (!collection) {
    return (
      <p className="error" data-testid="payment-link-unknown">
        This payment link does not belong to order #{order.display_id}. Ask the shop for a new link.
      </p>
    )
  }

  const read = paymentCollectionDue(collection)
  const state = order.status === "canceled" ? "canceled" : paidNow && read.state === "due" ? "paid" : read.state
  const label = LABELS[state]
  const session = openCryptoSessionOf(collection)

  /** The collection reaches "completed" a moment after the verdict "paid" (the capture runs in the store): follow it. */
  const onStatus = async (view: CryptoPaymentView) => {
    if (!isCryptoPaymentPaid(view) || following.current) return
    following.current = true
    setPaidNow(true)
    for (let tries = 0; tries < 30; tries++) {
      const reloaded = await load().catch(() => undefined)
      const now = reloaded?.payment_collections?.find((c) => c.id === collectionId)
      if (now && paymentCollectionDue(now).state !== "due") break
      await new Promise((resolve) => setTimeout(resolve, 1_000))
    }
  }

  const pay = async () => {
    setBusy(true)
    setError(undefined)
    try {
      await startCryptoCollectionPayment(sdk, collectionId, coin)
      await load()
      setChoosing(false)
    } catch (e) {
      setError(messageOf(e, locale))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="order" data-testid="payment-collection" data-state={state}>
      <h1 className="title">Payment for order #{order.display_id}</h1>
      <p>{HEADLINES[state]}</p>
      <div className="order__facts">
        <span>
          Order number <strong data-testid="order-number">#{order.display_id}</strong>
        </span>
        <span>
          {state === "due" ? "Amount due" : "Amount"}{" "}
          <strong data-testid="payment-amount-due">
            {money(state === "due" ? read.due : collection.amount, order.currency_code)}
          </strong>
        </span>
        <span>
          Payment{" "}
          <span className={`status status--${label.tone}`} data-testid="payment-collection-status">
            {label.text}
          </span>
        </span>
      </div>
      {error && (
        <p className="error" role="alert" data-testid="payment-error">
          {error}
        </p>
      )}
      {state === "due" && (!session || choosing) ? (
        <section className="order__payment">
          <h2>Pay with crypto</h2>
          <CryptoCoinPicker value={coin} onChange={setCoin} disabled={busy} locale={locale} />
          <button className="button" disabled={busy} onClick={pay} data-testid="pay-collection">
            {coin ? `Pay ${money(read.due, order.currency_code)} in ${COIN_NAMES[coin]}` : "Pay with any coin"}
          </button>
        </section>
      ) : (
        session &&
        state !== "canceled" && (
          <section className="order__payment">
            <h2>Crypto payment</h2>
            <CryptoPaymentBox
              key={session.paymentId}
              sdk={sdk}
              session={session}
              intervalMs={2_000}
              onStatus={onStatus}
              onStartAgain={() => setChoosing(true)}
              locale={locale}
              startAgainLabel={labels.startNewPayment}
            />
            <SandboxNote />
          </section>
        )
      )}
      <p className="muted">
        <a href={`/#/order/${order.id}`}>See the order</a>
      </p>
    </div>
  )
}
