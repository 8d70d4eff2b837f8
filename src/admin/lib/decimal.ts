/**
 * Exact arithmetic on decimal amounts ("0.00123", or a number the API sent), through BigInt, so the
 * dashboard never shows a float artefact such as 0.30000000000000004 for money.
 */

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/

/** `digits` × 10^-scale. */
type Scaled = { digits: bigint; scale: number }

/** Plain decimal text of a value, or null for anything else (exponents, "", NaN). */
function decimalText(value: string | number): string | null {
  if (typeof value === "string") return value.trim()
  if (!Number.isFinite(value)) return null
  const text = String(value)
  // JSON numbers below 1e-6 print with an exponent; money amounts never need more than 20 places
  return /e/i.test(text) ? value.toFixed(20) : text
}

function parse(value: string | number): Scaled | null {
  const text = decimalText(value)
  const match = text === null ? null : DECIMAL.exec(text)
  if (!match) return null
  const [, sign, whole, fraction = ""] = match
  const digits = BigInt(whole + fraction)
  return { digits: sign ? -digits : digits, scale: fraction.length }
}

function aligned(a: Scaled, b: Scaled): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale)
  return [a.digits * 10n ** BigInt(scale - a.scale), b.digits * 10n ** BigInt(scale - b.scale), scale]
}

/** Decimal text of digits × 10^-scale, without trailing zeros in the fraction: "0.00030" → "0.0003". */
function format(digits: bigint, scale: number): string {
  const negative = digits < 0n
  const text = (negative ? -digits : digits).toString().padStart(scale + 1, "0")
  const whole = text.slice(0, text.length - scale)
  const fraction = text.slice(text.length - scale).replace(/0+$/, "")
  const out = fraction ? `${whole}.${fraction}` : whole
  return negative && out !== "0" ? `-${out}` : out
}

/** `a − b`, exactly; null when either is not a plain decimal amount. */
export function subtractDecimals(a: string | number, b: string | number): string | null {
  const x = parse(a)
  const y = parse(b)
  if (!x || !y) return null
  const [left, right, scale] = aligned(x, y)
  return format(left - right, scale)
}

/** -1, 0 or 1 as `a` is below, equal to or above `b`; null when either is not a plain decimal amount. */
export function compareDecimals(a: string | number, b: string | number): -1 | 0 | 1 | null {
  const x = parse(a)
  const y = parse(b)
  if (!x || !y) return null
  const [left, right] = aligned(x, y)
  return left < right ? -1 : left > right ? 1 : 0
}

/**
 * At least `places` decimals ("25.5" → "25.50" at 2), trailing zeros beyond them dropped ("5000.00" →
 * "5000" at 0); a digit that is not a zero is never rounded away.
 */
export function withPlaces(value: string | number, places: number): string | null {
  const x = parse(value)
  if (!x) return null
  const text = format(x.digits, x.scale)
  const [whole, fraction = ""] = text.split(".")
  return places > 0 || fraction ? `${whole}.${fraction.padEnd(places, "0")}` : whole
}

/**
 * Rounded half-up to `digits` significant digits, exactly, without trailing zeros ("0.00644329896907216495"
 * → "0.0064433" at 5). Digits before the point are never rounded away.
 */
export function toSignificant(value: string | number, digits: number): string | null {
  const x = parse(value)
  if (!x) return null
  const magnitude = x.digits < 0n ? -x.digits : x.digits
  const drop = Math.min(x.scale, magnitude.toString().length - digits)
  if (magnitude === 0n || drop <= 0) return format(x.digits, x.scale)
  const unit = 10n ** BigInt(drop)
  const rounded = ((magnitude + unit / 2n) / unit) * (x.digits < 0n ? -1n : 1n)
  return format(rounded, x.scale - drop)
}
