import { MathBN } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"
import { AmountCurrency, COIN_DECIMALS, Coin, PAYMENT_AMOUNT_CURRENCIES } from "./crypto-api/constants"
import { toUnits } from "./decimal"

/** Decimal places of an amount in each currency the service accepts as amountCurrency. */
export const AMOUNT_CURRENCY_DECIMALS: Record<AmountCurrency, number> = {
  USD: 2,
  USDT: 2,
  BTC: COIN_DECIMALS.BTC,
  ETH: COIN_DECIMALS.ETH,
  LTC: COIN_DECIMALS.LTC,
}

export function toAmountCurrency(currencyCode: string): AmountCurrency | undefined {
  const upper = currencyCode.trim().toUpperCase()
  return (PAYMENT_AMOUNT_CURRENCIES as readonly string[]).includes(upper) ? (upper as AmountCurrency) : undefined
}

/**
 * A Medusa amount (major units, BigNumber-compatible) as the service wants it: rounded half-up
 * at the currency's precision, as the exact decimal text and as the JSON number to send.
 */
export function serviceAmount(amount: BigNumberInput, currency: AmountCurrency): { text: string; value: number } {
  const text = MathBN.convert(amount).toFixed(AMOUNT_CURRENCY_DECIMALS[currency])
  return { text, value: Number(text) }
}

/**
 * A payment's base amount covers what a collection asks now: same currency, and at least the
 * amount, compared at that currency's precision (satoshis for a BTC cart, cents for USD).
 */
export function coversAmount(
  base: { amount: string; currency: string },
  asked: { amount: BigNumberInput; currency: string }
): boolean {
  const currency = toAmountCurrency(base.currency)
  if (!currency || toAmountCurrency(asked.currency) !== currency) return false
  const places = AMOUNT_CURRENCY_DECIMALS[currency]
  return toUnits(base.amount, places) >= toUnits(MathBN.convert(asked.amount).toFixed(places), places)
}

/** A coin amount as the exact decimal text at the coin's precision (what the decision compares). */
export function coinAmountText(amount: number | string, coin: Coin): string {
  return MathBN.convert(amount).toFixed(COIN_DECIMALS[coin])
}
