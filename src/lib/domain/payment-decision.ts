import { isZero } from "./owed"
import type { PaymentAssessment } from "./payment-assessment"
import type { StoreSideState, DecisionPolicy, PaymentDecision } from "./decision-terms"
import {
  acceptedShortNote,
  amountOf,
  closedWord,
  completedByRemainder,
  completesFirst,
  DecisionFacts,
  factsOf,
  lateNote,
  none,
  orderOr,
  owedAll,
  owedNoOrder,
  paidFlags,
  paidLate,
  paidTwice,
  shortNote,
} from "./decision-facts"

/**
 * One decision, used by checkout (authorize), the webhook route, reconciliation and the admin:
 * what does an assessed status (payment-assessment.ts) mean for the Medusa side that expects it?
 * decideAction reads a table of rules (DECISION_RULES) top to bottom; the first that applies
 * decides. The facts the rules read, and the parts their decisions are made of, are in
 * decision-facts.ts.
 */

/** One row of the decision table: when it applies, what it decides, and why. */
export type DecisionRule = {
  why: string
  when: (f: DecisionFacts) => boolean
  then: (f: DecisionFacts) => PaymentDecision
}

/**
 * The rules of decideAction, read top to bottom: the first that applies decides. Each outcome's
 * rules end with one that always applies to it, so the order within an outcome is the decision:
 * a rule only sees what the rules above it let through.
 */
export const DECISION_RULES: readonly DecisionRule[] = [
  {
    why: "captured with no order: every coin that arrived is owed (beyond a refund Medusa's compensation recorded) and the admin decides; no read captures it again",
    when: (f) => !!f.store.capturedNoOrder,
    then: (f) => none({ flags: f.sizeFlags, ...owedNoOrder(f) }),
  },

  // ---- paid: the excess is an owed record (the admin's "owed to customers"), never a reason to hold anything
  {
    why: "paid, and captured in Medusa by an earlier run that failed before its order recorded the capture: capturing again records it",
    when: (f) => f.paid && f.store.capturedByThis && !!f.store.captureUnrecorded,
    then: (f) => ({
      action: "capture",
      sessionId: f.store.captureUnrecorded,
      settled: true,
      watchLate: false,
      flags: paidFlags(f),
      note: "Captured in Medusa by an earlier run that failed before its order recorded the capture; recorded now.",
      ...f.beyond(),
    }),
  },
  {
    why: "paid and captured already: nothing to do (a remainder's capture completes its first payment)",
    when: (f) => f.paid && f.store.capturedByThis,
    then: (f) => none({ flags: paidFlags(f), captured: true, ...completesFirst(f), ...f.beyond() }),
  },
  {
    why: "paid, and its remainder completed the session: only what both sent beyond it is owed",
    when: (f) => f.paid && !!f.store.completedByRemainder,
    then: completedByRemainder,
  },
  {
    why: "paid, but owed back already as late money: never also the payment of the customer's next attempt",
    when: (f) => f.paid && !!f.store.owedLate,
    then: (f) => paidLate(f),
  },
  {
    why: "paid for a cart or order another payment had paid: paid twice",
    when: (f) => f.paid && f.store.paidByOther,
    then: paidTwice,
  },
  {
    why: "paid after its order was canceled, or after its own session closed",
    when: (f) =>
      f.paid && (f.store.orderStatus === "canceled" || (f.store.current && !f.store.sessionOpen && !f.store.remainder)),
    then: (f) => paidLate(f),
  },
  {
    why: "taken late under \"fulfil\" only for the checkout's own order: an order collection's is never held, so it was paid late",
    when: (f) => f.paid && !!f.a.late && f.store.orderCollection,
    then: (f) =>
      paidLate(f, f.store.sessionOpen ? { action: "cancel_session", sessionId: f.store.targetSessionId } : {}),
  },
  {
    why: "paid for its own current session: captured",
    when: (f) => f.paid && f.store.current,
    then: (f) => ({
      action: "capture",
      sessionId: f.store.targetSessionId,
      settled: true,
      watchLate: false,
      flags: paidFlags(f),
      ...completesFirst(f),
      ...(f.a.short || f.a.late
        ? { note: `${f.a.short ? acceptedShortNote(f.a, f.a.short) : ""}${lateNote(f.a)}`.trim() }
        : {}),
      ...f.beyond(),
    }),
  },
  {
    why: "paid for a replaced session (another coin, another cart total), and its cart has no crypto payment to capture it with",
    when: (f) => f.paid && !f.store.targetSessionId,
    then: (f) =>
      none({
        ...owedAll(f, "late"),
        flags: { ...f.sizeFlags, replaced_session: true },
        attention: `Paid for a replaced payment: ${amountOf(f.a)} arrived for ${orderOr(f, "its cart")}, which no longer has a crypto payment to capture it with. Create the order by hand or refund it from the service's dashboard.`,
      }),
  },
  {
    why: "paid for a replaced session, but it does not cover what its cart asks now",
    when: (f) => f.paid && !f.store.covers,
    then: (f) =>
      none({
        ...owedAll(f, "late"),
        flags: { ...f.sizeFlags, replaced_session: true, underpaid: true },
        attention: `Underpaid: ${amountOf(f.a)} arrived for a replaced payment that does not cover ${orderOr(f, "its cart")} any more. Ask the customer for the difference or refund it from the service's dashboard.`,
      }),
  },
  {
    why: "paid for a replaced session and covers its cart: captured with the session that replaced it",
    when: (f) => f.paid,
    then: (f) => ({
      action: "capture",
      sessionId: f.store.targetSessionId,
      settled: true,
      watchLate: false,
      flags: paidFlags(f, { replaced_session: true }),
      note: `Paid for a replaced payment: ${amountOf(f.a)} covers ${orderOr(f, "its cart")}, captured with it.${f.a.short ? ` ${acceptedShortNote(f.a, f.a.short)}` : ""}${lateNote(f.a)}`,
      ...f.beyond(),
    }),
  },

  // ---- EXPIRED or FAILED, not taken as paid: cancel what waits for it, and owe back what arrived
  {
    why: "expired or failed after it was captured: a paid order is never downgraded",
    when: (f) => f.closed && f.store.capturedByThis,
    then: (f) =>
      none({
        flags: f.sizeFlags,
        attention: `The service reports ${f.a.status} for a payment already captured; nothing was changed.`,
      }),
  },
  {
    why: "short, and its remainder paid the rest: the session was captured in full with both",
    when: (f) => f.closed && !!f.store.completedByRemainder,
    then: completedByRemainder,
  },
  // a replaced payment closes nothing: the cart or order waits for the payment that replaced it
  {
    why: "the full amount confirmed for what another payment paid, and owed back already as late money",
    when: (f) => f.closed && f.store.paidByOther && f.fullLate && !!f.store.owedLate,
    then: (f) => paidLate(f),
  },
  {
    why: "the full amount confirmed for what another payment paid: paid twice",
    when: (f) => f.closed && f.store.paidByOther && f.fullLate,
    then: paidTwice,
  },
  {
    why: "the full amount confirmed for a replaced session: paid late",
    when: (f) => f.closed && f.replaced && f.fullLate,
    then: (f) => paidLate(f),
  },
  {
    why: "nothing arrived for a replaced session (or no coin was ever chosen): nothing to watch for",
    when: (f) => f.closed && f.replaced && isZero(f.a.received),
    then: (f) => none({ flags: f.sizeFlags, stopReading: true }),
  },
  {
    why: "coins for a session closed or paid by another: what arrived is owed back (and then never pays anything)",
    when: (f) => f.closed && f.replaced,
    then: (f) =>
      none({
        watchLate: f.a.outcome === "expired",
        settled: f.a.outcome !== "expired",
        flags: f.sizeFlags,
        ...shortNote(f),
        ...owedAll(f, "late"),
      }),
  },
  {
    why: "another payment of the collection still confirms the full amount: it may pay the order yet, so nothing is canceled",
    when: (f) => f.closed && !!f.store.othersConfirming && !!f.cancel.action,
    then: (f) =>
      none({
        settled: false,
        watchLate: true,
        flags: f.sizeFlags,
        note: `Payment ${closedWord(f)}; another payment of the same ${orderOr(f, "cart")} is confirming the full amount, so nothing is canceled yet.`,
      }),
  },
  {
    why: "the full amount confirmed on a payment the service keeps EXPIRED or FAILED, which the shop does not take: paid late",
    when: (f) => f.closed && f.fullLate,
    then: (f) => paidLate(f, { ...f.cancel, settled: true }),
  },
  {
    why: '"fulfil": the awaiting order stays (its stock reserved) until the late-payment window ends',
    when: (f) =>
      f.closed && f.cancel.action === "cancel_order" && f.policy.latePayments === "fulfil" && !f.store.lateWindowOver,
    then: (f) =>
      none({
        watchLate: true,
        settled: false,
        holdUntilWindowEnd: true,
        flags: f.sizeFlags,
        note: `Payment ${closedWord(f)}; order ${f.store.orderId} stays awaiting payment until the late-payment window ends (latePayments: "fulfil"), then it is canceled.`,
        ...shortNote(f),
      }),
  },
  {
    why: "an invoice that expired before a coin was chosen has no address: nothing can ever arrive",
    when: (f) => f.closed && !f.a.coin && isZero(f.a.received),
    then: (f) => none({ ...f.cancel, flags: f.sizeFlags, stopReading: true }),
  },
  {
    why: "expired or failed: what waits for it is canceled; short coins whose order or session closes are owed back (withdrawn if a remainder completes it); the full amount still confirming is read until its confirmations decide it",
    when: (f) => f.closed,
    then: (f) => {
      const closesAll = !!f.cancel.action || f.store.orderStatus === "canceled" || !f.store.sessionOpen
      return none({
        ...f.cancel,
        watchLate: f.a.outcome === "expired",
        settled: f.a.outcome !== "expired" && !f.a.covered,
        flags: f.sizeFlags,
        ...shortNote(f),
        ...(f.a.underpaid && closesAll ? owedAll(f, "late") : {}),
        ...(f.a.covered ? { untilConfirmed: true as const } : {}),
      })
    },
  },

  // ---- neither paid nor closed
  {
    why: "the status record does not match what was agreed: never paid, the admin looks",
    when: (f) => f.a.outcome === "mismatch",
    then: (f) =>
      none({
        settled: false,
        flags: { ...f.sizeFlags, mismatch: true },
        attention: `Not accepted as paid: ${f.a.reason}.`,
      }),
  },
  {
    why: "expired short within the tolerance and confirming: nothing is canceled while the confirmations arrive",
    when: (f) => f.a.outcome === "pending" && !!f.a.short,
    then: (f) => none({ settled: false, watchLate: true, holdUntilWindowEnd: true, flags: f.sizeFlags }),
  },
  {
    why: "pending: read again (the full amount confirming: until it is decided, also past the watch window)",
    when: (f) => f.a.outcome === "pending",
    then: (f) =>
      none({
        settled: false,
        flags: f.sizeFlags,
        ...(f.a.covered ? { untilConfirmed: true as const } : {}),
        ...(f.a.underpaid ? { attention: `Underpaid so far: ${f.a.received} of ${f.a.required} ${f.a.coin}.` } : {}),
      }),
  },
]

const DEFAULT_POLICY: DecisionPolicy = { quoteDriftAlertPercent: 2 }

/**
 * What to do about an assessed status, given the store's side: the decision of the first rule of
 * DECISION_RULES that applies. A paid order is never downgraded; money that arrives after its
 * session was replaced pays the cart it was made for when it covers it; money that arrives late,
 * twice or short is flagged for the admin and owed back, never dropped, and every coin is in one
 * state only: it pays an order or it is owed, never both.
 */
export function decideAction(
  a: PaymentAssessment,
  store: StoreSideState,
  policy: DecisionPolicy = DEFAULT_POLICY
): PaymentDecision {
  const facts = factsOf(a, store, policy)
  return ruleFor(facts).then(facts)
}

/** Why a status is decided as it is: the rule that decides it (for tests, and for a reader of a log). */
export function decidingRule(
  a: PaymentAssessment,
  store: StoreSideState,
  policy: DecisionPolicy = DEFAULT_POLICY
): DecisionRule {
  return ruleFor(factsOf(a, store, policy))
}

function ruleFor(facts: DecisionFacts): DecisionRule {
  const rule = DECISION_RULES.find((candidate) => candidate.when(facts))
  // every outcome has a last rule that always applies; only an outcome no assessment makes gets here
  if (!rule) throw new Error(`No rule decides a payment whose outcome is ${facts.a.outcome}.`)
  return rule
}
