/**
 * Store currency → USD in exact rational arithmetic: a cross rate such as GBP → USD is a quotient of two
 * published decimals with no finite decimal form, so it is rounded only once, at the cent.
 */
import { divideRoundingUp, fromUnits, numberToDecimalString } from "../decimal"
import type { RatePublication } from "./ecb-file"

export const USD_DECIMALS = 2

/** An exact fraction num/den; functions here return it reduced, with a positive denominator. */
export type Ratio = { num: bigint; den: bigint }

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/
const MAX_MARKUP_PERCENT = 10n

/** The exact value of decimal text ("1.0842" → 5421/5000); throws RangeError on anything else. */
export function ratioOf(decimal: string): Ratio {
  const text = typeof decimal === "string" ? decimal.trim() : ""
  const match = DECIMAL.exec(text)
  if (!match) {
    throw new RangeError(`not a decimal: ${JSON.stringify(String(decimal).slice(0, 40))}`)
  }
  const [, sign, whole, fraction = ""] = match
  const num = BigInt(whole + fraction)
  return reduce(sign ? -num : num, 10n ** BigInt(fraction.length))
}

/**
 * Decimal text of a ratio rounded half-up (away from zero) to `significant` significant digits,
 * trailing zeros trimmed and never in exponent form: 1.0842/0.8610 → "1.25923344947735192".
 */
export function ratioText(r: Ratio, significant = 18): string {
  if (!Number.isInteger(significant) || significant < 1) {
    throw new RangeError(`significant digits must be a positive integer: ${significant}`)
  }
  const { num, den } = checked(r)
  if (num === 0n) return "0"
  const negative = num < 0n
  const abs = negative ? -num : num
  // Decimal exponent e with 10^e ≤ abs/den < 10^(e+1), first guessed from the digit counts.
  let e = abs.toString().length - den.toString().length
  if (e >= 0 ? abs < den * 10n ** BigInt(e) : abs * 10n ** BigInt(-e) < den) e--
  const places = significant - 1 - e
  const n = places >= 0 ? abs * 10n ** BigInt(places) : abs
  const d = places >= 0 ? den : den * 10n ** BigInt(-places)
  const digits = (2n * n + d) / (2n * d)
  let text: string
  if (places <= 0) {
    text = (digits * 10n ** BigInt(-places)).toString()
  } else {
    text = fromUnits(digits, places)
    text = text.replace(/0+$/, "").replace(/\.$/, "")
  }
  return negative ? `-${text}` : text
}

/**
 * USD per 1 unit of `currency` (any case) from a publication's EUR-based rates: rate(USD) ÷
 * rate(currency); EUR is rate(USD), USD is 1. Undefined when the file lacks the currency or USD.
 */
export function usdPerUnit(publication: Pick<RatePublication, "rates">, currency: string): Ratio | undefined {
  const code = currency.trim().toUpperCase()
  if (code === "USD") return { num: 1n, den: 1n }
  const usd = ownRate(publication.rates, "USD")
  if (usd === undefined) return undefined
  if (code === "EUR") return ratioOf(usd)
  const rate = ownRate(publication.rates, code)
  if (rate === undefined) return undefined
  return divide(ratioOf(usd), ratioOf(rate))
}

/** Computed exactly, then rounded up to the cent so the store never gets less than its price. */
export function usdAmountFor(storeAmount: string, usdPerUnit: Ratio, markupPercent: string | number = 0): string {
  const amount = ratioOf(storeAmount)
  if (amount.num < 0n) {
    throw new RangeError("a store amount cannot be negative")
  }
  const rate = checked(usdPerUnit)
  if (rate.num <= 0n) {
    throw new RangeError("a USD rate must be positive")
  }
  const markup = ratioOf(typeof markupPercent === "number" ? numberToDecimalString(markupPercent) : markupPercent)
  if (markup.num < 0n || markup.num > MAX_MARKUP_PERCENT * markup.den) {
    throw new RangeError(`markup must be between 0 and ${MAX_MARKUP_PERCENT} percent`)
  }
  // amount × rate × (100 + markup) / 100, with markup = m/d percent → (100·d + m) / (100·d).
  const num = amount.num * rate.num * (100n * markup.den + markup.num)
  const den = amount.den * rate.den * 100n * markup.den
  const scale = 10n ** BigInt(USD_DECIMALS)
  return fromUnits(divideRoundingUp(num * scale, den), USD_DECIMALS)
}

/** How far `after` moved from `before`, in percent of `before`: |after − before| / before × 100. */
export function movedPercent(before: Ratio, after: Ratio): Ratio {
  const b = checked(before)
  const a = checked(after)
  if (b.num <= 0n) {
    throw new RangeError("a change is measured from a positive value")
  }
  const diff = a.num * b.den - b.num * a.den
  return reduce((diff < 0n ? -diff : diff) * 100n, a.den * b.num)
}

/** True when `r` is strictly more than `limit` (a finite number, read through its shortest decimal text). */
export function exceedsPercent(r: Ratio, limit: number): boolean {
  const value = checked(r)
  const bound = ratioOf(numberToDecimalString(limit))
  return value.num * bound.den > bound.num * value.den
}

/** `r` rounded half-up to `decimals` places, as text with exactly that many ("23.4"). */
export function ratioFixed(r: Ratio, decimals: number): string {
  const { num, den } = checked(r)
  const scaled = num * 10n ** BigInt(decimals)
  const abs = scaled < 0n ? -scaled : scaled
  const units = (2n * abs + den) / (2n * den)
  return fromUnits(scaled < 0n ? -units : units, decimals)
}

function ownRate(rates: Record<string, string>, code: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(rates, code) ? rates[code] : undefined
}

function divide(a: Ratio, b: Ratio): Ratio {
  if (b.num === 0n) {
    throw new RangeError("division by a zero rate")
  }
  return reduce(a.num * b.den, a.den * b.num)
}

/** A ratio from outside, with a non-zero denominator made positive and the fraction reduced. */
function checked(r: Ratio): Ratio {
  if (typeof r?.num !== "bigint" || typeof r?.den !== "bigint" || r.den === 0n) {
    throw new RangeError("not a ratio of two integers with a non-zero denominator")
  }
  return reduce(r.num, r.den)
}

function reduce(num: bigint, den: bigint): Ratio {
  if (den < 0n) {
    num = -num
    den = -den
  }
  const g = gcd(num < 0n ? -num : num, den)
  return g > 1n ? { num: num / g, den: den / g } : { num, den }
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) {
    ;[a, b] = [b, a % b]
  }
  return a
}
