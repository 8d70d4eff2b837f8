import { ownSession } from "./store-side"
import { DECISION_RULES, decideAction, decidingRule } from "../payment-decision"
import { DecisionPolicy, PaymentAction, StoreSideState } from "../decision-terms"
import { PaymentAssessment } from "../payment-assessment"

/** 0.00038462 BTC asked for 25 USD. */
const assessed = (fields: Partial<PaymentAssessment>): PaymentAssessment => ({
  outcome: "paid",
  status: "COMPLETED",
  coin: "BTC",
  received: "0.00038462",
  required: "0.00038462",
  confirmations: 3,
  requiredConfirmations: 3,
  underpaid: false,
  overpaid: false,
  covered: true,
  confirmed: true,
  ...fields,
})
const paid = assessed({})
const expired = assessed({ outcome: "expired", status: "EXPIRED", received: "0", covered: false, confirmed: false })
const expiredShort = { ...expired, received: "0.00010000", underpaid: true }
const expiredFull = assessed({ outcome: "expired", status: "EXPIRED" })
const failed = { ...expired, outcome: "failed" as const, status: "FAILED" as const }
const pending = assessed({ outcome: "pending", status: "PENDING", received: "0", covered: false, confirmed: false })
const short = { shortfall: "0.00000500", tolerancePercent: 2, confirmed: false }
/** A remainder paid all it asked (0.00008000) of the 0.00008462 short: its checkout 0.00000462 short. */
const remainderShort = assessed({
  outcome: "mismatch",
  received: "0.00038000",
  underpaid: true,
  covered: false,
  own: { received: "0.00008000", required: "0.00008000" },
  remainderShort: { asked: "0.00008000", shortfall: "0.00008462", missing: "0.00000462" },
})

/** Its own session, current and open, for a 25 USD cart, its late-payment window still open. */
const own: StoreSideState = { ...ownSession, lateWindowOver: false }
const awaiting = { ...own, orderId: "order_1", orderStatus: "pending" }
const replaced = { ...awaiting, current: false, sessionOpen: false, targetSessionId: "payses_2" }
const fulfil: DecisionPolicy = { quoteDriftAlertPercent: 2, latePayments: "fulfil" }

/** One case per rule, in the table's order: the rule that decides it (its why, from the start) and the action. */
const CASES: Array<[string, PaymentAssessment, StoreSideState, DecisionPolicy | undefined, PaymentAction]> = [
  [
    "a no-order claim met an order whose coins were sent back",
    paid,
    { ...awaiting, capturedByThis: true, claimMeetsOrder: true, claimUnderway: true },
    undefined,
    "none",
  ],
  [
    "a no-order claim met an order:",
    paid,
    { ...awaiting, capturedByThis: true, claimMeetsOrder: true },
    undefined,
    "none",
  ],
  ["captured with no order", paid, { ...awaiting, capturedByThis: true, capturedNoOrder: true }, undefined, "none"],
  [
    "paid, and captured in Medusa by an earlier run",
    paid,
    { ...awaiting, capturedByThis: true, captureUnrecorded: "payses_1" },
    undefined,
    "capture",
  ],
  ["paid and captured already", paid, { ...awaiting, capturedByThis: true }, undefined, "none"],
  ["paid, and its remainder completed the session", paid, { ...own, completedByRemainder: true }, undefined, "none"],
  ["paid, but owed back already as late money", paid, { ...own, owedLate: true }, undefined, "none"],
  ["paid for a cart or order another payment had paid", paid, { ...awaiting, paidByOther: true }, undefined, "none"],
  ["paid after its order was canceled", paid, { ...awaiting, orderStatus: "canceled" }, undefined, "none"],
  [
    'taken late under "fulfil" only',
    assessed({ late: true }),
    { ...awaiting, orderCollection: true },
    fulfil,
    "cancel_session",
  ],
  ["paid for its own current session", paid, awaiting, undefined, "capture"],
  ["paid for a replaced session (another coin", paid, { ...replaced, targetSessionId: undefined }, undefined, "none"],
  ["paid for a replaced session, but it does not cover", paid, { ...replaced, covers: false }, undefined, "none"],
  ["paid for a replaced session and covers its cart", paid, replaced, undefined, "capture"],
  ["expired or failed after it was captured", expired, { ...awaiting, capturedByThis: true }, undefined, "none"],
  ["short, and its remainder paid the rest", expiredShort, { ...own, completedByRemainder: true }, undefined, "none"],
  [
    "the full amount confirmed for what another payment paid, and owed back",
    expiredFull,
    { ...awaiting, paidByOther: true, owedLate: true },
    undefined,
    "none",
  ],
  [
    "the full amount confirmed for what another payment paid: paid twice",
    expiredFull,
    { ...awaiting, paidByOther: true },
    undefined,
    "none",
  ],
  ["the full amount confirmed for a replaced session", expiredFull, replaced, undefined, "none"],
  ["nothing arrived for a replaced session", expired, replaced, undefined, "none"],
  ["coins for a session closed or paid by another", expiredShort, replaced, undefined, "none"],
  [
    "another payment of the collection still confirms",
    expired,
    { ...awaiting, othersConfirming: true },
    undefined,
    "none",
  ],
  ["the full amount confirmed on a payment the service keeps", expiredFull, awaiting, undefined, "cancel_order"],
  ['"fulfil": the awaiting order stays', expired, awaiting, fulfil, "none"],
  [
    "an invoice that expired before a coin was chosen",
    { ...expired, coin: undefined, required: undefined },
    own,
    undefined,
    "cancel_session",
  ],
  ["expired or failed: what waits for it is canceled", failed, awaiting, undefined, "cancel_order"],
  [
    "a remainder paid as the service asked but short, and its own remainder completed",
    remainderShort,
    { ...own, remainder: true, current: false, completedByRemainder: true, remainderReceived: "0.00000462" },
    undefined,
    "none",
  ],
  ["a remainder paid as the service asked, its checkout still short", remainderShort, awaiting, undefined, "none"],
  [
    "the status record does not match",
    assessed({ outcome: "mismatch", reason: "another coin" }),
    awaiting,
    undefined,
    "none",
  ],
  ["expired short within the tolerance and confirming", { ...pending, short }, awaiting, undefined, "none"],
  ["pending: read again", pending, awaiting, undefined, "none"],
]

describe("DECISION_RULES: the table decideAction reads top to bottom", () => {
  it.each(CASES)("%s → %s", (why, assessment, store, policy, action) => {
    expect(decidingRule(assessment, store, policy).why.startsWith(why)).toBe(true)
    expect(decideAction(assessment, store, policy).action).toBe(action)
  })

  it("has a case for every rule, in the table's order: none is unreachable", () => {
    const reached = CASES.map(([, assessment, store, policy]) =>
      DECISION_RULES.indexOf(decidingRule(assessment, store, policy))
    )
    expect(reached).toEqual(DECISION_RULES.map((_, index) => index))
  })

  it("judges a short payment still confirming after the late-payment window as expired", () => {
    const confirming = { ...pending, received: "0.00038000", underpaid: true, short }
    expect(decidingRule(confirming, awaiting).why).toMatch(/^expired short within the tolerance/)
    const over = { ...awaiting, lateWindowOver: true }
    for (const policy of [undefined, fulfil]) {
      expect(decidingRule(confirming, over, policy).why).toMatch(/^expired or failed: what waits for it is canceled/)
      expect(decideAction(confirming, over, policy)).toMatchObject({
        action: "cancel_order",
        watchLate: true,
        settled: false,
        owed: { kind: "late", coins: "0.00038000" },
      })
    }
  })

  it("refuses an outcome no assessment makes, rather than deciding it as another", () => {
    const unknown = { ...pending, outcome: "lost" } as unknown as PaymentAssessment
    expect(() => decideAction(unknown, awaiting)).toThrow("No rule decides a payment whose outcome is lost.")
  })
})
