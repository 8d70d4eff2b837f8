import { isCoin } from "../crypto-api/constants"
import { coinUnits } from "./money"
import { sumCoins } from "./owed"
import { payoutUnderway } from "./checkout-payment"

/**
 * An admin's "sent" marks exactly what the admin saw, never a record written after they read it. A
 * record with a customer's address is sent only once its payout froze the address, so the coins went
 * where the admin saw.
 */

export type SentClaim = { owed_ids?: string[]; total?: string; as_of?: string }

export type SentCandidate = {
  id: string
  coin: string | null
  coin_amount: string | null
  created_at: Date | string
  sent_at: Date | string | null
  refund_address?: string | null
  payout_started_at?: Date | string | null
}

export type SentChoice<R> = { records: R[]; deprecated?: true } | { conflict: string } | { refused: string }

/** The records `claim` marks sent among a payment's `records` (open or sent; withdrawn ones are not among them). */
export function recordsSent<R extends SentCandidate>(records: R[], claim: SentClaim): SentChoice<R> {
  const open = records.filter((r) => !r.sent_at)
  if (!open.length && !claim.owed_ids) return { refused: "Nothing is owed to the customer for this crypto payment." }
  const chosen = choose(records, open, claim)
  if (!("records" in chosen)) return chosen
  const unfrozen = chosen.records.find((r) => r.refund_address && !payoutUnderway(r))
  if (unfrozen)
    return {
      refused:
        "The customer gave a refund address for these coins: start the payout first, so the address is frozen, then mark them sent.",
    }
  return chosen
}

function choose<R extends SentCandidate>(records: R[], open: R[], claim: SentClaim): SentChoice<R> {
  if (claim.owed_ids) {
    const named = [...new Set(claim.owed_ids)].map((id) => records.find((r) => r.id === id))
    if (named.some((r) => !r || r.sent_at))
      return {
        conflict: "What is owed changed since you loaded it (a record was sent or withdrawn meanwhile): look again.",
      }
    return { records: named as R[] }
  }
  if (claim.total !== undefined && claim.as_of !== undefined) {
    const asOf = Date.parse(claim.as_of)
    const seen = open.filter((r) => new Date(r.created_at).getTime() <= asOf)
    const coin = seen.find((r) => isCoin(r.coin))?.coin
    const matches =
      seen.length > 0 &&
      isCoin(coin) &&
      seen.every((r) => r.coin === coin && r.coin_amount !== null) &&
      coinUnits(
        sumCoins(
          coin,
          seen.map((r) => r.coin_amount)
        ),
        coin
      ) === coinUnits(claim.total, coin)
    if (!matches)
      return {
        conflict: `What was owed at ${claim.as_of} is no longer ${claim.total} ${coin ?? ""}`.trim() + ": look again.",
      }
    return { records: seen }
  }
  // the body before owed_ids (deprecated): safe only while one record is open, the one the admin saw
  if (open.length === 1) return { records: open, deprecated: true }
  return {
    conflict:
      "More than one amount is owed to the customer: name the records you sent (owed_ids), as the admin's Mark sent does.",
  }
}
