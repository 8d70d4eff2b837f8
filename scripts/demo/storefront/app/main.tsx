/**
 * The demo storefront of `npm run demo`: a shop front in the manner of Medusa's starter, small enough
 * to read in one sitting. Product → cart → checkout (address, delivery, payment with crypto, review) →
 * order page with the crypto payment live; the page of the dashboard's payment link
 * (`/payment-collection/<id>?order_id=…`); and the customer's refund-address page (`/crypto-refund#<token>`, and
 * `/crypto-refund/<token>` for links sent before the token moved after `#`).
 * The crypto parts are the files of docs/storefront, as a storefront copies them.
 */
import { StrictMode, useState } from "react"
import { createRoot } from "react-dom/client"
import "../../../../docs/storefront/crypto-payment.css"
import "./storefront.css"
import { CartPage } from "./cart"
import { CheckoutPage } from "./checkout"
import { OrderPage } from "./order"
import { PaymentCollectionPage } from "./payment-collection"
import { isRefundLinkPath, orderOfPath, paymentLinkOf } from "./payment-link"
import { RefundPage } from "./refund"
import { LANGUAGES, messageOf, regionLabel } from "./medusa"
import { ShopPage } from "./shop"
import { navigate, ShopProvider, useRoute, useShop } from "./shop-context"

/** The language switch: the crypto components speak it, the store API gets it, the cart keeps it. */
function LanguageSwitch() {
  const { locale, setLocale } = useShop()
  return (
    <select
      className="nav__language"
      aria-label="Language"
      data-testid="language-switch"
      value={locale}
      onChange={(e) => void setLocale(e.target.value as typeof locale)}
    >
      {LANGUAGES.map(({ code, name }) => (
        <option key={code} value={code} lang={code}>
          {name}
        </option>
      ))}
    </select>
  )
}

/**
 * The region switch: the shop's prices, and the cart's, in the region's currency. The choice is kept for the
 * next visit; a cart moves to the region (Medusa re-prices it), and a new cart is created in it.
 */
function RegionSwitch() {
  const { regions, region, setRegion, locale } = useShop()
  /** The region chosen while the cart moves to it (the switch shows it, disabled, until the cart is there). */
  const [pending, setPending] = useState<string>()
  const [error, setError] = useState<string>()
  if (regions.length < 2) return null
  const change = async (id: string) => {
    setPending(id)
    setError(undefined)
    try {
      await setRegion(id)
    } catch (e) {
      setError(messageOf(e, locale))
    } finally {
      setPending(undefined)
    }
  }
  return (
    <>
      <select
        className="nav__language"
        aria-label="Region"
        data-testid="region-switch"
        value={pending ?? region.id}
        disabled={pending !== undefined}
        onChange={(e) => void change(e.target.value)}
      >
        {regions.map((r) => (
          <option key={r.id} value={r.id}>
            {regionLabel(r)}
          </option>
        ))}
      </select>
      {error && (
        <span className="nav__error" role="alert" title={error}>
          The cart could not move to this region
        </span>
      )}
    </>
  )
}

function Nav() {
  const { cart, config } = useShop()
  const count = cart?.items?.reduce((n, item) => n + item.quantity, 0) ?? 0
  return (
    <nav className="nav">
      <a href="/#/" className="nav__brand">
        {config.storeName}
      </a>
      <span className="nav__note">medusa-payment-crypto demo · sandbox coins only</span>
      <a href="/#/cart" className="nav__cart" data-testid="nav-cart">
        Cart ({count})
      </a>
      <RegionSwitch />
      <LanguageSwitch />
    </nav>
  )
}

function Routes() {
  const [page, id] = useRoute()
  // the dashboard's payment link (with ?order_id=) and the refund link are paths, not hash routes: they come
  // first (on the refund link's path, the fragment is its token, which the page reads itself)
  const link = paymentLinkOf(window.location.pathname, window.location.search)
  if (link) return <PaymentCollectionPage {...link} />
  if (isRefundLinkPath(window.location.pathname)) return <RefundPage />
  const emailedOrder = orderOfPath(window.location.pathname)
  if (emailedOrder) return <OrderPage orderId={emailedOrder} />
  switch (page) {
    case undefined:
      return <ShopPage />
    case "cart":
      return <CartPage />
    case "checkout":
      return <CheckoutPage />
    case "order":
      return <OrderPage orderId={id} />
    default:
      return (
        <p>
          Page not found. <button onClick={() => navigate("/")}>Back to the shop</button>
        </p>
      )
  }
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <ShopProvider>
      {(ready, error) =>
        ready ? (
          <>
            <Nav />
            <main className="page">
              <Routes />
            </main>
          </>
        ) : (
          <main className="page">
            {error ? <p className="error">The store is not reachable: {error}</p> : "Loading…"}
          </main>
        )
      }
    </ShopProvider>
  </StrictMode>
)
