import { defaultCurrencies, MathBN } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"
import {
  AmountCurrency,
  COIN_DECIMALS,
  COIN_SHOWN_DECIMALS,
  Coin,
  isCoin,
  PAYMENT_AMOUNT_CURRENCIES,
} from "../crypto-api/constants"
import { downToSendableUnit, SENDABLE_DECIMALS, sendableUnitIn } from "./chains"
import { fromUnits, numberToDecimalString, Rounding, toUnits } from "./decimal"

/** Decimal places of an amount in each currency the service accepts as amountCurrency (a store's own amounts). */
export const AMOUNT_CURRENCY_DECIMALS: Record<AmountCurrency, number> = {
  USD: 2,
  USDT: 2,
  BTC: COIN_SHOWN_DECIMALS.BTC,
  ETH: COIN_SHOWN_DECIMALS.ETH,
  LTC: COIN_SHOWN_DECIMALS.LTC,
}

export function toAmountCurrency(currencyCode: string): AmountCurrency | undefined {
  const upper = currencyCode.trim().toUpperCase()
  return (PAYMENT_AMOUNT_CURRENCIES as readonly string[]).includes(upper) ? (upper as AmountCurrency) : undefined
}

/**
 * The service's amount currencies as it takes them (a BTC cart in satoshis), any other from Medusa's own
 * currency table, as Medusa's refund check reads it (JPY 0, KWD 3).
 */
export function storeDecimals(currencyCode: string): number | undefined {
  const upper = currencyCode.trim().toUpperCase()
  const amountCurrency = toAmountCurrency(upper)
  if (amountCurrency) return AMOUNT_CURRENCY_DECIMALS[amountCurrency]
  const known = (defaultCurrencies as Record<string, { decimal_digits: number } | undefined>)[upper]
  return known ? known.decimal_digits : undefined
}

/** A Medusa amount in a store currency, rounded half-up at that currency's decimals (2 for a code Medusa does not know). */
export function storeAmount(amount: BigNumberInput, currencyCode: string): string {
  return MathBN.convert(amount).toFixed(storeDecimals(currencyCode) ?? 2)
}

/**
 * A Medusa amount (major units, BigNumber-compatible) as the service wants it: rounded half-up
 * at the currency's precision, as the exact decimal text (what is sent) and its number (for checks).
 */
export function serviceAmount(amount: BigNumberInput, currency: AmountCurrency): { text: string; value: number } {
  const text = MathBN.convert(amount).toFixed(AMOUNT_CURRENCY_DECIMALS[currency])
  return { text, value: Number(text) }
}

/**
 * A payment's base amount (in the store currency) covers what a collection asks now: same currency,
 * and at least the amount, compared at that currency's precision (satoshis for a BTC cart, cents for
 * USD or EUR, yen for JPY).
 */
export function coversAmount(
  base: { amount: string; currency: string },
  asked: { amount: BigNumberInput; currency: string }
): boolean {
  const currency = base.currency.trim().toUpperCase()
  const places = storeDecimals(currency)
  if (places === undefined || asked.currency.trim().toUpperCase() !== currency) return false
  return toUnits(base.amount, places) >= toUnits(MathBN.convert(asked.amount).toFixed(places), places)
}

/**
 * A coin amount (decimal text) in the coin's smallest units. Within the coin's native decimals the
 * text is kept exactly; only digits beyond them are rounded as asked (required up, received down).
 */
export function coinUnits(amount: string, coin: Coin, rounding: Rounding = "half-up"): bigint {
  return toUnits(amount, COIN_DECIMALS[coin], rounding)
}

/**
 * Units of a coin as decimal text: at least the places wallets quote (COIN_SHOWN_DECIMALS), and
 * every further digit the amount has, up to the coin's native decimals ("0.033333333333333333" ETH).
 */
export function coinText(units: bigint, coin: Coin): string {
  const full = fromUnits(units, COIN_DECIMALS[coin])
  const [whole, fraction = ""] = full.split(".")
  const shown = COIN_SHOWN_DECIMALS[coin]
  const kept = fraction.replace(/0+$/, "")
  return `${whole}.${kept.length > shown ? kept : fraction.slice(0, shown)}`
}

/**
 * A coin amount the service asks for (decimal text or number), as the exact text the customer is told
 * to send; digits beyond the coin's native decimals (no chain has them) round up, never asking for less.
 */
export function coinAmountText(amount: number | string, coin: Coin): string {
  return coinText(coinUnits(typeof amount === "number" ? numberToDecimalString(amount) : amount, coin, "up"), coin)
}

/**
 * Coins owed back (exact decimal text) as the shop sends them: rounded down to the coin's sendable places
 * (SENDABLE_DECIMALS), less by under one such unit, and written with exactly those places
 * ("0.003336413333333333" ETH → "0.00333641").
 */
export function sendableCoins(amount: string, coin: Coin): string {
  const units = downToSendableUnit(coin, coinUnits(amount, coin, "down"))
  return fromUnits(units / sendableUnitIn(coin), SENDABLE_DECIMALS[coin])
}

/** A record's coins as the shop sends them: null (none worked out yet) stays null, a coin not known keeps its text. */
export function sendableCoinsOf(coin: unknown, amount: string | null): string | null {
  if (amount === null) return null
  return isCoin(coin) ? sendableCoins(amount, coin) : amount
}
