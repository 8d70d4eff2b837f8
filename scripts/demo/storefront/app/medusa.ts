/**
 * The demo storefront's link to the store: the backend URL and publishable key come from /config.json
 * (written by the demo when it starts), the cart id and the chosen region live in localStorage like the
 * starter's cookies, and the shopper's language in the SDK (which keeps it in localStorage and sends it as
 * `x-medusa-locale`).
 */
import Medusa from "@medusajs/js-sdk"
import { cryptoErrorMessage } from "../../../../docs/storefront/crypto-payment-errors"
import { cryptoPaymentLabels, cryptoPaymentLanguage } from "../../../../docs/storefront/crypto-payment-i18n"
import type { CryptoPaymentLanguage } from "../../../../docs/storefront/crypto-payment-labels"

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
// a line's total is not among the store API's default cart fields in Medusa 2.21: without it, lines read 0.00
export const CART_QUERY = { fields: "+shipping_methods.name,+items.total" }

const CART_KEY = "crypto-demo-cart"
export const cartId = {
  get: () => localStorage.getItem(CART_KEY) ?? undefined,
  set: (id: string) => localStorage.setItem(CART_KEY, id),
  clear: () => localStorage.removeItem(CART_KEY),
}

const REGION_KEY = "crypto-demo-region"
/** The region the shopper chose last (the region switch), as the starter keeps its country in the URL. */
export const savedRegion = {
  get: () => localStorage.getItem(REGION_KEY) ?? undefined,
  set: (id: string) => localStorage.setItem(REGION_KEY, id),
}

/** A region as the region switch lists it: "Europe (EUR)". */
export function regionLabel(region: { name: string; currency_code: string }): string {
  return `${region.name} (${region.currency_code.toUpperCase()})`
}

/** Money as the starter shows it: "$84.00", "€75.00", "¥5,000" (the currency's own decimals). */
export function money(amount: number | string | null | undefined, currency = "usd"): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(
    Number(amount ?? 0)
  )
}

/** The languages of the demo's switch: those the crypto components have built in. */
export const LANGUAGES: Array<{ code: CryptoPaymentLanguage; name: string }> = [
  { code: "en", name: "English" },
  { code: "de", name: "Deutsch" },
  { code: "fr", name: "Français" },
  { code: "es", name: "Español" },
]

/** The language the shopper chose last (the SDK keeps it), English until they choose. */
export function savedLanguage(sdk: Medusa): CryptoPaymentLanguage {
  return cryptoPaymentLanguage(sdk.getLocale())
}

/**
 * A message from the store API for the customer: the plugin's errors in the customer's language (by their
 * code, or their English message where Medusa dropped the code), any other as the store wrote it.
 */
export function messageOf(error: unknown, locale?: string): string {
  return cryptoErrorMessage(error, cryptoPaymentLabels(locale))
}
