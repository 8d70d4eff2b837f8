import type { BalanceEntry } from "../../../../lib/crypto-api/schemas"

type Limit = { limit: number; used: number; remaining: number; resetAt?: string }

const limitView = (limit: Limit) => ({
  limit: limit.limit,
  used: limit.used,
  remaining: limit.remaining,
  reset_at: limit.resetAt ?? null,
})

export function balanceView(currency: string, entry: BalanceEntry) {
  const limits = entry.limits as { daily: Limit; monthly: Limit }
  return {
    currency,
    available: entry.availableBalance,
    pending: entry.pendingBalance,
    total_earned: entry.totalEarned,
    total_withdrawn: entry.totalWithdrawn,
    limits: { daily: limitView(limits.daily), monthly: limitView(limits.monthly) },
  }
}
