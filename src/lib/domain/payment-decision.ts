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
  remainderShort,
  shortNote,
} from "./decision-facts"

/**
 * One decision for checkout, webhooks, reconciliation and the admin: what an assessed status means for
 * the Medusa side that expects it. The facts the rules read are in decision-facts.ts.
 */

export type DecisionRule = {
  why: string
  when: (facts: DecisionFacts) => boolean
  then: (facts: DecisionFacts) => PaymentDecision
}

/**
 * Read top to bottom: the first rule that applies decides, so a rule only sees what the rules above it
 * let through. Each outcome's rules end with one that always applies.
 */
export const DECISION_RULES: readonly DecisionRule[] = [
  {
    why: "a no-order claim met an order whose coins were sent back meanwhile: paid and refunded, the admin decides",
    when: (facts) => !!facts.store.claimMeetsOrder && !!facts.store.claimUnderway,
    then: (facts) =>
      none({
        flags: paidFlags(facts),
        captured: true,
        // coins that arrive after the claim are owed with it (the claim's records count what it owes already)
        ...owedNoOrder(facts),
        attention: `Paid and sent back: ${orderOr(facts, "its cart")} was placed with this capture after its coins were owed back as "captured, no order", and their payout has started or was sent. Cancel the order, or ask the customer to pay again.`,
      }),
  },
  {
    why: "a no-order claim met an order: the cart became an order paid with the capture, so the claim is withdrawn (paid once, owed nothing)",
    when: (facts) => !!facts.store.claimMeetsOrder,
    then: (facts) =>
      none({
        flags: paidFlags(facts),
        captured: true,
        withdrawNoOrderClaim: true,
        note: `Captured, no order no more: ${orderOr(facts, "its cart")} was placed with this capture, so the coins owed back for it are withdrawn.`,
        ...facts.beyond(),
      }),
  },
  {
    why: "captured with no order: every coin that arrived is owed (beyond a refund Medusa's compensation recorded) and the admin decides; no read captures it again",
    when: (facts) => !!facts.store.capturedNoOrder,
    then: (facts) => none({ flags: facts.sizeFlags, ...owedNoOrder(facts) }),
  },

  // ---- paid: the excess is an owed record (the admin's "owed to customers"), never a reason to hold anything
  {
    why: "paid, and captured in Medusa by an earlier run that failed before its order recorded the capture: capturing again records it",
    when: (facts) => facts.paid && facts.store.capturedByThis && !!facts.store.captureUnrecorded,
    then: (facts) => ({
      action: "capture",
      sessionId: facts.store.captureUnrecorded,
      settled: true,
      watchLate: false,
      flags: paidFlags(facts),
      note: "Captured in Medusa by an earlier run that failed before its order recorded the capture; recorded now.",
      ...facts.beyond(),
    }),
  },
  {
    why: "paid and captured already: nothing to do (a remainder's capture completes its first payment)",
    when: (facts) => facts.paid && facts.store.capturedByThis,
    then: (facts) => none({ flags: paidFlags(facts), captured: true, ...completesFirst(facts), ...facts.beyond() }),
  },
  {
    why: "paid, and its remainder completed the session: only what both sent beyond it is owed",
    when: (facts) => facts.paid && !!facts.store.completedByRemainder,
    then: completedByRemainder,
  },
  {
    why: "paid, but owed back already as late money: never also the payment of the customer's next attempt",
    when: (facts) => facts.paid && !!facts.store.owedLate,
    then: (facts) => paidLate(facts),
  },
  {
    why: "paid for a cart or order another payment had paid: paid twice",
    when: (facts) => facts.paid && facts.store.paidByOther,
    then: paidTwice,
  },
  {
    why: "paid after its order was canceled, or after its own session closed",
    when: (facts) =>
      facts.paid &&
      (facts.store.orderStatus === "canceled" ||
        (facts.store.current && !facts.store.sessionOpen && !facts.store.remainder)),
    then: (facts) => paidLate(facts),
  },
  {
    why: "taken late under \"fulfil\" only for the checkout's own order: an order collection's is never held, so it was paid late",
    when: (facts) => facts.paid && !!facts.assessment.late && facts.store.orderCollection,
    then: (facts) =>
      paidLate(
        facts,
        facts.store.sessionOpen ? { action: "cancel_session", sessionId: facts.store.targetSessionId } : {}
      ),
  },
  {
    why: "paid for its own current session: captured",
    when: (facts) => facts.paid && facts.store.current,
    then: (facts) => ({
      action: "capture",
      sessionId: facts.store.targetSessionId,
      settled: true,
      watchLate: false,
      flags: paidFlags(facts),
      ...completesFirst(facts),
      ...(facts.assessment.short || facts.assessment.late
        ? {
            note: `${facts.assessment.short ? acceptedShortNote(facts.assessment, facts.assessment.short) : ""}${lateNote(facts.assessment)}`.trim(),
          }
        : {}),
      ...facts.beyond(),
    }),
  },
  {
    why: "paid for a replaced session (another coin, another cart total), and its cart has no crypto payment to capture it with",
    when: (facts) => facts.paid && !facts.store.targetSessionId,
    then: (facts) =>
      none({
        ...owedAll(facts, "late"),
        flags: { ...facts.sizeFlags, replaced_session: true },
        attention: `Paid for a replaced payment: ${amountOf(facts.assessment)} arrived for ${orderOr(facts, "its cart")}, which no longer has a crypto payment to capture it with. Create the order by hand or refund it from the service's dashboard.`,
      }),
  },
  {
    why: "paid for a replaced session, but it does not cover what its cart asks now",
    when: (facts) => facts.paid && !facts.store.covers,
    then: (facts) =>
      none({
        ...owedAll(facts, "late"),
        flags: { ...facts.sizeFlags, replaced_session: true, underpaid: true },
        attention: `Underpaid: ${amountOf(facts.assessment)} arrived for a replaced payment that does not cover ${orderOr(facts, "its cart")} any more. Ask the customer for the difference or refund it from the service's dashboard.`,
      }),
  },
  {
    why: "paid for a replaced session and covers its cart: captured with the session that replaced it",
    when: (facts) => facts.paid,
    then: (facts) => ({
      action: "capture",
      sessionId: facts.store.targetSessionId,
      settled: true,
      watchLate: false,
      flags: paidFlags(facts, { replaced_session: true }),
      note: `Paid for a replaced payment: ${amountOf(facts.assessment)} covers ${orderOr(facts, "its cart")}, captured with it.${facts.assessment.short ? ` ${acceptedShortNote(facts.assessment, facts.assessment.short)}` : ""}${lateNote(facts.assessment)}`,
      ...facts.beyond(),
    }),
  },

  // ---- EXPIRED or FAILED, not taken as paid: cancel what waits for it, and owe back what arrived
  {
    why: "expired or failed after it was captured: a paid order is never downgraded",
    when: (facts) => facts.closed && facts.store.capturedByThis,
    then: (facts) =>
      none({
        flags: paidFlags(facts),
        attention: `The service reports ${facts.assessment.status} for a payment already captured; nothing was changed.`,
        // coins that arrived after the capture are owed back like any beyond what the order took
        ...facts.beyond(),
      }),
  },
  {
    why: "short, and its remainder paid the rest: the session was captured in full with both",
    when: (facts) => facts.closed && !!facts.store.completedByRemainder,
    then: completedByRemainder,
  },
  // a replaced payment closes nothing: the cart or order waits for the payment that replaced it
  {
    why: "the full amount confirmed for what another payment paid, and owed back already as late money",
    when: (facts) => facts.closed && facts.store.paidByOther && facts.fullLate && !!facts.store.owedLate,
    then: (facts) => paidLate(facts),
  },
  {
    why: "the full amount confirmed for what another payment paid: paid twice",
    when: (facts) => facts.closed && facts.store.paidByOther && facts.fullLate,
    then: paidTwice,
  },
  {
    why: "the full amount confirmed for a replaced session: paid late",
    when: (facts) => facts.closed && facts.replaced && facts.fullLate,
    then: (facts) => paidLate(facts),
  },
  {
    why: "nothing arrived for a replaced session (or no coin was ever chosen): nothing to watch for",
    when: (facts) => facts.closed && facts.replaced && isZero(facts.assessment.received),
    then: (facts) => none({ flags: facts.sizeFlags, stopReading: true }),
  },
  {
    why: "coins for a session closed or paid by another: what arrived is owed back (and then never pays anything)",
    when: (facts) => facts.closed && facts.replaced,
    then: (facts) =>
      none({
        watchLate: facts.assessment.outcome === "expired",
        settled: facts.assessment.outcome !== "expired",
        flags: facts.sizeFlags,
        ...shortNote(facts),
        ...owedAll(facts, "late"),
      }),
  },
  {
    why: "another payment of the collection still confirms the full amount: it may pay the order yet, so nothing is canceled",
    when: (facts) => facts.closed && !!facts.store.othersConfirming && !!facts.cancel.action,
    then: (facts) =>
      none({
        settled: false,
        watchLate: true,
        flags: facts.sizeFlags,
        note: `Payment ${closedWord(facts)}; another payment of the same ${orderOr(facts, "cart")} is confirming the full amount, so nothing is canceled yet.`,
      }),
  },
  {
    why: "the full amount confirmed on a payment the service keeps EXPIRED or FAILED, which the shop does not take: paid late",
    when: (facts) => facts.closed && facts.fullLate,
    then: (facts) => paidLate(facts, { ...facts.cancel, settled: true }),
  },
  {
    why: '"fulfil": the awaiting order stays (its stock reserved) until the late-payment window ends',
    when: (facts) =>
      facts.closed &&
      facts.cancel.action === "cancel_order" &&
      facts.policy.latePayments === "fulfil" &&
      !facts.store.lateWindowOver,
    then: (facts) =>
      none({
        watchLate: true,
        settled: false,
        holdUntilWindowEnd: true,
        flags: facts.sizeFlags,
        note: `Payment ${closedWord(facts)}; order ${facts.store.orderId} stays awaiting payment until the late-payment window ends (latePayments: "fulfil"), then it is canceled.`,
        ...shortNote(facts),
      }),
  },
  {
    why: "an invoice that expired before a coin was chosen has no address: nothing can ever arrive",
    when: (facts) => facts.closed && !facts.assessment.coin && isZero(facts.assessment.received),
    then: (facts) => none({ ...facts.cancel, flags: facts.sizeFlags, stopReading: true }),
  },
  {
    why: "expired or failed: what waits for it is canceled; short coins whose order or session closes are owed back (withdrawn if a remainder completes it); the full amount still confirming is read until its confirmations decide it",
    when: (facts) => facts.closed,
    then: (facts) => {
      const closesAll = !!facts.cancel.action || facts.store.orderStatus === "canceled" || !facts.store.sessionOpen
      return none({
        ...facts.cancel,
        watchLate: facts.assessment.outcome === "expired",
        settled: facts.assessment.outcome !== "expired" && !facts.assessment.covered,
        flags: facts.sizeFlags,
        ...shortNote(facts),
        ...(facts.assessment.underpaid && closesAll ? owedAll(facts, "late") : {}),
        ...(facts.assessment.covered ? { untilConfirmed: true as const } : {}),
      })
    },
  },

  // ---- neither paid nor closed
  {
    why: "a remainder paid as the service asked but short, and its own remainder completed the session: only what all sent beyond it is owed",
    when: (facts) =>
      facts.assessment.outcome === "mismatch" &&
      !!facts.assessment.remainderShort &&
      !!facts.store.completedByRemainder,
    then: completedByRemainder,
  },
  {
    why: "a remainder paid as the service asked, its checkout still short beyond the service's precision and the tolerance: the admin is told both figures",
    when: (facts) => facts.assessment.outcome === "mismatch" && !!facts.assessment.remainderShort,
    then: remainderShort,
  },
  {
    why: "the status record does not match what was agreed: never paid, the admin looks",
    when: (facts) => facts.assessment.outcome === "mismatch",
    then: (facts) =>
      none({
        settled: false,
        flags: { ...facts.sizeFlags, mismatch: true },
        attention: `Not accepted as paid: ${facts.assessment.reason}.`,
      }),
  },
  {
    why: "expired short within the tolerance and confirming: nothing is canceled while the confirmations arrive",
    when: (facts) => facts.assessment.outcome === "pending" && !!facts.assessment.short,
    then: (facts) => none({ settled: false, watchLate: true, holdUntilWindowEnd: true, flags: facts.sizeFlags }),
  },
  {
    why: "pending: read again (the full amount confirming: until it is decided, also past the watch window)",
    when: (facts) => facts.assessment.outcome === "pending",
    then: (facts) =>
      none({
        settled: false,
        flags: facts.sizeFlags,
        ...(facts.assessment.covered ? { untilConfirmed: true as const } : {}),
        ...(facts.assessment.underpaid
          ? {
              attention: `Underpaid so far: ${facts.assessment.received} of ${facts.assessment.required} ${facts.assessment.coin}.`,
            }
          : {}),
      }),
  },
]

const DEFAULT_POLICY: DecisionPolicy = { quoteDriftAlertPercent: 2 }

/**
 * A paid order is never downgraded; money arriving late, twice or short is flagged and owed back, never
 * dropped; every coin pays an order or is owed, never both.
 */
export function decideAction(
  a: PaymentAssessment,
  store: StoreSideState,
  policy: DecisionPolicy = DEFAULT_POLICY
): PaymentDecision {
  const facts = factsOf(a, store, policy)
  return ruleFor(facts).then(facts)
}

/** The rule that decides a status, for a reader of a log. */
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
  if (!rule) throw new Error(`No rule decides a payment whose outcome is ${facts.assessment.outcome}.`)
  return rule
}
