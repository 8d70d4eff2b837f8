/**
 * The plugin's customer-facing errors, recognised so that a storefront can say them in the customer's
 * language (the texts: `errors` of crypto-payment-labels.ts).
 *
 * Every error the crypto provider and the plugin's store routes answer carries a stable `code`
 * ("crypto.payment_expired"). It does not always reach the storefront: Medusa's JS SDK throws a
 * `FetchError` with the message and HTTP status only, and the Next.js starter's `medusaError` turns that
 * into `new Error("Error setting up the request: " + message)`. So `cryptoErrorCodeOf` reads the code when
 * the error still has it, and otherwise recognises the English message by a part of it that never
 * changes with the details. No framework; copy it with the rest of docs/storefront.
 */
import { CRYPTO_PAYMENT_LABELS, CryptoPaymentLabels } from "./crypto-payment-labels"

/** The codes of the plugin's customer-facing errors (the plugin's src/lib/domain/customer-errors.ts). */
export const CRYPTO_ERROR_CODES = [
  "crypto.no_session",
  "crypto.unknown_coin",
  "crypto.coin_required",
  "crypto.currency_not_accepted",
  "crypto.currency_not_priced",
  "crypto.rate_stale",
  "crypto.nothing_to_pay",
  "crypto.no_payment",
  "crypto.payment_expired",
  "crypto.payment_failed",
  "crypto.payment_not_received",
  "crypto.payment_unconfirmed",
  "crypto.payment_partly_received",
  "crypto.payment_not_capturable",
  "crypto.not_set_up",
  "crypto.try_again",
  "crypto.unexpected_error",
  "crypto.request_invalid",
  "crypto.request_refused",
  "crypto.service_unreachable",
  "crypto.service_bad_answer",
  "crypto.service_access_refused",
  "crypto.payment_unknown",
  "crypto.service_busy",
  "crypto.service_error",
  "crypto.payment_not_found",
  "crypto.no_address_yet",
  "crypto.nothing_to_send",
  "crypto.status_unavailable",
  "crypto.too_many_sessions",
  "crypto.refund_link_not_found",
  "crypto.refund_address_frozen",
  "crypto.refund_address_invalid",
  "crypto.too_many_requests",
] as const
export type CryptoErrorCode = (typeof CRYPTO_ERROR_CODES)[number]

/**
 * What the storefront tells apart: the plugin's codes, and `conflict` — Medusa's 409 (e.g. the cart is
 * already being completed by another request), whose code and message Medusa's error handler replaces
 * with `invalid_state_error` and "The request conflicted with another request…".
 */
export type CryptoErrorKey = CryptoErrorCode | "conflict"

/**
 * How each code's English message reads, by a part that does not change with its details (coin, amounts,
 * what could not be done). The most specific first: "not confirmed yet (received …" before "not confirmed
 * yet (…", the service's words before the generic "Could not … Please try again".
 */
const ENGLISH_MESSAGES: Array<[CryptoErrorCode, RegExp]> = [
  ["crypto.no_session", /needs a payment session id/],
  ["crypto.unknown_coin", /Unknown coin .+: choose one of /],
  ["crypto.coin_required", /Choose the coin to pay with/],
  [
    "crypto.currency_not_accepted",
    /Crypto payments are not available for \S+ carts: the crypto payment service accepts/,
  ],
  ["crypto.currency_not_priced", /Crypto payments are not available for \S+ carts: there is no exchange rate/],
  [
    "crypto.rate_stale",
    /Crypto payments are not available for \S+ carts right now: the exchange rate to USD (is out of date|could not be fetched yet)/,
  ],
  ["crypto.nothing_to_pay", /There is nothing to pay/],
  ["crypto.no_payment", /holds no crypto payment/],
  ["crypto.payment_expired", /This crypto payment expired before the full amount arrived/],
  ["crypto.payment_failed", /This crypto payment failed at the payment service/],
  ["crypto.payment_not_received", /Your crypto payment has not been received yet/],
  ["crypto.payment_partly_received", /Your crypto payment is not confirmed yet \(received /],
  ["crypto.payment_unconfirmed", /Your crypto payment is not confirmed yet \(/],
  ["crypto.payment_not_capturable", /The crypto payment cannot be captured/],
  ["crypto.not_set_up", /Crypto payments are not set up completely/],
  ["crypto.request_invalid", /the request is not valid for the crypto payment service/],
  ["crypto.request_refused", /the crypto payment service refused the request/],
  ["crypto.service_unreachable", /the crypto payment service is not reachable right now/],
  ["crypto.service_bad_answer", /the crypto payment service gave an unexpected answer/],
  ["crypto.service_access_refused", /access to the payment service was refused/],
  ["crypto.payment_unknown", /the crypto payment service does not know this payment/],
  ["crypto.service_busy", /the crypto payment service is busy/],
  ["crypto.service_error", /the crypto payment service had a problem/],
  ["crypto.unexpected_error", /Could not [^:]+\. Please try again in a moment\./],
  ["crypto.try_again", /Could not [^:]+\. Please try again\./],
  ["crypto.payment_not_found", /Crypto payment not found\./],
  ["crypto.no_address_yet", /No address yet: the customer has not chosen a coin/],
  ["crypto.nothing_to_send", /Nothing is left to send/],
  ["crypto.status_unavailable", /The payment status is not available right now/],
  ["crypto.too_many_sessions", /Too many payment attempts for this cart/],
  ["crypto.refund_link_not_found", /This refund link is not valid or has expired/],
  ["crypto.refund_address_frozen", /The refund is already being sent: its address can no longer change/],
  ["crypto.refund_address_invalid", /This address cannot receive the refund/],
  ["crypto.too_many_requests", /Too many requests\. Please wait a moment/],
]

const CONFLICT = /conflicted with another request|already being completed/

export function isCryptoErrorCode(code: unknown): code is CryptoErrorCode {
  return typeof code === "string" && (CRYPTO_ERROR_CODES as readonly string[]).indexOf(code) >= 0
}

/** A field of an error (or of the error body a storefront kept), if it is there. */
function field(error: unknown, name: "code" | "message" | "status"): unknown {
  return error !== null && typeof error === "object" ? (error as Record<string, unknown>)[name] : undefined
}

/** The message of an error, a store API error body, or a string. */
export function errorMessageOf(error: unknown): string {
  if (typeof error === "string") return error
  const message = field(error, "message")
  return typeof message === "string" ? message : String(error)
}

/**
 * Which of the plugin's errors this is: from its `code` (a store API error body, a MedusaError in a server
 * action, or what an earlier `cryptoErrorCodeOf` gave), else from Medusa's 409, else from its English message,
 * wherever in the text it stands (the starter's `medusaError` puts "Error setting up the request: " in front),
 * else — any other 409 — Medusa's conflict. Undefined for anything else.
 */
export function cryptoErrorCodeOf(error: unknown): CryptoErrorKey | undefined {
  const code = field(error, "code")
  if (isCryptoErrorCode(code)) return code
  const message = errorMessageOf(error)
  if (code === "conflict" || code === "invalid_state_error" || CONFLICT.test(message)) return "conflict"
  for (const [known, pattern] of ENGLISH_MESSAGES) {
    if (pattern.test(message)) return known
  }
  // a 409 of the plugin's own (a refund address that can no longer change) keeps its message: recognised above
  return field(error, "status") === 409 ? "conflict" : undefined
}

/**
 * What to show the customer for an error: the text of its code in `labels` (from `cryptoPaymentLabels(locale)`),
 * or the error's own message when it is none of the plugin's (e.g. one of Medusa's own).
 */
export function cryptoErrorMessage(error: unknown, labels: CryptoPaymentLabels = CRYPTO_PAYMENT_LABELS.en): string {
  const key = cryptoErrorCodeOf(error)
  return key ? labels.errors[key] : errorMessageOf(error)
}
