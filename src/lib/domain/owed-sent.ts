import { isCoin } from "../crypto-api/constants"
import { plainDecimal } from "./decimal"
import { sendableCoins } from "./money"
import { payoutUnderway } from "./checkout-payment"

/**
 * An admin's "sent" marks exactly what the admin saw: the records they named, each with the coins it
 * showed, never a record written after they read the page nor one whose coins changed since. A record
 * with a customer's address is sent only once its payout froze the address, so the coins went where the
 * admin saw.
 */

/** One owed record as the admin saw it: its id and its coins (null: none were worked out yet). */
export type SeenOwed = { id: string; coin_amount: string | null }

export type SentClaim = { owed: SeenOwed[] }

export type SentCandidate = {
  id: string
  coin: string | null
  coin_amount: string | null
  sent_at: Date | string | null
  refund_address?: string | null
  payout_started_at?: Date | string | null
}

export type SentChoice<R> = { records: R[] } | { conflict: string } | { refused: string }

/**
 * The records `claim` marks sent among a payment's `records` (open or sent; withdrawn ones are not among
 * them): a conflict naming every record no longer open or whose coins differ from what the admin saw.
 */
export function recordsSent<R extends SentCandidate>(records: R[], claim: SentClaim): SentChoice<R> {
  const chosen: R[] = []
  const changed: string[] = []
  for (const seen of claim.owed) {
    if (chosen.some((r) => r.id === seen.id)) continue
    const record = records.find((r) => r.id === seen.id)
    if (!record || record.sent_at) {
      changed.push(`${seen.id} is no longer owed (sent or withdrawn meanwhile)`)
    } else if (!sameCoins(record.coin_amount, seen.coin_amount) && !sendableFigure(record, seen.coin_amount)) {
      const now =
        record.coin_amount === null ? "has no coin amount now" : `is now ${coinsText(record.coin_amount, record.coin)}`
      changed.push(
        `${seen.id} ${now} (you saw ${seen.coin_amount === null ? "none" : coinsText(seen.coin_amount, record.coin)})`
      )
    } else {
      chosen.push(record)
    }
  }
  if (changed.length)
    return {
      conflict: `The amount owed changed since you read it: ${changed.join("; ")}. Reload the payment and mark sent what it shows now.`,
    }
  if (!chosen.length) return { refused: "Name the owed records you sent." }
  if (chosen.some((r) => r.refund_address && !payoutUnderway(r)))
    return {
      refused:
        "The customer gave a refund address for these coins: start the payout first, so the address is frozen, then mark them sent.",
    }
  return { records: chosen }
}

/**
 * The same coins, exactly: "0.10" and "0.1" agree, "0.1000000001" and "0.1" do not (nothing is rounded on
 * either side); null (no coins worked out) agrees only with null.
 */
export function sameCoins(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b
  const left = canonicalCoins(a)
  return left !== undefined && left === canonicalCoins(b)
}

/**
 * The coins the admin was shown to send for the record: its exact coins rounded down to what a wallet sends
 * (money.ts, sendableCoins). The record is sent in full with them; the sub-unit rest is never owed.
 */
function sendableFigure(record: Pick<SentCandidate, "coin" | "coin_amount">, seen: string | null): boolean {
  if (record.coin_amount === null || seen === null || !isCoin(record.coin)) return false
  return sameCoins(sendableCoins(record.coin_amount, record.coin), seen)
}

/** Decimal text without leading or trailing zeros ("007.50" → "7.5"); undefined when it is not a plain decimal. */
function canonicalCoins(text: string): string | undefined {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(plainDecimal(text.trim()))
  if (!match) return undefined
  const whole = match[1].replace(/^0+(?=\d)/, "")
  const fraction = (match[2] ?? "").replace(/0+$/, "")
  return fraction ? `${whole}.${fraction}` : whole
}

const coinsText = (coins: string, coin: string | null) => `${coins}${coin ? ` ${coin}` : ""}`
