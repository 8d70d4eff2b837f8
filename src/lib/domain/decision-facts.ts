import { coinText, coinUnits } from "./money"
import { excessCoins, isZero, PaymentRate } from "./owed"
import { sendableUnitIn } from "./chains"
import { driftBeyond, PaymentAssessment, ShortPayment } from "./payment-assessment"
import type { DecisionFlags, DecisionPolicy, OwedByRead, PaymentDecision, StoreSideState } from "./decision-terms"

/**
 * What the rules of decideAction read, derived once from the assessment, the store's side and the
 * policy, and the parts their decisions are made of (docs/money.md).
 */

export type DecisionFacts = {
  /** The assessment the rules read (afterLateWindow). */
  assessment: PaymentAssessment
  store: StoreSideState
  policy: DecisionPolicy
  paid: boolean
  /** EXPIRED or FAILED, and not taken as paid. */
  closed: boolean
  /** Flags of the amounts alone: short, beyond the amount, accepted short, re-priced beyond the alert. */
  sizeFlags: DecisionFlags
  /** The full amount arrived and has its confirmations: on a closed payment, late money. */
  fullLate: boolean
  /** Its session was replaced, or another payment paid what it would pay: it closes nothing. */
  replaced: boolean
  /** What closing it cancels when nothing holds it: the checkout's own awaiting order, else its open session. */
  cancel: Partial<PaymentDecision>
  /** The service's required coins for the shop's base amount, when both are known. */
  rate?: PaymentRate
  /** Coins beyond what the order took; worked out on first use, since only a paid payment's rules read them. */
  beyond: () => Beyond
}

/** Coins beyond what the order took: owed back, or, below one unit of the chain, kept as rounding. */
export type Beyond = { owed?: OwedByRead; rounding?: string }

export function factsOf(assessment: PaymentAssessment, store: StoreSideState, policy: DecisionPolicy): DecisionFacts {
  const a = afterLateWindow(assessment, store)
  const rate = rateOf(a, store)
  let beyond: Beyond | undefined
  return {
    assessment: a,
    store,
    policy,
    paid: a.outcome === "paid",
    closed: a.outcome === "expired" || a.outcome === "failed",
    sizeFlags: sizeFlagsOf(a, policy),
    fullLate: !!a.covered && !!a.confirmed,
    replaced: store.paidByOther || !store.current,
    cancel: cancelOf(store),
    ...(rate ? { rate } : {}),
    beyond: () => (beyond ??= excessOwed(rate, store, a.received)),
  }
}

/** Short within the tolerance and still confirming: once the late-payment window has ended it is assessed as expired. */
function afterLateWindow(a: PaymentAssessment, store: StoreSideState): PaymentAssessment {
  return a.outcome === "pending" && a.short && store.lateWindowOver ? { ...a, outcome: "expired", short: undefined } : a
}

function sizeFlagsOf(a: PaymentAssessment, policy: DecisionPolicy): DecisionFlags {
  const drifted = !!a.quoteDrift && driftBeyond(a.quoteDrift, policy.quoteDriftAlertPercent)
  return {
    // short within the tolerance is not underpaid for the shop: accepted once confirmed
    ...(a.underpaid && !a.short ? { underpaid: true } : {}),
    ...(a.outcome === "paid" && a.short ? { accepted_short: true } : {}),
    ...(a.overpaid ? { overpaid: true } : {}),
    ...(drifted ? { quote_drift: true } : {}),
  }
}

/** The rate: the service's required coins for the store amount (a remainder's: its checkout's, whatever it asked itself). */
function rateOf(a: PaymentAssessment, store: StoreSideState): PaymentRate | undefined {
  const required = store.base?.required ?? a.required
  return a.coin && required && store.base
    ? { coin: a.coin, required, baseAmount: store.base.amount, baseCurrency: store.base.currency }
    : undefined
}

function cancelOf(store: StoreSideState): Partial<PaymentDecision> {
  if (store.orderId && store.orderStatus !== "canceled" && !store.orderCollection && !store.orderPaidElsewhere)
    return { action: "cancel_order", sessionId: store.targetSessionId }
  return store.sessionOpen ? { action: "cancel_session", sessionId: store.targetSessionId } : {}
}

/** Coins beyond what the order took, when there are any (with a remainder: both payments' coins, owed as one total). */
function excessOwed(rate: PaymentRate | undefined, store: StoreSideState, received: string): Beyond {
  if (!rate) return {}
  const coins = excessCoins(rate, received, store.takenBase)
  if (isZero(coins)) return {}
  // less than one unit the shop can send back (chains.ts, SENDABLE_DECIMALS; at least the chain's unit): what
  // the wallet rounded up to send an amount written at more places, never a refund of "0.00000000"
  if (coinUnits(coins, rate.coin) < sendableUnitIn(rate.coin)) return { rounding: coins }
  const pair = store.remainder || store.completedByRemainder ? { pair: true as const } : {}
  return { owed: { kind: "excess", coins, ...pair } }
}

/** A decision that applies nothing in Medusa: settled unless said otherwise. */
export function none(rest: Partial<PaymentDecision> = {}): PaymentDecision {
  return { action: "none", settled: true, watchLate: false, flags: {}, ...rest }
}

/** All the coins this payment received (a remainder: its own), owed back. */
export function owedAll(facts: DecisionFacts, kind: OwedByRead["kind"]): { owed?: OwedByRead } {
  const coins = facts.assessment.own?.received ?? facts.assessment.received
  return isZero(coins) ? {} : { owed: { kind, coins } }
}

/**
 * A capture that made no order: every coin of the checkout is owed (a remainder's read, assessed with its
 * checkout, owes the first payment's coins too, on the first payment), as one claim a remainder's
 * completion never withdraws.
 */
export function owedNoOrder(facts: DecisionFacts): { owed?: OwedByRead } {
  const pair = facts.store.remainder ? { pair: true as const } : {}
  return isZero(facts.assessment.received)
    ? {}
    : { owed: { kind: "late", coins: facts.assessment.received, noOrder: true, ...pair } }
}

export function paidFlags(facts: DecisionFacts, extra: DecisionFlags = {}): DecisionFlags {
  return { ...facts.sizeFlags, ...(facts.beyond().owed ? { overpaid: true as const } : {}), ...extra }
}

/** A remainder whose capture stands (made here or by the storefront's own completion) completes its first payment. */
export function completesFirst(facts: DecisionFacts): { completesFirst?: true } {
  return facts.store.remainder ? { completesFirst: true } : {}
}

/** A short payment whose remainder completed the session: only what both sent beyond it is owed. */
export function completedByRemainder(facts: DecisionFacts): PaymentDecision {
  const { assessment: a, store } = facts
  const both =
    a.coin && store.remainderReceived !== undefined
      ? coinText(coinUnits(a.received, a.coin) + coinUnits(store.remainderReceived, a.coin), a.coin)
      : a.received
  const beyond = excessOwed(facts.rate, store, both)
  return none({
    flags: { ...facts.sizeFlags, ...(beyond.owed ? { overpaid: true } : {}) },
    completesFirst: true,
    ...beyond,
  })
}

/**
 * A remainder paid all the service asked, its checkout still short beyond the service's precision and the
 * tolerance: flagged with both figures for the admin, who requests the rest (the remainder of this one) or
 * refunds; read again, so a later remainder's completion settles it.
 */
export function remainderShort(facts: DecisionFacts): PaymentDecision {
  const { assessment: a } = facts
  const short = a.remainderShort!
  const coin = a.coin ?? ""
  return none({
    settled: false,
    flags: { ...facts.sizeFlags, mismatch: true },
    attention: `Remainder short: it asked ${short.asked} ${coin}, but ${short.shortfall} ${coin} was short of the ${a.required} ${coin} the first payment required; ${short.missing} ${coin} is still missing. Request the remainder of this payment for the rest, or refund what arrived from the service's dashboard.`,
  })
}

/** Paid after it could be taken (order canceled, session closed, owed already): flagged, all of it owed. */
export function paidLate(facts: DecisionFacts, rest: Partial<PaymentDecision> = {}): PaymentDecision {
  const what = facts.store.orderStatus === "canceled" ? "order was canceled" : "payment was closed or expired"
  return none({
    ...owedAll(facts, "late"),
    flags: { ...facts.sizeFlags, paid_late: true },
    attention: `Paid late: ${amountOf(facts.assessment)} arrived after the ${what}. Refund it from the service's dashboard or fulfil the order by hand.`,
    ...rest,
  })
}

/** Paid for what another payment had paid already: flagged, all of it owed as excess. */
export function paidTwice(facts: DecisionFacts): PaymentDecision {
  const { assessment: a, store } = facts
  return none({
    ...owedAll(facts, "excess"),
    flags: { ...facts.sizeFlags, paid_twice: true, ...(store.current ? {} : { replaced_session: true }) },
    attention: `Paid twice: ${amountOf(a)} arrived for ${store.orderId ? `order ${store.orderId}` : "a cart"} that another payment had already paid. Refund it from the service's dashboard.`,
  })
}

/** What the admin is told of short coins on a payment that expired or failed. */
export function shortNote(facts: DecisionFacts): Partial<PaymentDecision> {
  const { assessment: a } = facts
  return a.underpaid
    ? {
        attention: `Underpaid and ${closedWord(facts)}: ${a.received} of ${a.required} ${a.coin} arrived. Refund it from the service's dashboard.`,
      }
    : {}
}

export const closedWord = (facts: DecisionFacts) => (facts.assessment.outcome === "expired" ? "expired" : "failed")

/** The order a note names, or what stands for it before there is one. */
export const orderOr = (facts: DecisionFacts, otherwise: string) =>
  facts.store.orderId ? `order ${facts.store.orderId}` : otherwise

export const amountOf = (a: PaymentAssessment) => `${a.received} ${a.coin ?? ""}`.trim()

export const acceptedShortNote = (a: PaymentAssessment, short: ShortPayment) =>
  `Accepted short: ${a.received} of ${a.required} ${a.coin} arrived, ${short.shortfall} short, within the ${short.tolerancePercent} % underpayment tolerance.`

/** Said of a payment taken under latePayments "fulfil" although the service still says EXPIRED or FAILED. */
export const lateNote = (a: PaymentAssessment) =>
  a.late
    ? ` Paid after its expiry: the service still says ${a.status}; taken under latePayments "fulfil" inside the late-payment window.`
    : ""
