import { Coin, isCoin } from "../crypto-api/constants"
import { coinUnits } from "./money"
import { baseFor, coinsBeyond, isZero, PaymentRate, rateOf, sumCoins } from "./owed"

/**
 * A checkout's payment (docs/money.md): its first payment and every remainder whose chain leads to it.
 * Whatever prices, caps or nets an owed amount reads the checkout's money here, once.
 */

export type CheckoutMember = {
  payment_id: string
  remainder_of?: string | null
  status: string
  settled: boolean
  coin: string | null
  required_amount: string | null
  crypto_amount: string | null
  received_amount: string | null
  base_amount: string
  base_currency: string
  created_at: Date | string
  /** The last status read kept in the ledger (`{ record, readAt }`), which may be newer than the recorded amounts. */
  last_read?: unknown
}

export type CheckoutOwedRecord = {
  id: string
  payment_id: string
  kind: string
  /** Unique per payment (a refund's is Medusa's refund id). */
  key?: string
  coin_amount: string | null
  /** In the first payment's store currency (a refund's: what Medusa refunded). */
  base_amount?: string
  sent_at?: Date | string | null
  payout_started_at?: Date | string | null
}

export type CheckoutPayment<
  M extends CheckoutMember = CheckoutMember,
  R extends CheckoutOwedRecord = CheckoutOwedRecord,
> = {
  /** The first payment: it owns the checkout's refunds and its rate. */
  first: M
  /** Every other payment of the checkout (its remainders, at any depth), oldest first. */
  remainders: M[]
  records: R[]
  coin?: Coin
  /** Coins per store unit: the first payment's required coins for its store amount. */
  rate?: PaymentRate
  /** What arrived on all its payments, in the first payment's coin (undefined while no coin is known or none was read). */
  received?: string
  /** The coins of the refunds Medusa recorded (on whichever of its payments). */
  refunded?: string
}

/** The payment a chain of `remainder_of` leads to from `paymentId`, among `rows` (itself when it leads nowhere). */
export function firstPaymentIdOf(rows: Array<Pick<CheckoutMember, "payment_id" | "remainder_of">>, paymentId: string) {
  const byId = new Map(rows.map((row) => [row.payment_id, row]))
  const seen = new Set<string>()
  let id = paymentId
  while (!seen.has(id)) {
    seen.add(id)
    const parent = byId.get(id)?.remainder_of
    if (!parent || !byId.has(parent)) return id
    id = parent
  }
  return id
}

/** The payments `paymentId`'s `remainder_of` chain passes through, nearest first, up to the first payment. */
export function earlierIdsOf(rows: Array<Pick<CheckoutMember, "payment_id" | "remainder_of">>, paymentId: string) {
  const earlier: string[] = []
  let id = rows.find((row) => row.payment_id === paymentId)?.remainder_of
  while (id && !earlier.includes(id) && id !== paymentId) {
    earlier.push(id)
    id = rows.find((row) => row.payment_id === id)?.remainder_of
  }
  return earlier
}

/** The payments whose `remainder_of` chain leads to `paymentId` (its remainders, at any depth). */
export function remainderIdsOf(rows: Array<Pick<CheckoutMember, "payment_id" | "remainder_of">>, paymentId: string) {
  const found = new Set<string>()
  for (let grew = true; grew;) {
    grew = false
    for (const row of rows)
      if (
        row.remainder_of &&
        (row.remainder_of === paymentId || found.has(row.remainder_of)) &&
        row.payment_id !== paymentId &&
        !found.has(row.payment_id)
      ) {
        found.add(row.payment_id)
        grew = true
      }
  }
  return [...found]
}

/**
 * The checkout's payment that `paymentId` belongs to, from its rows (the first payment and its
 * remainders; other rows are left out) and their owed records. Undefined when `paymentId` is not among them.
 */
export function checkoutPaymentOf<M extends CheckoutMember, R extends CheckoutOwedRecord>(
  rows: M[],
  records: R[],
  paymentId: string
): CheckoutPayment<M, R> | undefined {
  const firstId = firstPaymentIdOf(rows, paymentId)
  const first = rows.find((row) => row.payment_id === firstId)
  if (!first) return undefined
  const members = new Set([firstId, ...remainderIdsOf(rows, firstId)])
  const remainders = rows
    .filter((row) => row.payment_id !== firstId && members.has(row.payment_id))
    .sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime())
  const own = records.filter((r) => members.has(r.payment_id))
  const rate = rateOf(first)
  const coin = rate?.coin ?? (isCoin(first.coin) ? first.coin : undefined)
  return {
    first,
    remainders,
    records: own,
    ...(coin ? { coin } : {}),
    ...(rate ? { rate } : {}),
    ...(coin && [first, ...remainders].some((row) => arrivedOn(row, coin) !== null)
      ? {
          received: sumCoins(
            coin,
            [first, ...remainders].map((row) => arrivedOn(row, coin))
          ),
        }
      : {}),
    ...(coin
      ? {
          refunded: sumCoins(
            coin,
            own.filter((r) => r.kind === "refund").map((r) => r.coin_amount)
          ),
        }
      : {}),
  }
}

/**
 * What arrived on one payment: the greater of what its record says and what its last kept read found (a read
 * whose record never ran — a run cut, a checkout's own read — is newer; coins never leave a watched address).
 */
function arrivedOn(row: CheckoutMember, coin: Coin): string | null {
  const kept = (row.last_read as { record?: { currentBalance?: unknown; currency?: unknown } } | null | undefined)
    ?.record
  const keptBalance =
    kept &&
    typeof kept.currentBalance === "string" &&
    (kept.currency ?? coin) === coin &&
    isDecimal(kept.currentBalance)
      ? kept.currentBalance
      : null
  if (keptBalance === null) return row.received_amount
  if (row.received_amount === null) return keptBalance
  return coinUnits(keptBalance, coin) > coinUnits(row.received_amount, coin) ? keptBalance : row.received_amount
}

const isDecimal = (text: string) => /^\d{1,30}(\.\d{1,30})?$/.test(text)

/**
 * The most an owed record may send back: what arrived on the checkout's payments less what its other
 * records owe or sent (a record whose coins are unknown counts none). Undefined while no coin is known.
 */
export function owedCapOf(checkout: CheckoutPayment, exceptRecordId?: string): string | undefined {
  if (!checkout.coin || checkout.received === undefined) return undefined
  const others = checkout.records.filter((r) => r.id !== exceptRecordId).map((r) => r.coin_amount)
  return coinsBeyond(checkout.coin, checkout.received, sumCoins(checkout.coin, others))
}

/** The key prefix of the claim a capture that made no order owes: a remainder's completion never withdraws it. */
export const NO_ORDER_KEY = "no_order"

/** The record of a capture that made no order (every coin of the checkout, owed back). */
export const isNoOrderClaim = (record: { key?: string | null }) => !!record.key?.startsWith(NO_ORDER_KEY)

/** Coins that are leaving or left: sent, or a payout the admin started (its address frozen). */
export const payoutUnderway = (record: { sent_at?: unknown; payout_started_at?: unknown }) =>
  !!record.sent_at || !!record.payout_started_at

/** A late record of the checkout whose coins are leaving or left: no remainder may complete it any more. */
export const lateUnderway = (checkout: Pick<CheckoutPayment, "records">) =>
  checkout.records.some((r) => r.kind === "late" && payoutUnderway(r))

/**
 * A remainder that may yet pay its checkout: still open at the service, or COMPLETED there and not settled
 * by the shop yet (its capture waits for confirmations, or for its read).
 */
export const openRemainderOf = (checkout: Pick<CheckoutPayment, "remainders">) =>
  checkout.remainders.find((r) => (r.status === "PENDING" || r.status === "COMPLETED") && !r.settled)

/** What a fresh read of the payment being remaindered says (its assessment's parts the ask needs). */
export type RemainderRead = {
  coin?: Coin
  /** A first payment's own; a remainder judged with its earlier payments: the first payment's. */
  required?: string
  /** Its own; judged with its earlier payments (`own` set): theirs and its own, summed. */
  received: string
  own?: { received: string }
}

/** A remainder's terms: the first payment's rate, what arrived on the whole checkout, the coins asked and their store amount. */
export type RemainderAsk = { rate: PaymentRate; received: string; shortfall: string; baseAmount: string }

/**
 * What the remainder of `paymentId` (any payment of the checkout, a remainder of a remainder too) asks
 * (docs/money.md): the first payment's required coins less what arrived on the whole checkout, priced at
 * the first payment's rate (its required coins ÷ its store amount), whatever the payment itself asked.
 * `read` is that payment's fresh read (with its earlier payments when it was judged with them); every
 * other payment counts what the ledger holds. Undefined when nothing is short or no rate is known.
 */
export function remainderAskOf(
  checkout: Pick<CheckoutPayment, "first" | "remainders">,
  paymentId: string,
  read: RemainderRead
): RemainderAsk | undefined {
  const { first } = checkout
  const members = [first, ...checkout.remainders]
  if (!read.coin || !members.some((m) => m.payment_id === paymentId)) return undefined
  const isFirst = first.payment_id === paymentId
  // the first payment's coins: as read now when the read covered it, else as the ledger holds them
  const required = isFirst || read.own ? read.required : (first.required_amount ?? first.crypto_amount)
  const rate = required ? rateOf({ ...first, coin: read.coin, required_amount: required }) : undefined
  if (!rate) return undefined
  const readIds = new Set(isFirst || !read.own ? [paymentId] : [paymentId, ...earlierIdsOf(members, paymentId)])
  const received = sumCoins(rate.coin, [
    read.received,
    ...members.filter((m) => !readIds.has(m.payment_id)).map((m) => m.received_amount),
  ])
  const shortfall = coinsBeyond(rate.coin, rate.required, received)
  if (isZero(shortfall)) return undefined
  return { rate, received, shortfall, baseAmount: baseFor(rate, shortfall) }
}
