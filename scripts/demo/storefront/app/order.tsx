import type { HttpTypes } from "@medusajs/types"
import { useCallback, useEffect, useRef, useState } from "react"
import { CryptoPaymentBox } from "../../../../docs/storefront/CryptoPaymentBox"
import { CryptoPaymentView, cryptoSessionOf } from "../../../../docs/storefront/crypto-payment"
import { messageOf, money } from "./medusa"
import { navigate, useShop } from "./shop-context"
import { Summary } from "./summary"

/**
 * What the order page asks for besides the defaults: the payment sessions (their data holds the crypto
 * payment: paymentId, invoice link, address, amount) and the payment status.
 */
const ORDER_FIELDS = "*payment_collections.payment_sessions,+payment_status"

type Order = HttpTypes.StoreOrder

function paymentLabel(order: Order): { text: string; tone: string } {
  if (order.status === "canceled") return { text: "Canceled", tone: "bad" }
  if (order.payment_status === "captured") return { text: "Paid", tone: "good" }
  if (order.payment_status === "refunded" || order.payment_status === "partially_refunded")
    return { text: "Refunded", tone: "neutral" }
  return { text: "Awaiting payment", tone: "wait" }
}

export function OrderPage({ orderId }: { orderId: string | undefined }) {
  const { sdk, startCart } = useShop()
  const [order, setOrder] = useState<Order>()
  const [error, setError] = useState<string>()
  const following = useRef(false)

  const load = useCallback(async () => {
    const { order } = await sdk.store.order.retrieve(orderId!, { fields: ORDER_FIELDS })
    setOrder(order)
    return order
  }, [sdk, orderId])

  useEffect(() => {
    if (orderId) load().catch((e) => setError(messageOf(e)))
  }, [load, orderId])

  /** A final status reaches the order a moment later (the capture or the cancel runs in the store): follow it. */
  const onStatus = async (view: CryptoPaymentView) => {
    if (!view.final || !order || following.current) return
    const before = paymentLabel(order).text
    if (before !== "Awaiting payment") return
    following.current = true
    for (let tries = 0; tries < 30; tries++) {
      const next = await load().catch(() => undefined)
      if (next && paymentLabel(next).text !== before) break
      await new Promise((resolve) => setTimeout(resolve, 1_000))
    }
  }

  if (error) return <p className="error">{error}</p>
  if (!order) return <p className="muted">Loading your order…</p>
  const crypto = cryptoSessionOf(order.payment_collections?.[0])
  const label = paymentLabel(order)
  const startAgain = async () => {
    try {
      await startCart(order.items!.map((item) => ({ variant_id: item.variant_id!, quantity: item.quantity })))
      navigate("/checkout")
    } catch (e) {
      setError(messageOf(e))
    }
  }

  return (
    <div className="order">
      <h1 className="title">{order.status === "canceled" ? "Your order was canceled" : "Thank you!"}</h1>
      <p>
        {order.status === "canceled"
          ? "The payment did not arrive in time, so the order was canceled and nothing will be shipped."
          : "Your order was placed successfully."}
      </p>
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
      {crypto && (
        <section className="order__payment">
          <h2>Crypto payment</h2>
          <CryptoPaymentBox
            sdk={sdk}
            session={crypto}
            intervalMs={2_000}
            onStatus={onStatus}
            onStartAgain={startAgain}
            startAgainLabel="Start again with the same items"
          />
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
