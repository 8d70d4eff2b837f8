import { CryptoPaymentEvents } from "./payment-events"

/**
 * The customer emails of a crypto payment (docs/events-and-emails.md): the kind an event means, the
 * template id, the language, and the `data` a shop's templates are written against. Pure: the email
 * subscriber does the reading and sending.
 */

export const CUSTOMER_EMAIL_KINDS = ["link", "detected", "paid", "expired", "remainder", "refund_address"] as const
export type CustomerEmailKind = (typeof CUSTOMER_EMAIL_KINDS)[number]

export const DEFAULT_EMAIL_TEMPLATES: Record<CustomerEmailKind, string> = {
  link: "crypto-payment-link",
  detected: "crypto-payment-detected",
  paid: "crypto-payment-paid",
  expired: "crypto-payment-expired",
  remainder: "crypto-payment-remainder",
  refund_address: "crypto-refund-address",
}

export type EmailPayment = {
  payment_id: string
  payment_collection_id: string | null
  kind: string
  base_amount: string
  base_currency: string
  coin: string | null
  crypto_amount: string | null
  quotes: unknown
  invoice_url: string | null
  expires_at: Date | string | null
  received_amount: string | null
  confirmations: number | null
  required_confirmations: number | null
  remainder_of: string | null
  applied: string | null
}

export type EmailOrder = {
  id: string
  display_id?: number | string | null
  email?: string | null
  locale?: string | null
}

export type EmailLinks = { storefrontUrl: string; orderPath: string }

/**
 * What every template receives; fields a kind has no value for are null. An expired checkout order has
 * `start_again_url` (its cart is gone); an expired order collection has `payment_link_url` (the order
 * stands, a new payment link pays it).
 */
export type CustomerEmailData = {
  kind: CustomerEmailKind
  locale: string
  order_id: string
  order_display_id: string | null
  order_url: string
  payment_id: string
  payment_collection_id: string | null
  store_amount: string
  store_currency: string
  coin: string | null
  coin_amount: string | null
  quotes: Record<string, string> | null
  invoice_url: string | null
  expires_at: string | null
  received_amount: string | null
  confirmations: number | null
  required_confirmations: number | null
  order_canceled: boolean | null
  start_again_url: string | null
  payment_link_url: string | null
  refund: RefundEmailData | null
}

export type RefundEmailData = {
  /** refund (Medusa refunded the order), excess (paid more than asked), late (paid after it closed). */
  owed_kind: string
  coin: string | null
  /** The coins as the shop sends them (rounded down to the places a wallet sends): the figure to show. */
  coin_amount_sendable: string | null
  /** The coins owed, exact (the shop's books): less than one unit of coin_amount_sendable's last place above it. */
  coin_amount: string | null
  store_amount: string
  store_currency: string
  /** Where the customer gives (or changes) the address, and until when the link works. */
  link_url: string | null
  link_expires_at: string
  /** The address just given, masked, and its network's name: only in a confirmation. */
  address_masked: string | null
  network: string | null
}

/**
 * What causes each email: its notification's `trigger_type`, and the event the subscriber sends it on
 * (the link on order.placed, the refund link on each owed record's event).
 */
export const EMAIL_TRIGGERS: Record<CustomerEmailKind, string> = {
  link: "order.placed",
  detected: CryptoPaymentEvents.DETECTED,
  paid: CryptoPaymentEvents.PAID,
  expired: CryptoPaymentEvents.EXPIRED,
  remainder: CryptoPaymentEvents.CREATED,
  refund_address: CryptoPaymentEvents.REFUND_OWED,
}

/**
 * The kind of email a crypto_payment.* event sends about its payment alone, if any: a created payment
 * only when it is a remainder (the link and refund-address emails need more than the payment).
 */
export function emailKindOfEvent(
  eventName: string,
  payment: Pick<EmailPayment, "remainder_of">
): CustomerEmailKind | undefined {
  const kind = CUSTOMER_EMAIL_KINDS.find((k) => EMAIL_TRIGGERS[k] === eventName)
  if (kind === "link" || kind === "refund_address") return undefined
  if (kind === "remainder" && !payment.remainder_of) return undefined
  return kind
}

/** The language of an email: the order's locale's language ("fr-FR" → "fr"), else the default. */
export function emailLocale(orderLocale: string | null | undefined, defaultLocale: string): string {
  const language = orderLocale?.trim().split(/[-_]/)[0]?.toLowerCase()
  return language && /^[a-z]{2,3}$/.test(language) ? language : defaultLocale
}

function url(links: EmailLinks, path: string): string {
  return `${links.storefrontUrl.replace(/\/+$/, "")}${path}`
}

function isoOf(at: Date | string | null): string | null {
  if (!at) return null
  const date = new Date(at)
  return Number.isNaN(date.getTime()) ? null : date.toISOString()
}

function quotesOf(quotes: unknown): Record<string, string> | null {
  if (!quotes || typeof quotes !== "object") return null
  const entries = Object.entries(quotes as Record<string, unknown>).filter(([, v]) => typeof v === "string")
  return entries.length ? (Object.fromEntries(entries) as Record<string, string>) : null
}

export function customerEmailData(
  kind: CustomerEmailKind,
  payment: EmailPayment,
  order: EmailOrder,
  links: EmailLinks,
  locale: string,
  refund: RefundEmailData | null = null
): CustomerEmailData {
  const asks = kind === "link" || kind === "remainder"
  const progress = kind === "detected" || kind === "paid"
  const canceled = kind === "expired" ? payment.applied === "cancel_order" : null
  const collection = payment.payment_collection_id
  return {
    kind,
    locale,
    order_id: order.id,
    order_display_id: order.display_id === null || order.display_id === undefined ? null : String(order.display_id),
    order_url: url(links, links.orderPath.replace("{order_id}", encodeURIComponent(order.id))),
    payment_id: payment.payment_id,
    payment_collection_id: collection,
    store_amount: payment.base_amount,
    store_currency: payment.base_currency.toUpperCase(),
    coin: payment.coin,
    coin_amount: asks ? payment.crypto_amount : null,
    quotes: kind === "link" && payment.kind === "invoice" ? quotesOf(payment.quotes) : null,
    invoice_url: asks ? payment.invoice_url : null,
    expires_at: asks ? isoOf(payment.expires_at) : null,
    received_amount: progress ? (payment.received_amount ?? null) : null,
    confirmations: kind === "detected" ? (payment.confirmations ?? null) : null,
    required_confirmations: kind === "detected" ? (payment.required_confirmations ?? null) : null,
    order_canceled: canceled,
    start_again_url: canceled === true ? url(links, "/") : null,
    payment_link_url:
      canceled === false && collection
        ? url(
            links,
            // as Medusa's dashboard copies it: the storefront's page reads the order it pays from order_id
            `/payment-collection/${encodeURIComponent(collection)}?order_id=${encodeURIComponent(order.id)}`
          )
        : null,
    refund: kind === "refund_address" ? refund : null,
  }
}
