/**
 * Facts of the crypto payment service, as its spec states them.
 * One place, so the client, the provider, the decision code and the sandbox agree.
 */

export const COINS = ["BTC", "ETH", "LTC", "USDT_ERC20", "USDT_BEP20"] as const
export type Coin = (typeof COINS)[number]

export const INVOICE_AMOUNT_CURRENCIES = ["USD", "USDT"] as const
export const PAYMENT_AMOUNT_CURRENCIES = ["USD", "USDT", "BTC", "ETH", "LTC"] as const
export type AmountCurrency = (typeof PAYMENT_AMOUNT_CURRENCIES)[number]

export function amountCurrenciesFor(kind: "invoice" | "payment"): readonly string[] {
  return kind === "invoice" ? INVOICE_AMOUNT_CURRENCIES : PAYMENT_AMOUNT_CURRENCIES
}

export const PAYMENT_STATUSES = ["PENDING", "COMPLETED", "EXPIRED", "FAILED"] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]
export const FINAL_STATUSES: readonly PaymentStatus[] = ["COMPLETED", "EXPIRED", "FAILED"]

/** Confirmations a payment needs before the service reports COMPLETED. */
export const REQUIRED_CONFIRMATIONS: Record<Coin, number> = {
  BTC: 3,
  ETH: 12,
  LTC: 6,
  USDT_ERC20: 12,
  USDT_BEP20: 15,
}

/**
 * The chain's smallest unit (USDT on BSC has 18, and a service may write ERC20 USDT with 18 too). The spec
 * states no precision, so amounts are parsed at this one and never rounded on either side of a comparison.
 */
export const COIN_DECIMALS: Record<Coin, number> = {
  BTC: 8,
  ETH: 18,
  LTC: 8,
  USDT_ERC20: 18,
  USDT_BEP20: 18,
}

/**
 * The places a coin amount is written with at least (the precisions wallets quote: ETH to 8, USDT
 * to 6); digits beyond them are written only when the amount has them.
 */
export const COIN_SHOWN_DECIMALS: Record<Coin, number> = {
  BTC: 8,
  ETH: 8,
  LTC: 8,
  USDT_ERC20: 6,
  USDT_BEP20: 6,
}

export const EXPIRATION_MINUTES = { min: 5, max: 1440, invoiceDefault: 60, paymentDefault: 30 } as const

export function isCoin(value: unknown): value is Coin {
  return typeof value === "string" && (COINS as readonly string[]).includes(value)
}
