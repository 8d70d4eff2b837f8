/**
 * Exact decimal amounts as integers of a coin's smallest unit (BigInt), so that no money
 * is ever computed in floating point.
 */

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/

/**
 * How digits beyond a precision are dropped: "half-up" for amounts the shop sends (a cart total),
 * "down" for money received (never count a fraction that did not arrive), "up" for money required
 * (never ask for less than the service does).
 */
export type Rounding = "half-up" | "down" | "up"

/** Parses "12.345" (or a finite number, read through its shortest decimal form) into units of 10^-decimals, rounded as asked beyond `decimals`. */
export function toUnits(value: string | number, decimals: number, rounding: Rounding = "half-up"): bigint {
  const text = typeof value === "number" ? numberToDecimalString(value) : value.trim()
  const match = DECIMAL.exec(text)
  if (!match) {
    throw new RangeError(`not a decimal amount: ${JSON.stringify(text)}`)
  }
  const [, sign, whole, fraction = ""] = match
  const kept = fraction.slice(0, decimals).padEnd(decimals, "0")
  let units = BigInt(whole) * 10n ** BigInt(decimals) + BigInt(kept || "0")
  const dropped = fraction.slice(decimals)
  const roundsAway =
    rounding === "half-up" ? Number(dropped.charAt(0) || "0") >= 5 : rounding === "up" && /[1-9]/.test(dropped)
  if (roundsAway) {
    units += 1n
  }
  return sign ? -units : units
}

/** Formats units of 10^-decimals as a decimal string with exactly `decimals` places. */
export function fromUnits(units: bigint, decimals: number): string {
  const negative = units < 0n
  const abs = negative ? -units : units
  const scale = 10n ** BigInt(decimals)
  const whole = abs / scale
  const fraction = (abs % scale).toString().padStart(decimals, "0")
  return `${negative ? "-" : ""}${whole}${decimals > 0 ? `.${fraction}` : ""}`
}

export function numberToDecimalString(value: number): string {
  if (!Number.isFinite(value)) {
    throw new RangeError(`not a finite amount: ${value}`)
  }
  return plainDecimal(String(value))
}

/**
 * Decimal text without an exponent, every digit kept: "1e-7" → "0.0000001", "3.25E2" → "325",
 * "1e21" → "1000000000000000000000". Text that is not in exponent form is returned as it is.
 */
export function plainDecimal(text: string): string {
  const match = /^(-?)(\d+)(?:\.(\d*))?[eE]([+-]?\d+)$/.exec(text)
  if (!match) return text
  const [, sign, intPart, fracPart = "", exponentText] = match
  const exponent = Number(exponentText)
  const digits = intPart + fracPart
  const point = intPart.length + exponent
  let out: string
  if (point <= 0) {
    out = `0.${"0".repeat(-point)}${digits}`
  } else if (point >= digits.length) {
    out = digits + "0".repeat(point - digits.length)
  } else {
    out = `${digits.slice(0, point)}.${digits.slice(point)}`
  }
  return `${sign}${out.replace(/^0+(?=\d)/, "")}`
}

/** Divides a by b, rounding up (for amounts a customer must pay: never ask for less). */
export function divideRoundingUp(a: bigint, b: bigint): bigint {
  if (b <= 0n) {
    throw new RangeError("division by a non-positive amount")
  }
  const quotient = a / b
  return a % b === 0n ? quotient : quotient + 1n
}

export function normaliseDecimal(value: string | number, decimals: number): string {
  return fromUnits(toUnits(value, decimals), decimals)
}
