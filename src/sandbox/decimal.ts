/**
 * Exact amounts for the sandbox: decimals as integers of a coin's smallest unit (BigInt), never
 * floating point. The sandbox's own, so that it shares no arithmetic with the plugin it stands in for.
 */

/** Parses "12.345" (or a finite number, through its plain decimal form) into units of 10^-decimals; rounds half up beyond `decimals`. */
export function toUnits(value: string | number, decimals: number): bigint {
  const text = typeof value === "number" ? numberToDecimalString(value) : value.trim()
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text)
  if (!match) throw new RangeError(`not a decimal amount: ${JSON.stringify(text)}`)
  const [, sign, whole, fraction = ""] = match
  const roundUp = Number(fraction.charAt(decimals) || 0) >= 5 ? 1n : 0n
  const units = BigInt(whole + fraction.padEnd(decimals, "0").slice(0, decimals)) + roundUp
  return sign ? -units : units
}

/** Formats units of 10^-decimals as a decimal string with exactly `decimals` places. */
export function fromUnits(units: bigint, decimals: number): string {
  const digits = (units < 0n ? -units : units).toString().padStart(decimals + 1, "0")
  const point = digits.length - decimals
  return `${units < 0n ? "-" : ""}${digits.slice(0, point)}${decimals > 0 ? `.${digits.slice(point)}` : ""}`
}

/** The shortest plain decimal form of a finite number: String(value) without its exponent ("1e-7" → "0.0000001"). */
export function numberToDecimalString(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite amount: ${value}`)
  const text = String(value)
  // String() writes an exponent as one digit, maybe a fraction, then e+N or e-N
  const exponential = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text)
  if (!exponential) return text
  const [, sign, lead, rest = "", exponent] = exponential
  const digits = lead + rest
  const point = 1 + Number(exponent)
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`
  if (point >= digits.length) return sign + digits + "0".repeat(point - digits.length)
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
}

/** Divides a by b, rounding up (for amounts a customer must pay: never ask for less). */
export function divideRoundingUp(a: bigint, b: bigint): bigint {
  if (b <= 0n) throw new RangeError("division by a non-positive amount")
  return a / b + (a % b === 0n ? 0n : 1n)
}

/**
 * `units` × (1 + percent/100), rounded up (a re-quoted amount a customer must pay: never ask for less).
 * Exact: the percent is read through its shortest decimal form ("-2.5" → ×975/1000), never multiplied in floating point.
 */
export function scaleByPercent(units: bigint, percent: number): bigint {
  const text = numberToDecimalString(percent)
  const places = text.split(".")[1]?.length ?? 0
  const hundredPercent = 10n ** BigInt(places + 2)
  const factor = hundredPercent + toUnits(text, places)
  if (factor <= 0n) throw new RangeError(`a re-price of ${text}% leaves nothing to pay`)
  return divideRoundingUp(units * factor, hundredPercent)
}
