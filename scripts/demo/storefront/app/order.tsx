import type { HttpTypes } from "@medusajs/types"
import { useRef, useState } from "react"
import { CryptoPaymentBox } from "../../../../docs/storefront/CryptoPaymentBox"
import {
  CryptoPaymentView,
  cryptoSessionOf,
  describeCryptoVerdict,
  isCryptoPaymentFinal,
} from "../../../../docs/storefront/crypto-payment"
import { cryptoPaymentI18n, CryptoPaymentI18n } from "../../../../docs/storefront/crypto-payment-i18n"
import { messageOf, money } from "./medusa"
import { navigate, useShop } from "./shop-context"
import { SandboxNote } from "./sandbox-note"
import { Summary } from "./summary"
import { useStoreOrder } from "./use-order"

/**
 * What the order page asks for besides the defaults: the payment sessions (their data holds the crypto
 * payment: paymentId, invoice link, address, amount) and the payment status.
 */
const ORDER_FIELDS = "*payment_collections.payment_sessions,+payment_status"

type Order = HttpTypes.StoreOrder
type Label = { text: string; tone: "good" | "bad" | "wait" | "neutral"; detail?: string }

/**
 * The order's payment, in a word and a sentence. A crypto order is "Paid" only on the status route's
 * verdict "paid" (the shop accepted the payment), never on the service's COMPLETED; until the first
 * status read it is at most "Awaiting payment". A crypto payment's words are the components' labels, in the
 * shopper's language.
 */
function paymentLabel(order: Order, view: CryptoPaymentView | undefined, i18n: CryptoPaymentI18n | undefined): Label {
  if (order.payment_status === "refunded" || order.payment_status === "partially_refunded")
    return { text: "Refunded", tone: "neutral" }
  if (!i18n) {
    if (order.status === "canceled") return { text: "Canceled", tone: "bad" }
    if (order.payment_status === "captured") return { text: "Paid", tone: "good" }
    return { text: "Awaiting payment", tone: "wait" }
  }
  const { labels } = i18n
  if (!view) {
    if (order.status === "canceled") return { text: "Canceled", tone: "bad" }
    if (order.payment_status === "captured") return { text: labels.checking, tone: "wait" }
    return { text: labels.titleAwaiting, tone: "wait" }
  }
  const { verdict, title, detail } = describeCryptoVerdict(view, i18n)
  switch (verdict) {
    case "paid":
      return { text: labels.titlePaid, tone: "good", detail }
    case "needs_attention":
      return { text: title, tone: "bad", detail }
    case "expired":
    case "failed":
      return { text: order.status === "canceled" ? "Canceled" : title, tone: "bad", detail }
    default:
      return { text: title, tone: "wait", detail }
  }
}

/** What the order should come to once the payment's verdict is final (the capture or cancel runs in the store). */
function settled(order: Order, view: CryptoPaymentView): boolean {
  const { verdict } = describeCryptoVerdict(view)
  if (verdict === "paid") return order.payment_status === "captured" || order.payment_status === "partially_captured"
  if (verdict === "expired" || verdict === "failed") return order.status === "canceled"
  return true
}

function headline(order: Order, view: CryptoPaymentView | undefined): string {
  if (order.status !== "canceled") return "Your order was placed successfully."
  const verdict = view && describeCryptoVerdict(view).verdict
  if (verdict === "expired")
    return "The payment did not arrive in time, so the order was canceled and nothing will be shipped."
  if (verdict === "failed") return "The payment failed, so the order was canceled and nothing will be shipped."
  if (verdict === "needs_attention")
    return "The order was canceled; the shop has been told about the payment that arrived (see below)."
  return "The order was canceled and nothing will be shipped."
}

export function OrderPage({ orderId }: { orderId: string | undefined }) {
  const { sdk, startCart, locale } = useShop()
  const { order, load, error, setError } = useStoreOrder(orderId, ORDER_FIELDS)
  const [view, setView] = useState<CryptoPaymentView>()
  const following = useRef(false)

  /** A final verdict reaches the order a moment later (the capture or the cancel runs in the store): follow it. */
  const onStatus = async (next: CryptoPaymentView) => {
    setView(next)
    if (!isCryptoPaymentFinal(next) || !order || following.current) return
    following.current = true
    for (let tries = 0; tries < 30; tries++) {
      const reloaded = await load().catch(() => undefined)
      if (reloaded && settled(reloaded, next)) break
      await new Promise((resolve) => setTimeout(resolve, 1_000))
    }
  }

  if (error) return <p className="error">{error}</p>
  if (!order) return <p className="muted">Loading your order…</p>
  const crypto = cryptoSessionOf(order.payment_collections?.[0])
  const i18n = cryptoPaymentI18n(locale)
  const label = paymentLabel(order, view, crypto ? i18n : undefined)
  const startAgain = async () => {
    try {
      await startCart(order.items!.map((item) => ({ variant_id: item.variant_id!, quantity: item.quantity })))
      navigate("/checkout")
    } catch (e) {
      setError(messageOf(e, locale))
    }
  }

  return (
    <div className="order">
      <h1 className="title">{order.status === "canceled" ? "Your order was canceled" : "Thank you!"}</h1>
      <p>{headline(order, view)}</p>
      <div className="order__facts">
        <span>
          Order number <strong data-testid="order-number">#{order.display_id}</strong>
        </span>
        <span>
          Payment{" "}
          <span className={`status status--${label.tone}`} data-testid="order-payment-status">
            {label.text}
          </span>
        </span>
        <span className="muted">Confirmation sent to {order.email}</span>
      </div>
      {label.detail && label.tone !== "good" && (
        <p className={`order__payment-note order__payment-note--${label.tone}`} data-testid="order-payment-detail">
          {label.detail}
        </p>
      )}
      {crypto && (
        <section className="order__payment">
          <h2>Crypto payment</h2>
          <CryptoPaymentBox
            sdk={sdk}
            session={crypto}
            intervalMs={2_000}
            onStatus={onStatus}
            onStartAgain={startAgain}
            locale={locale}
            startAgainLabel={i18n.labels.startAgainWithSameItems}
          />
          <SandboxNote />
        </section>
      )}
      <div className="two-columns">
        <table className="lines">
          <tbody>
            {order.items?.map((item) => (
              <tr key={item.id}>
                <td>
                  <strong>{item.product_title}</strong>
                  <div className="muted">{item.variant_title}</div>
                </td>
                <td className="quantity">{item.quantity}×</td>
                <td className="amount">{money(item.total, order.currency_code)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <Summary cart={order} title="Order summary" />
      </div>
    </div>
  )
}
