/**
 * Guards against a bad rates file: a currency whose USD value jumps too far from the stored
 * publication is held back, and a held file is only taken once a later fetch agrees with it.
 */
import { exceedsPercent, movedPercent, ratioFixed, Ratio, usdPerUnit } from "./conversion"
import type { RatePublication } from "./ecb-file"

/** Percent a currency's USD value may move between two publications before the new one is held. */
export const JUMP_LIMIT_PERCENT = 20

/**
 * Currencies (in both files, and EUR) whose USD per unit moved strictly more than `limitPercent`.
 * Throws RangeError when either file lacks USD, since nothing can then be compared.
 */
export function jumps(
  stored: Pick<RatePublication, "rates">,
  fetched: Pick<RatePublication, "rates">,
  limitPercent: number = JUMP_LIMIT_PERCENT
): Array<{ currency: string; percent: string }> {
  const found: Array<{ currency: string; percent: string }> = []
  for (const currency of sharedCurrencies(stored, fetched)) {
    const { before, after } = usdValues(stored, fetched, currency)
    const moved = movedPercent(before, after)
    if (exceedsPercent(moved, limitPercent)) {
      found.push({ currency, percent: ratioFixed(moved, 1) })
    }
  }
  return found
}

/**
 * True when both files list the same currencies (and USD) and each one's USD per unit, and
 * EUR's, differ by at most `tolerancePercent` of the smaller value, so the check is symmetric.
 */
export function agrees(
  a: Pick<RatePublication, "rates">,
  b: Pick<RatePublication, "rates">,
  tolerancePercent = 2
): boolean {
  const codesA = Object.keys(a.rates)
  const codesB = new Set(Object.keys(b.rates))
  // A currency only one file has cannot be confirmed by the other.
  if (codesA.length !== codesB.size || !codesA.every((code) => codesB.has(code)) || !codesB.has("USD")) {
    return false
  }
  for (const currency of sharedCurrencies(a, b)) {
    const { before, after } = usdValues(a, b, currency)
    const smaller = before.num * after.den <= after.num * before.den ? before : after
    const larger = smaller === before ? after : before
    if (exceedsPercent(movedPercent(smaller, larger), tolerancePercent)) return false
  }
  return true
}

/** EUR, then every currency both files list, in alphabetical order. */
function sharedCurrencies(a: Pick<RatePublication, "rates">, b: Pick<RatePublication, "rates">): string[] {
  const inB = new Set(Object.keys(b.rates))
  return [
    "EUR",
    ...Object.keys(a.rates)
      .filter((code) => inB.has(code) && code !== "EUR")
      .sort(),
  ]
}

function usdValues(
  a: Pick<RatePublication, "rates">,
  b: Pick<RatePublication, "rates">,
  currency: string
): { before: Ratio; after: Ratio } {
  const before = usdPerUnit(a, currency)
  const after = usdPerUnit(b, currency)
  if (!before || !after) {
    throw new RangeError("both rate files must have a USD rate")
  }
  return { before, after }
}
