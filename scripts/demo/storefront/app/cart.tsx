import { useState } from "react"
import { CART_QUERY, messageOf, money } from "./medusa"
import { navigate, useShop } from "./shop-context"
import { Summary } from "./summary"

export function CartPage() {
  const { sdk, cart, setCart } = useShop()
  const [error, setError] = useState<string>()
  if (!cart?.items?.length) {
    return (
      <>
        <h1 className="title">Cart</h1>
        <p className="muted">
          Your cart is empty. <a href="#/">Shop the products</a>
        </p>
      </>
    )
  }
  const setQuantity = async (lineId: string, quantity: number) => {
    setError(undefined)
    try {
      if (quantity < 1) {
        await sdk.store.cart.deleteLineItem(cart.id, lineId)
        setCart((await sdk.store.cart.retrieve(cart.id, CART_QUERY)).cart)
      } else {
        setCart((await sdk.store.cart.updateLineItem(cart.id, lineId, { quantity }, CART_QUERY)).cart)
      }
    } catch (e) {
      setError(messageOf(e))
    }
  }
  return (
    <div className="two-columns">
      <section>
        <h1 className="title">Cart</h1>
        {error && <p className="error">{error}</p>}
        <table className="lines">
          <tbody>
            {cart.items.map((item) => (
              <tr key={item.id}>
                <td>
                  <strong>{item.product_title}</strong>
                  <div className="muted">{item.variant_title}</div>
                </td>
                <td className="quantity">
                  <button aria-label="One less" onClick={() => setQuantity(item.id, item.quantity - 1)}>
                    −
                  </button>
                  <span>{item.quantity}</span>
                  <button aria-label="One more" onClick={() => setQuantity(item.id, item.quantity + 1)}>
                    +
                  </button>
                </td>
                <td className="amount">{money(item.total, cart.currency_code)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <aside>
        <Summary cart={cart} />
        <button className="button button--wide" onClick={() => navigate("/checkout")}>
          Go to checkout
        </button>
      </aside>
    </div>
  )
}
