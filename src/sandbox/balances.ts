import {
  Coin,
  COIN_DECIMALS,
  coinDecimals,
  NATIVE_COIN_DECIMALS,
  REQUIRED_CONFIRMATIONS,
  WITHDRAWAL_LIMITS,
} from "./spec-facts"
import { fromUnits } from "./decimal"
import type { BookEntry } from "./book-entry"

/** Balance entry of one coin, derived from the records' transactions; null when the coin never saw activity. */
export function balanceEntry(
  records: Iterable<BookEntry>,
  coin: Coin,
  withResetAt: boolean,
  clock: () => Date
): Record<string, unknown> | null {
  // records keep the precision they were created at: their units are summed at the finer of the two
  const decimals = Math.max(COIN_DECIMALS[coin], NATIVE_COIN_DECIMALS[coin])
  const required = REQUIRED_CONFIRMATIONS[coin]
  let pending = 0n
  let available = 0n
  let activity = false
  for (const record of records) {
    if (record.coin !== coin) continue
    const scale = 10n ** BigInt(decimals - coinDecimals(coin, record.precision))
    for (const tx of record.transactions) {
      activity = true
      if (record.status === "FAILED") continue
      if (tx.confirmations >= required) available += tx.units * scale
      else pending += tx.units * scale
    }
  }
  if (!activity && !withResetAt) return null
  const now = clock()
  const limit = (kind: "daily" | "monthly") => {
    const entry: Record<string, unknown> = {
      limit: WITHDRAWAL_LIMITS[coin][kind],
      used: 0,
      remaining: WITHDRAWAL_LIMITS[coin][kind],
    }
    if (withResetAt) entry.resetAt = kind === "daily" ? nextUtcMidnight(now) : nextMonthStart(now)
    return entry
  }
  return {
    availableBalance: Number(fromUnits(available, decimals)),
    totalEarned: Number(fromUnits(available, decimals)),
    totalWithdrawn: 0,
    pendingBalance: Number(fromUnits(pending, decimals)),
    limits: { daily: limit("daily"), monthly: limit("monthly") },
  }
}

function nextUtcMidnight(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString()
}

function nextMonthStart(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString()
}
