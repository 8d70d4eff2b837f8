/**
 * Facts of the crypto payment service as the sandbox plays it, written from the spec
 * (../shared/spec/crypto-payment-service.md). The sandbox keeps its own copy rather than
 * importing the plugin's constants: a stand-in that shares the plugin's reading of the spec
 * could not catch a misreading. __tests__/spec-facts.spec.ts shows where the two disagree.
 * Where the spec gives no value, the sandbox's own choice is marked as such.
 */

/** "Supported cryptocurrencies (the currency code set)". */
export const COINS = ["BTC", "ETH", "LTC", "USDT_ERC20", "USDT_BEP20"] as const
export type Coin = (typeof COINS)[number]

export function isCoin(value: unknown): value is Coin {
  return typeof value === "string" && (COINS as readonly string[]).includes(value)
}

/** create_invoice: amountCurrency is "USD or USDT". */
export const INVOICE_AMOUNT_CURRENCIES = ["USD", "USDT"] as const
/** create_payment: amountCurrency is "USD, USDT, BTC, ETH or LTC". */
export const PAYMENT_AMOUNT_CURRENCIES = ["USD", "USDT", "BTC", "ETH", "LTC"] as const

/** "Payment and invoice status values". */
export const PAYMENT_STATUSES = ["PENDING", "COMPLETED", "EXPIRED", "FAILED"] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]

/** "Required confirmations before a payment becomes COMPLETED" (Limits). */
export const REQUIRED_CONFIRMATIONS: Record<Coin, number> = { BTC: 3, ETH: 12, LTC: 6, USDT_ERC20: 12, USDT_BEP20: 15 }

/** expirationMinutes: "5 to 1440"; default 60 for an invoice, 30 for a payment. */
export const EXPIRATION_MINUTES = { min: 5, max: 1440, invoiceDefault: 60, paymentDefault: 30 } as const

/**
 * Decimal places of amounts in each coin. Not in the spec (its amounts are numbers and decimal
 * strings of no stated precision): the sandbox's choice, the precisions wallets quote.
 */
export const COIN_DECIMALS: Record<Coin, number> = { BTC: 8, ETH: 8, LTC: 8, USDT_ERC20: 6, USDT_BEP20: 6 }

/**
 * Decimal places of amounts at their chain's full precision (satoshi, litoshi, wei; USDT as its BEP20 token
 * counts, and as a service may write ERC20 USDT too): what a service computing in the smallest unit writes.
 * Not in the spec either; played with PUT /__sandbox/config {decimals: "native"}.
 */
export const NATIVE_COIN_DECIMALS: Record<Coin, number> = { BTC: 8, ETH: 18, LTC: 8, USDT_ERC20: 18, USDT_BEP20: 18 }

/** At which precision the sandbox computes and writes coin amounts: COIN_DECIMALS or NATIVE_COIN_DECIMALS. */
export type AmountPrecision = "quoted" | "native"

export function coinDecimals(coin: Coin, precision: AmountPrecision): number {
  return (precision === "native" ? NATIVE_COIN_DECIMALS : COIN_DECIMALS)[coin]
}

/**
 * Daily and monthly withdrawal limits per coin (whole coins). The spec gives the windows (daily:
 * every 24 hours, monthly: from the 1st) but no numbers: these are the sandbox's choice.
 */
export const WITHDRAWAL_LIMITS: Record<Coin, { daily: number; monthly: number }> = {
  BTC: { daily: 10, monthly: 100 },
  ETH: { daily: 150, monthly: 1500 },
  LTC: { daily: 2000, monthly: 20000 },
  USDT_ERC20: { daily: 250000, monthly: 2500000 },
  USDT_BEP20: { daily: 250000, monthly: 2500000 },
}
