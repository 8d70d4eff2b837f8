/**
 * What every page of the demo storefront shares: the SDK, the region the shopper chose (the US one in USD
 * until they switch; Europe in EUR), the cart, the shopper's language, and navigation (hash routes, so any
 * static server can serve the app).
 */
import type Medusa from "@medusajs/js-sdk"
import type { HttpTypes } from "@medusajs/types"
import { createContext, ReactNode, useCallback, useContext, useEffect, useState } from "react"
import type { CryptoPaymentLanguage } from "../../../../docs/storefront/crypto-payment-labels"
import { CART_QUERY, cartId, createSdk, loadConfig, savedLanguage, savedRegion, StorefrontConfig } from "./medusa"

type Shop = {
  sdk: Medusa
  config: StorefrontConfig
  /** The store's regions (the region switch lists them). */
  regions: HttpTypes.StoreRegion[]
  /** The region the shop prices in and new carts are created in: the cart's, else the one chosen last. */
  region: HttpTypes.StoreRegion
  /**
   * Switches the region: kept for the next visit, and the cart (if any) moves to it, so that its prices
   * (items, shipping) are those of the region's currency. Rejects, keeping the region, when the cart cannot move.
   */
  setRegion: (regionId: string) => Promise<void>
  cart: HttpTypes.StoreCart | undefined
  setCart: (cart: HttpTypes.StoreCart | undefined) => void
  addToCart: (variantId: string, quantity?: number) => Promise<void>
  /** A new cart with these items (after an expired payment: start again). */
  startCart: (items: Array<{ variant_id: string; quantity: number }>) => Promise<void>
  /** The shopper's language: the crypto components' `locale`, the store API's `x-medusa-locale`, the cart's `locale`. */
  locale: CryptoPaymentLanguage
  /** Switches the language: the SDK sends it with every request from now on, and the cart takes it. */
  setLocale: (locale: CryptoPaymentLanguage) => Promise<void>
}

const ShopContext = createContext<Shop | null>(null)

export function useShop(): Shop {
  const shop = useContext(ShopContext)
  if (!shop) throw new Error("useShop outside ShopProvider")
  return shop
}

/** To a hash route; from a path page (the payment link's `/payment-collection/…`) back to the app's root first. */
export function navigate(path: string): void {
  if (window.location.pathname === "/") window.location.hash = path
  else window.location.assign(`/#${path}`)
}

/** The current route's segments: "#/order/order_1" → ["order", "order_1"]. */
export function useRoute(): string[] {
  const read = () => window.location.hash.replace(/^#\/?/, "").split("/").filter(Boolean)
  const [route, setRoute] = useState(read)
  useEffect(() => {
    const onChange = () => {
      setRoute(read())
      window.scrollTo(0, 0)
    }
    window.addEventListener("hashchange", onChange)
    return () => window.removeEventListener("hashchange", onChange)
  }, [])
  return route
}

/** The region to start in: the cart's, else the one chosen last, else the US one (the demo's default), else the first. */
function initialRegion(
  regions: HttpTypes.StoreRegion[],
  cart: HttpTypes.StoreCart | undefined
): HttpTypes.StoreRegion | undefined {
  const byId = (id: string | null | undefined) => (id ? regions.find((r) => r.id === id) : undefined)
  return (
    byId(cart?.region_id) ??
    byId(savedRegion.get()) ??
    regions.find((r) => r.countries?.some((c) => c.iso_2 === "us")) ??
    regions[0]
  )
}

export function ShopProvider({ children }: { children: (ready: boolean, error?: string) => ReactNode }) {
  const [shop, setShop] = useState<{ sdk: Medusa; config: StorefrontConfig; regions: HttpTypes.StoreRegion[] }>()
  const [region, setRegionState] = useState<HttpTypes.StoreRegion>()
  const [cart, setCartState] = useState<HttpTypes.StoreCart>()
  const [locale, setLocaleState] = useState<CryptoPaymentLanguage>("en")
  const [error, setError] = useState<string>()

  useEffect(() => {
    ;(async () => {
      const config = await loadConfig()
      const sdk = createSdk(config)
      const { regions } = await sdk.store.region.list()
      setLocaleState(savedLanguage(sdk))
      const id = cartId.get()
      let found: HttpTypes.StoreCart | undefined
      if (id) {
        found = await sdk.store.cart.retrieve(id, CART_QUERY).then(
          ({ cart }) => (cart.completed_at ? undefined : cart),
          () => undefined
        )
        if (found) setCartState(found)
        else cartId.clear()
      }
      const region = initialRegion(regions, found)
      if (!region) throw new Error("the store has no region")
      setRegionState(region)
      setShop({ sdk, config, regions })
    })().catch((e) => setError(e instanceof Error ? e.message : String(e)))
  }, [])

  // the page's language for the browser and screen readers
  useEffect(() => {
    document.documentElement.lang = locale
  }, [locale])

  const setCart = useCallback((next: HttpTypes.StoreCart | undefined) => {
    if (next) cartId.set(next.id)
    else cartId.clear()
    setCartState(next)
  }, [])

  if (!shop || !region) return <>{children(false, error)}</>
  const { sdk, regions } = shop
  const value: Shop = {
    ...shop,
    region,
    cart,
    setCart,
    locale,
    setRegion: async (regionId) => {
      const next = regions.find((r) => r.id === regionId)
      if (!next) throw new Error(`no region ${regionId}`)
      // the cart moves first: Medusa re-prices its items and shipping in the region's currency (a shipping
      // address outside the region is dropped, and any payment session with the old amount is removed)
      if (cart && cart.region_id !== next.id) {
        setCart((await sdk.store.cart.update(cart.id, { region_id: next.id }, CART_QUERY)).cart)
      }
      savedRegion.set(next.id)
      setRegionState(next)
    },
    addToCart: async (variantId, quantity = 1) => {
      const current = cart ?? (await sdk.store.cart.create({ region_id: region.id, locale }, CART_QUERY)).cart
      setCart((await sdk.store.cart.createLineItem(current.id, { variant_id: variantId, quantity }, CART_QUERY)).cart)
    },
    startCart: async (items) => {
      setCart((await sdk.store.cart.create({ region_id: region.id, items, locale }, CART_QUERY)).cart)
    },
    setLocale: async (next) => {
      // the SDK keeps it (localStorage) and sends it as x-medusa-locale with every request from now on
      sdk.setLocale(next)
      setLocaleState(next)
      // Medusa 2.21 carts have a locale (POST /store/carts/:id takes it); the order is created in it
      if (cart) {
        const updated = await sdk.store.cart.update(cart.id, { locale: next }, CART_QUERY).catch(() => undefined)
        if (updated) setCart(updated.cart)
      }
    },
  }
  return <ShopContext.Provider value={value}>{children(true)}</ShopContext.Provider>
}
