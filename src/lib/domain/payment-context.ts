import { isCoin } from "../crypto-api/constants"
import { coinUnits, coversAmount, storeAmount, storeDecimals } from "./money"
import { toUnits } from "./decimal"
import type { StoreSideState } from "./decision-terms"
import { earlierIdsOf, isNoOrderClaim, payoutUnderway, remainderIdsOf } from "./checkout-payment"
import { sumCoins } from "./owed"

/**
 * Where the Medusa side of one ledger payment stands, worked out from what the load step read. The
 * decision reads the ledger and Medusa, never session data a storefront could write.
 */

/** A Medusa payment session, as the close step needs it to write it back. */
export type SessionSnapshot = {
  id: string
  status: string
  amount: number
  currency_code: string
  data: Record<string, unknown>
}

/** A session of the payment collection, as read (its amount as Medusa gives it, its Medusa payment if any). */
export type CollectionSession = {
  id: string
  status: string
  amount: unknown
  currency_code: string
  data?: Record<string, unknown> | null
  created_at: string | Date
  payment?: { id: string; captured_at?: unknown; canceled_at?: unknown } | null
}

export type SiblingPayment = {
  payment_id: string
  session_id: string
  capture_session_id: string | null
  remainder_of?: string | null
  status: string
  settled: boolean
  coin: string | null
  received_amount: string | null
  required_amount: string | null
  base_amount: string
  base_currency: string
}

export type ContextPayment = SiblingPayment & {
  payment_collection_id: string | null
  expires_at: Date | string | null
  watch_until: Date | string | null
  captured_no_order: boolean
}

/**
 * A Medusa payment of the collection, whatever became of its session (Medusa's completion-failure
 * compensation deletes the session it refunds): what was captured is read here, not from the sessions.
 */
export type CollectionPayment = {
  id: string
  payment_session_id: string
  captured_at?: unknown
  canceled_at?: unknown
  /** Its amount and its refunds, in the collection's currency: a capture refunded in full pays nothing. */
  amount?: unknown
  refunds?: Array<{ amount: unknown }> | null
}

export type PaymentReading = {
  payment: ContextPayment
  /**
   * A remainder's checkout: its first payment (whose terms price every payment of the checkout,
   * required_amount its coins for the store amount), when it has one.
   */
  first?: { payment_id: string; base_amount: string; base_currency: string; required_amount?: string | null }
  collection?: {
    amount: number
    currency_code: string
    sessions: CollectionSession[]
    /** Every Medusa payment of the collection (those of deleted sessions too); absent when not read. */
    payments?: CollectionPayment[]
  }
  order?: { id: string; status: string; payment_collections?: Array<{ id: string; status: string }> }
  /** The collection belongs to a cart (a checkout's); one Medusa created on an existing order has none. */
  inCart: boolean
  /** That cart, which a capture without an order completes. */
  cartId?: string
  /** The ledger's payments for the collection, oldest first (itself alone without a collection). */
  siblings: SiblingPayment[]
  /** Owed records of the checkout's payments (the first payment and its remainders). */
  owed: Array<{ kind: string; payment_id: string; key?: string; sent_at?: unknown; payout_started_at?: unknown }>
}

/** What the load step hands the decision and the steps after it. */
export type CryptoPaymentContext = {
  payment: {
    payment_id: string
    status: string
    expires_at: string | null
    watch_until: string | null
    /** The session this payment was claimed for (claim step), if any. */
    capture_session_id: string | null
  }
  ownSession?: SessionSnapshot
  /** The session the money would pay (own, or the one that replaced it). */
  targetSession?: SessionSnapshot
  /** The checkout's cart, when the collection has one. */
  cartId?: string
  store: StoreSideState
}

const CLOSED = ["canceled", "error"]
/** Payment collection statuses that mean the money was taken. */
const PAID_COLLECTION = ["authorized", "partially_authorized", "partially_captured", "completed"]

type Session = Omit<CollectionSession, "amount" | "data"> & { amount: number; data: Record<string, unknown> }

function sessionsOf(reading: PaymentReading): Session[] {
  return (reading.collection?.sessions ?? []).map((s) => ({ ...s, amount: Number(s.amount), data: s.data ?? {} }))
}

/** Which ledger payment pays each session: the one that claimed it, else its newest. */
function payersOf(siblings: SiblingPayment[]) {
  const latestOf = new Map<string, string>()
  const claimOf = new Map<string, string>()
  for (const sibling of siblings) {
    latestOf.set(sibling.session_id, sibling.payment_id)
    if (sibling.capture_session_id) claimOf.set(sibling.capture_session_id, sibling.payment_id)
  }
  return {
    latestOf,
    claimOf,
    payerOf: (sessionId: string | undefined) =>
      sessionId ? (claimOf.get(sessionId) ?? latestOf.get(sessionId)) : undefined,
  }
}

/** Sessions whose Medusa payment is captured (a payment always belongs to one session). */
const capturedSessions = (sessions: Session[]) =>
  sessions.filter((s) => !!s.payment?.captured_at && !s.payment.canceled_at).map((s) => s.id)

function ownCaptureIn(reading: PaymentReading, sessions: Session[]) {
  const { payerOf } = payersOf(reading.siblings)
  const captured = capturedSessions(sessions)
  return sessions.find((s) => captured.includes(s.id) && payerOf(s.id) === reading.payment.payment_id)
}

/**
 * The captured Medusa payment this payment paid for, if any: the load step asks the order whether
 * it recorded that capture (a run can fail between Medusa's capture and the order's record).
 */
export function ownCaptureOf(reading: PaymentReading): { sessionId: string; paymentId: string } | undefined {
  const session = ownCaptureIn(reading, sessionsOf(reading))
  return session?.payment ? { sessionId: session.id, paymentId: session.payment.id } : undefined
}

function coversCollection(reading: PaymentReading, base: { base_amount: string; base_currency: string }): boolean {
  const { collection } = reading
  return (
    !!collection &&
    coversAmount(
      { amount: base.base_amount, currency: base.base_currency },
      { amount: collection.amount, currency: String(collection.currency_code) }
    )
  )
}

/**
 * Another payment of the collection (a replaced one) whose full amount is arriving, and which covers
 * what the collection asks: it may pay yet.
 */
function othersConfirmingIn(reading: PaymentReading): boolean {
  return reading.siblings.some(
    (s) =>
      s.payment_id !== reading.payment.payment_id &&
      s.status === "PENDING" &&
      !s.settled &&
      isCoin(s.coin) &&
      !!s.required_amount &&
      !!s.received_amount &&
      coinUnits(s.received_amount, s.coin) >= coinUnits(s.required_amount, s.coin) &&
      coversCollection(reading, s)
  )
}

/** The order took its money through another of its collections (paid before, or by another provider). */
function orderPaidElsewhereIn(reading: PaymentReading): boolean {
  return (reading.order?.payment_collections ?? []).some(
    (c) => c.id !== reading.payment.payment_collection_id && PAID_COLLECTION.includes(c.status)
  )
}

/**
 * Its own coins, or those of an earlier payment of its checkout, are leaving as late money: a remainder
 * can no longer complete what is being refunded.
 */
function owedLateIn(reading: PaymentReading): boolean {
  const own = reading.payment.payment_id
  const earlier = [
    ...earlierIdsOf([reading.payment, ...reading.siblings], own),
    ...(reading.first ? [reading.first.payment_id] : []),
  ]
  return reading.owed.some(
    (r) => r.kind === "late" && (r.payment_id === own || (earlier.includes(r.payment_id) && payoutUnderway(r)))
  )
}

/**
 * "Captured, no order", from Medusa's state alone (never carried from the run that captured): a Medusa
 * payment of the collection captured with the coins of this payment's checkout (its session paid by the
 * first payment or one of its remainders), on a cart that has no order, or whose order does not hold it.
 * The ids are the checkout's.
 */
function capturedNoOrderIn(reading: PaymentReading, checkoutIds: string[], claimed: boolean): boolean {
  if (!reading.inCart || !capturedForCheckout(reading, checkoutIds)) return false
  // an order placed after a no-order claim is paid with the capture only while it stands and is the only one
  // that does: one Medusa's compensation refunded (refunds "manual") pays nothing, and an order another
  // attempt paid leaves the claim (a capture the order held and the admin refunded since is no claim)
  return !reading.order || (claimed && !paidWithCheckout(reading, checkoutIds))
}

/** The cart's order stands, paid with the checkout's capture: no other attempt's capture stands beside it. */
const paidWithCheckout = (reading: PaymentReading, checkoutIds: string[]) =>
  !!reading.order &&
  reading.order.status !== "canceled" &&
  standingCaptureOfCheckout(reading, checkoutIds) &&
  !capturedForOther(reading, checkoutIds)

/**
 * Who paid each captured, not canceled Medusa payment of the collection (those of deleted sessions too): the
 * ledger payment of its session ("" when none), and whether the capture stands (not refunded in full: what
 * Medusa counts as the collection's, and the order's, payment).
 */
function capturesOf(reading: PaymentReading): Array<{ payer: string; stands: boolean }> {
  const { payerOf } = payersOf(reading.siblings)
  const places = storeDecimals(String(reading.collection?.currency_code ?? "")) ?? 2
  const units = (amount: unknown) => toUnits(String(amount ?? 0), places)
  return (reading.collection?.payments ?? [])
    .filter((p) => !!p.captured_at && !p.canceled_at)
    .map((p) => ({
      payer: payerOf(p.payment_session_id) ?? "",
      stands:
        p.amount === undefined || (p.refunds ?? []).reduce((sum, r) => sum + units(r.amount), 0n) < units(p.amount),
    }))
}

/** A captured Medusa payment of the collection whose session a payment of the checkout paid. */
const capturedForCheckout = (reading: PaymentReading, checkoutIds: string[]) =>
  capturesOf(reading).some((c) => checkoutIds.includes(c.payer))

/**
 * The checkout's capture that Medusa counts as the collection's payment (not refunded in full): an order of
 * the cart is paid with it, whichever session the storefront completed the cart with.
 */
const standingCaptureOfCheckout = (reading: PaymentReading, checkoutIds: string[]) =>
  capturesOf(reading).some((c) => c.stands && checkoutIds.includes(c.payer))

/** Another checkout's standing capture on the collection (Medusa's cancel of the order would refund it). */
const capturedForOther = (reading: PaymentReading, checkoutIds: string[]) =>
  capturesOf(reading).some((c) => c.stands && !checkoutIds.includes(c.payer))

const snapshot = (s: Session | undefined): SessionSnapshot | undefined =>
  s && { id: s.id, status: s.status, amount: s.amount, currency_code: s.currency_code, data: s.data }

const isoOrNull = (at: Date | string | null) => (at ? new Date(at).toISOString() : null)

/** `captureUnrecorded`: the order holds no record of this payment's capture (see ownCaptureOf). */
export function paymentContextOf(
  reading: PaymentReading,
  { captureUnrecorded, now }: { captureUnrecorded: boolean; now: Date }
): CryptoPaymentContext {
  const { payment, order } = reading
  const sessions = sessionsOf(reading)
  const { latestOf, claimOf, payerOf } = payersOf(reading.siblings)
  const own = sessions.find((s) => s.id === payment.session_id)
  const current = !!own && latestOf.get(payment.session_id) === payment.payment_id
  const openCrypto = sessions
    .filter((s) => latestOf.has(s.id) && !CLOSED.includes(s.status))
    .sort((a, b) => new Date(b.created_at).getTime() - new Date(a.created_at).getTime())[0]
  const target = current ? own : openCrypto
  const captured = capturedSessions(sessions)
  const targetClaim = target ? claimOf.get(target.id) : undefined
  const remainderIds = remainderIdsOf(reading.siblings, payment.payment_id)
  const remainders = reading.siblings.filter((s) => remainderIds.includes(s.payment_id))
  const remainderCoins = remainders.map((r) => r.received_amount).filter((r): r is string => !!r)
  const ownCapture = ownCaptureIn(reading, sessions)
  // a remainder is priced at its first payment's rate: what the session asked, and the coins for it
  const terms = reading.first ?? payment
  // amounts at the store currency's precision (a BTC cart compares satoshis, not cents; JPY yen)
  const baseCurrency = terms.base_currency.trim().toUpperCase()
  const places = storeDecimals(baseCurrency)
  // the session this payment's coins pay: the one it claimed, else the one it would capture
  const paid = sessions.find((s) => s.id === payment.capture_session_id) ?? target
  const owedLate = owedLateIn(reading)
  const othersConfirming = othersConfirmingIn(reading)
  const orderPaidElsewhere = orderPaidElsewhereIn(reading)
  const checkoutIds = [
    payment.payment_id,
    ...earlierIdsOf([payment, ...reading.siblings], payment.payment_id),
    ...(reading.first ? [reading.first.payment_id] : []),
    ...remainderIdsOf(reading.siblings, reading.first?.payment_id ?? payment.payment_id),
  ]
  // the ledger holds a no-order claim, and the cart became an order with the checkout's capture since
  const claims = reading.owed.filter((r) => isNoOrderClaim(r))
  const claimed = payment.captured_no_order || claims.length > 0
  const capturedNoOrder = capturedNoOrderIn(reading, checkoutIds, claimed)
  // paid with the capture: Medusa counts it as the collection's payment (not refunded in full), and the order stands
  const claimMeetsOrder = claimed && reading.inCart && paidWithCheckout(reading, checkoutIds)
  const claimUnderway = claimMeetsOrder && claims.some(payoutUnderway)
  // another attempt's coins were captured on this cart's collection with no order: Medusa's cancel of the
  // order would refund that capture too, so the order is left to the admin, who sees its claim
  const collectionHeldByOther = reading.inCart && capturedForOther(reading, checkoutIds)

  return {
    payment: {
      payment_id: payment.payment_id,
      status: payment.status,
      expires_at: isoOrNull(payment.expires_at),
      watch_until: isoOrNull(payment.watch_until),
      capture_session_id: payment.capture_session_id ?? null,
    },
    ownSession: snapshot(own),
    targetSession: snapshot(target),
    ...(reading.cartId ? { cartId: reading.cartId } : {}),
    store: {
      current,
      sessionOpen: !!own && !CLOSED.includes(own.status),
      ...(target ? { targetSessionId: target.id } : {}),
      // its capture on a session Medusa deleted since (a new attempt) still stands for the order it paid
      capturedByThis: !!ownCapture || capturesOf(reading).some((c) => c.stands && c.payer === payment.payment_id),
      ...(captureUnrecorded && ownCapture ? { captureUnrecorded: ownCapture.id } : {}),
      paidByOther:
        captured.some((sessionId) => payerOf(sessionId) !== payment.payment_id) ||
        (!!targetClaim && targetClaim !== payment.payment_id),
      covers: coversCollection(reading, terms),
      ...(order ? { orderId: order.id, orderStatus: order.status } : {}),
      orderCollection: !!order && !reading.inCart,
      // the window ends at watch_until (expiry + lateWindowHours); a row without one has none to wait for
      lateWindowOver: !payment.watch_until || now.getTime() >= new Date(payment.watch_until).getTime(),
      remainder: !!payment.remainder_of,
      completedByRemainder: captured.some((sessionId) => remainderIds.includes(payerOf(sessionId) ?? "")),
      ...(remainderCoins.length && isCoin(payment.coin)
        ? { remainderReceived: sumCoins(payment.coin, remainderCoins) }
        : {}),
      ...(owedLate ? { owedLate } : {}),
      ...(capturedNoOrder ? { capturedNoOrder } : {}),
      ...(claimMeetsOrder ? { claimMeetsOrder } : {}),
      ...(claimUnderway ? { claimUnderway } : {}),
      ...(othersConfirming ? { othersConfirming } : {}),
      ...(orderPaidElsewhere || collectionHeldByOther ? { orderPaidElsewhere: true } : {}),
      ...(places !== undefined
        ? {
            base: {
              amount: terms.base_amount,
              currency: baseCurrency,
              // a remainder's coins are priced at the checkout's rate: its first payment's required coins
              ...(reading.first?.required_amount ? { required: reading.first.required_amount } : {}),
            },
          }
        : {}),
      ...(paid ? { takenBase: storeAmount(paid.amount, baseCurrency) } : {}),
    },
  }
}
