import { Coin, COIN_DECIMALS } from "./spec-facts"
import { divideRoundingUp, numberToDecimalString, toUnits } from "./decimal"

/** Simulated market prices in USD (USDT counts 1:1 with USD). */
export const DEFAULT_PRICES: Record<Coin, string> = {
  BTC: "65000",
  ETH: "3250",
  LTC: "82.5",
  USDT_ERC20: "1",
  USDT_BEP20: "1",
}

const PRICE_DECIMALS = 8

/**
 * The amount of `coin` worth `amount` of `amountCurrency` at `prices`, in units of 10^-decimals (by default
 * the coin's quoted precision), rounded up. `amount` is read exactly: a decimal text of any length, or a number.
 */
export function convertAt(
  prices: Record<Coin, string>,
  amount: number | string,
  amountCurrency: string,
  coin: Coin,
  decimals = COIN_DECIMALS[coin]
): bigint {
  const amountText = typeof amount === "number" ? numberToDecimalString(amount) : amount
  const amountDecimals = Math.max(PRICE_DECIMALS, amountText.split(".")[1]?.length ?? 0)
  const usdScaled = toUnits(amountText, amountDecimals) * usdPriceScaled(prices, amountCurrency)
  // usdScaled carries amountDecimals + PRICE_DECIMALS; the coin price carries PRICE_DECIMALS
  const numerator = usdScaled * 10n ** BigInt(decimals)
  const denominator = toUnits(prices[coin], PRICE_DECIMALS) * 10n ** BigInt(amountDecimals)
  return divideRoundingUp(numerator, denominator)
}

function usdPriceScaled(prices: Record<Coin, string>, currency: string): bigint {
  if (currency === "USD" || currency === "USDT") return 10n ** BigInt(PRICE_DECIMALS)
  return toUnits(prices[currency as Coin], PRICE_DECIMALS)
}
