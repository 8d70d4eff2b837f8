import { coinsBeyond, isZero, PaymentRate, sumCoins } from "./owed"
import { sendableCoinsOf } from "./money"
import type { OwedByRead } from "./decision-terms"
import { PaymentRead, receivedOf } from "./payment-read"

/** What a read owes the customer, on which of the checkout's payments, and which earlier payments it completes. */

/** Money owed that this read writes as an owed record (the module keeps only the part not recorded yet). */
export type OwedToRecord = {
  /** The payment it is owed on: a remainder's pair excess is owed on its first payment. */
  paymentId: string
  owed: OwedByRead
  rate: PaymentRate
  /** What was received when it was seen (the record's key). */
  received: string
}

export type OwedRecordWritten = {
  kind: string
  coin: string | null
  coin_amount: string | null
  base_amount: string
  base_currency: string
}

/**
 * What the checkout's payments sent beyond the amount is one total, owed on its first payment; so is
 * every coin of a capture that made no order, less the refunds Medusa's compensation recorded there.
 */
function owedClaim({ read, row, terms }: PaymentRead) {
  const { assessment: a, decision } = read
  const inCheckout = !!row.remainder_of
  const owed: OwedByRead | undefined =
    read.no_order && !isZero(a.received)
      ? { kind: "late", coins: a.received, noOrder: true, ...(inCheckout ? { pair: true as const } : {}) }
      : decision.owed
  const owner = owed?.pair && inCheckout ? terms.payment_id : row.payment_id
  const lessRefunds = owed?.kind === "late" && !!a.coin && (!!read.no_order || row.captured_no_order)
  return { owner, owed, lessRefunds }
}

/** Whether the refunds Medusa recorded on the checkout count against what this read owes (read them first). */
export function refundsCount(payment: PaymentRead): boolean {
  return owedClaim(payment).lessRefunds
}

/**
 * The owed record this read writes, if any. `recorded`: the owed records of the checkout's payments
 * (their refunds are taken off a capture that made no order, when refundsCount says so).
 */
export function owedToRecord(
  payment: PaymentRead,
  recorded: Array<{ kind: string; coin_amount: string | null }> = []
): OwedToRecord | undefined {
  const { read, row, terms } = payment
  const a = read.assessment
  const claim = owedClaim(payment)
  let owed = claim.owed
  if (owed && claim.lessRefunds && a.coin) {
    const refunds = recorded.filter((r) => r.kind === "refund").map((r) => r.coin_amount)
    const beyond = coinsBeyond(a.coin, owed.coins, sumCoins(a.coin, refunds))
    owed = isZero(beyond) ? undefined : { ...owed, coins: beyond }
  }
  // the checkout's rate: a remainder's coins at its first payment's required coins for its store amount
  const required = row.remainder_of ? (terms.required_amount ?? a.required) : a.required
  if (!owed || !a.coin || !required) return undefined
  return {
    paymentId: claim.owner,
    owed,
    rate: { coin: a.coin, required, baseAmount: terms.base_amount, baseCurrency: terms.base_currency },
    received: owed.pair ? a.received : receivedOf(a),
  }
}

/**
 * The checkout's payments a read completes: once a remainder's capture stands, the earlier payments it
 * finishes are no longer owed back as late, whichever is read first; a first payment read after its
 * remainder completed it, itself.
 */
export function completedBy(
  payment: PaymentRead,
  earlierIds: string[]
): { paymentIds: string[]; remainderId?: string } | undefined {
  const { read, row } = payment
  if (!read.decision.completesFirst) return undefined
  return row.remainder_of ? { paymentIds: earlierIds, remainderId: row.payment_id } : { paymentIds: [row.payment_id] }
}

/** What the timeline and the shop's log say of an owed record this read wrote. */
export function owedNoteOf(record: OwedRecordWritten | undefined): string | undefined {
  return record
    ? `Owed to the customer: ${sendableCoinsOf(record.coin, record.coin_amount)} ${record.coin} (≈ ${record.base_amount} ${record.base_currency}, ${record.kind === "late" ? "a late payment" : "beyond what the order took"}). Send it from the service's dashboard, then mark it sent.`
    : undefined
}
