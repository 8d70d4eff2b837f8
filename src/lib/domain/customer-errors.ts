import { MedusaError } from "@medusajs/framework/utils"

/**
 * Every error a customer can meet, by a stable code storefronts translate by. Where Medusa or the JS SDK
 * drops the code (docs/storefront.md, "Errors"), the storefront matches the English text instead, so a
 * text here changes only together with its pattern there.
 */
export const CRYPTO_ERROR_TEXTS = {
  // starting or updating a payment
  "crypto.no_session": "A crypto payment needs a payment session id.",
  "crypto.unknown_coin": "Unknown coin {{coin}}: choose one of {{coins}}.",
  "crypto.coin_required": "Choose the coin to pay with: pass data.currency, one of {{coins}}.",
  "crypto.currency_not_accepted":
    "Crypto payments are not available for {{currency}} carts: the crypto payment service accepts {{kinds}} in {{accepted}}.",
  "crypto.currency_not_priced":
    "Crypto payments are not available for {{currency}} carts: there is no exchange rate from {{currency}} to USD, the currency the crypto payment service prices in.",
  "crypto.rate_stale":
    "Crypto payments are not available for {{currency}} carts right now: the exchange rate to USD {{why}}. Please try again later or choose another payment method.",
  "crypto.nothing_to_pay": "There is nothing to pay: the amount must be greater than 0.",
  "crypto.no_payment": "This payment session holds no crypto payment. Please start a new payment.",
  // completing the cart (authorizePayment) and capturing
  "crypto.payment_expired": "This crypto payment expired before the full amount arrived. Please start a new payment.",
  "crypto.payment_failed": "This crypto payment failed at the payment service. Please start a new payment.",
  "crypto.payment_not_received":
    "Your crypto payment has not been received yet. Choose a coin and pay on the payment page; the order is placed once the payment is confirmed.",
  "crypto.payment_unconfirmed":
    "Your crypto payment is not confirmed yet ({{confirmations}} of {{requiredConfirmations}} confirmations). The order is placed as soon as the payment is confirmed.",
  "crypto.payment_partly_received":
    "Your crypto payment is not confirmed yet (received {{received}} of {{required}} {{coin}}). The order is placed as soon as the payment is confirmed.",
  "crypto.payment_not_capturable":
    "The crypto payment cannot be captured: the service reports it {{status}}{{reason}}.",
  // the shop's side: setup, the ledger, the payment service
  "crypto.not_set_up":
    'Crypto payments are not set up completely: the plugin\'s crypto_payment table is missing. Add "medusa-payment-crypto" to plugins in medusa-config.ts and run `npx medusa db:migrate`.',
  "crypto.try_again": "Could not {{action}}. Please try again.",
  "crypto.unexpected_error": "Could not {{action}}. Please try again in a moment.",
  "crypto.request_invalid":
    "Could not {{action}}: the request is not valid for the crypto payment service ({{fields}}).",
  "crypto.request_refused": "Could not {{action}}: the crypto payment service refused the request{{fields}}.",
  "crypto.service_unreachable":
    "Could not {{action}}: the crypto payment service is not reachable right now. Please try again in a moment.",
  "crypto.service_bad_answer":
    "Could not {{action}}: the crypto payment service gave an unexpected answer. Please try again later.",
  "crypto.service_access_refused":
    "Could not {{action}}: crypto payments are not available right now (the shop's access to the payment service was refused).",
  "crypto.payment_unknown": "Could not {{action}}: the crypto payment service does not know this payment.",
  "crypto.service_busy": "Could not {{action}}: the crypto payment service is busy. Please try again in a minute.",
  "crypto.service_error":
    "Could not {{action}}: the crypto payment service had a problem. Please try again in a moment.",
  // the plugin's store routes (translated there: src/api/store/crypto/route-errors.ts)
  "crypto.payment_not_found": "Crypto payment not found.",
  "crypto.no_address_yet": "No address yet: the customer has not chosen a coin.",
  "crypto.nothing_to_send": "Nothing is left to send: the payment has arrived or is closed.",
  "crypto.status_unavailable": "The payment status is not available right now. Try again shortly.",
  "crypto.too_many_sessions": "Too many payment attempts for this cart. Please wait a minute and try again.",
  "crypto.refund_link_not_found": "This refund link is not valid or has expired. Ask the shop for a new one.",
  "crypto.refund_address_frozen":
    "The refund is already being sent: its address can no longer change. Contact the shop if it is wrong.",
  "crypto.refund_address_invalid": "This address cannot receive the refund. Check the address and its network.",
  "crypto.too_many_requests": "Too many requests. Please wait a moment and try again.",
} as const

export type CryptoErrorCode = keyof typeof CRYPTO_ERROR_TEXTS

export const CRYPTO_ERROR_CODES = Object.keys(CRYPTO_ERROR_TEXTS) as CryptoErrorCode[]

type Placeholders<Text extends string> = Text extends `${string}{{${infer Name}}}${infer Rest}`
  ? Name | Placeholders<Rest>
  : never

export type CryptoErrorParams<Code extends CryptoErrorCode> = [
  Placeholders<(typeof CRYPTO_ERROR_TEXTS)[Code]>,
] extends [never]
  ? []
  : [Record<Placeholders<(typeof CRYPTO_ERROR_TEXTS)[Code]>, string | number>]

/** A text with its `{{placeholders}}` filled in; a placeholder without a value is left as it is. */
export function fillText(text: string, values: Record<string, string | number> = {}): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole
  )
}

export function cryptoErrorText<Code extends CryptoErrorCode>(code: Code, ...params: CryptoErrorParams<Code>): string {
  return fillText(CRYPTO_ERROR_TEXTS[code], params[0])
}

/** The MedusaError of a customer-facing error: its English text as the message, its code as `code`. */
export function cryptoError<Code extends CryptoErrorCode>(
  type: (typeof MedusaError.Types)[keyof typeof MedusaError.Types],
  code: Code,
  ...params: CryptoErrorParams<Code>
): MedusaError {
  return new MedusaError(type, cryptoErrorText(code, ...params), code)
}
