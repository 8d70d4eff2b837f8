/**
 * The demo storefront's link to the store: the backend URL and publishable key come from /config.json
 * (written by the demo when it starts), the cart id lives in localStorage like the starter's cookie.
 */
import Medusa from "@medusajs/js-sdk"

export type StorefrontConfig = { backendUrl: string; publishableKey: string; storeName: string }

export async function loadConfig(): Promise<StorefrontConfig> {
  const response = await fetch("/config.json", { cache: "no-store" })
  if (!response.ok) throw new Error(`the storefront's config is missing (${response.status})`)
  return response.json()
}

export function createSdk(config: StorefrontConfig): Medusa {
  return new Medusa({ baseUrl: config.backendUrl, publishableKey: config.publishableKey })
}

/** What every cart read asks for besides Medusa's defaults (which hold the payment collection and its sessions). */
export const CART_QUERY = { fields: "+shipping_methods.name" }

const CART_KEY = "crypto-demo-cart"
export const cartId = {
  get: () => localStorage.getItem(CART_KEY) ?? undefined,
  set: (id: string) => localStorage.setItem(CART_KEY, id),
  clear: () => localStorage.removeItem(CART_KEY),
}

/** Money as the starter shows it: "$84.00". */
export function money(amount: number | string | null | undefined, currency = "usd"): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(
    Number(amount ?? 0)
  )
}

/** A message from the store API (MedusaError messages are written for the customer). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
