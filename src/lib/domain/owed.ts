import { Coin, isCoin } from "../crypto-api/constants"
import { divideRoundingUp, fromUnits, toUnits } from "./decimal"
import { coinText, coinUnits, storeDecimals } from "./money"

/**
 * The arithmetic of the owed records (docs/money.md), exact in integers. A payment's rate is the one the
 * service set: its required coins for the invoice's base amount.
 */

/** Kinds of owed money: a Medusa refund, coins beyond what the order took, coins paid after the order was canceled. */
export const OWED_KINDS = ["refund", "excess", "late"] as const
export type OwedKind = (typeof OWED_KINDS)[number]

/**
 * A payment's terms: the store amount (in the store currency, whatever the service was asked in) and
 * the coins the service required for it, so every amount after checkout is at the rate it was priced at.
 */
export type PaymentRate = {
  coin: Coin
  required: string
  baseAmount: string
  /** The store currency (uppercase ISO code, or a coin for a store priced in one). */
  baseCurrency: string
}

export function rateOf(row: {
  coin: string | null
  required_amount: string | null
  crypto_amount: string | null
  base_amount: string
  base_currency: string
}): PaymentRate | undefined {
  const required = row.required_amount ?? row.crypto_amount
  const baseCurrency = row.base_currency.trim().toUpperCase()
  const places = storeDecimals(baseCurrency)
  if (!isCoin(row.coin) || !required || places === undefined) return undefined
  if (coinUnits(required, row.coin) <= 0n || toUnits(row.base_amount, places) <= 0n) return undefined
  return { coin: row.coin, required, baseAmount: row.base_amount, baseCurrency }
}

const unitsOf = (rate: PaymentRate, amount: string, rounding: "down" | "up" = "down") =>
  coinUnits(amount, rate.coin, rounding)
/** Decimals of a rate's store currency (rateOf admits only currencies that have them). */
const basePlaces = (rate: PaymentRate) => storeDecimals(rate.baseCurrency) ?? 2
const baseUnits = (rate: PaymentRate, amount: string) => toUnits(amount, basePlaces(rate))

/** Coins worth `base` at the payment's rate, rounded down (what a refund of `base` sends back). */
export function coinsFor(rate: PaymentRate, base: string): string {
  const units = (unitsOf(rate, rate.required, "up") * baseUnits(rate, base)) / baseUnits(rate, rate.baseAmount)
  return coinText(units, rate.coin)
}

/** The base-currency worth of `coins` at the payment's rate, rounded down. */
export function baseFor(rate: PaymentRate, coins: string): string {
  const units = (unitsOf(rate, coins) * baseUnits(rate, rate.baseAmount)) / unitsOf(rate, rate.required, "up")
  return fromUnits(units, basePlaces(rate))
}

/**
 * Received minus the coins of the base amount the order took (its own, or the cheaper cart a replaced
 * invoice paid), rounded in the shop's favour only by the last unit.
 */
export function excessCoins(rate: PaymentRate, received: string, takenBase: string = rate.baseAmount): string {
  const base = baseUnits(rate, rate.baseAmount)
  const taken = baseUnits(rate, takenBase)
  const takenCoins =
    taken >= base
      ? unitsOf(rate, rate.required, "up")
      : divideRoundingUp(unitsOf(rate, rate.required, "up") * taken, base)
  const beyond = unitsOf(rate, received) - takenCoins
  return coinText(beyond > 0n ? beyond : 0n, rate.coin)
}

/** Sums decimal texts exactly at `decimals` places (a base currency's). */
export function sumAmounts(decimals: number, amounts: Array<string | null | undefined>): string {
  return fromUnits(
    amounts.reduce((total, amount) => total + (amount ? toUnits(amount, decimals) : 0n), 0n),
    decimals
  )
}

export function sumCoins(coin: Coin, amounts: Array<string | null | undefined>): string {
  return coinText(
    amounts.reduce((total, amount) => total + (amount ? coinUnits(amount, coin) : 0n), 0n),
    coin
  )
}

/**
 * The coins of some owed records, summed exactly, when the payment's coin is known and every record
 * has its coin amount (a refund recorded before the coin was chosen has none); null otherwise.
 */
export function coinsOfRecords(coin: unknown, records: Array<{ coin_amount: string | null }>): string | null {
  if (!isCoin(coin) || !records.length || records.some((r) => r.coin_amount === null)) return null
  return sumCoins(
    coin,
    records.map((r) => r.coin_amount)
  )
}

/** a − b for coin amounts (decimal texts), never below zero. */
export function coinsBeyond(coin: Coin, a: string, b: string): string {
  const d = coinUnits(a, coin) - coinUnits(b, coin)
  return coinText(d > 0n ? d : 0n, coin)
}

export function isZero(amount: string): boolean {
  return /^0*(\.0*)?$/.test(amount)
}
