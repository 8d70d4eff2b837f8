import { ownSession } from "./store-side"
import { decideAction } from "../payment-decision"
import { DecisionPolicy, StoreSideState } from "../decision-terms"
import { assessPayment, SessionExpectation, sessionStatusFor, withinTolerance } from "../payment-assessment"
import { effectivePolicy, MerchantPolicy, tolerancePercentSchema } from "../merchant-policy"
import type { StatusRecord } from "../../crypto-api/schemas"

// 1 BTC = 100,000,000 satoshi: 1 % of 0.01 BTC is 10,000 satoshi
const payment: SessionExpectation = { paymentId: "pay_1", kind: "payment", coin: "BTC", cryptoAmount: "0.01" }
const expired = (received: string, confirmations = 3): StatusRecord =>
  ({
    paymentId: "pay_1",
    status: "EXPIRED",
    currentBalance: received,
    confirmations,
    requiredAmount: "0.01",
    currency: "BTC",
  }) as StatusRecord

describe("underpayment tolerance: exact in coin units, at the boundary", () => {
  it.each<[string, string, number, string, string | undefined]>([
    ["nothing tolerated", "0.0099", 0, "expired", undefined],
    ["0.5 % short, 1 % tolerated", "0.00995", 1, "paid", "0.00005000"],
    ["exactly at the tolerance (1 %)", "0.0099", 1, "paid", "0.00010000"],
    ["one satoshi past the tolerance", "0.00989999", 1, "expired", undefined],
    ["exactly at 0.25 %", "0.009975", 0.25, "paid", "0.00002500"],
    ["one satoshi past 0.25 %", "0.00997499", 0.25, "expired", undefined],
    ["exactly at the most a shop may tolerate (5 %)", "0.0095", 5, "paid", "0.00050000"],
    ["nothing received is never within a tolerance", "0", 5, "expired", undefined],
    ["the full amount expired is not short", "0.01", 1, "expired", undefined],
  ])("%s", (_name, received, percent, outcome, shortfall) => {
    const a = assessPayment(expired(received), payment, { underpaymentTolerancePercent: percent })
    expect(a.outcome).toBe(outcome)
    expect(a.short?.shortfall).toBe(shortfall)
  })

  it("compares integers: 1 % of 10,000 units is 100 units, not 99", () => {
    expect(withinTolerance(10_000n, 9_900n, 1)).toBe(true)
    expect(withinTolerance(10_000n, 9_899n, 1)).toBe(false)
    expect(withinTolerance(10_000n, 9_999n, 0)).toBe(false)
    expect(withinTolerance(3n, 2n, 5)).toBe(false)
  })

  it("short within the tolerance with too few confirmations is still confirming (pending), not expired", () => {
    const a = assessPayment(expired("0.00995", 2), payment, { underpaymentTolerancePercent: 1 })
    expect(a).toMatchObject({ outcome: "pending", short: { shortfall: "0.00005000", confirmed: false } })
    // checkout places the order awaiting payment rather than refusing it
    expect(sessionStatusFor(a.outcome, "before_payment")).toBe("pending_authorization")
  })

  it("an accepted short payment is captured by authorize and capture (session status captured)", () => {
    const a = assessPayment(expired("0.00995"), payment, { underpaymentTolerancePercent: 1 })
    expect(sessionStatusFor(a.outcome, "before_payment")).toBe("captured")
    expect(sessionStatusFor(a.outcome, "after_payment")).toBe("captured")
  })

  it("PENDING short stays pending whatever the tolerance: the customer may still send the rest", () => {
    const a = assessPayment({ ...expired("0.00995"), status: "PENDING" }, payment, { underpaymentTolerancePercent: 5 })
    expect(a.outcome).toBe("pending")
    expect(a.short).toBeUndefined()
  })
})

describe("decisions under the merchant's policy", () => {
  const awaiting: StoreSideState = {
    ...ownSession,
    orderId: "order_1",
    orderStatus: "pending",
  }
  const windowOver = { ...awaiting, lateWindowOver: true }
  const orderCollection = { ...awaiting, orderCollection: true }
  const flag: DecisionPolicy = { quoteDriftAlertPercent: 2, latePayments: "flag" }
  const fulfil: DecisionPolicy = { quoteDriftAlertPercent: 2, latePayments: "fulfil" }
  const assess = (received: string, confirmations: number, percent: number) =>
    assessPayment(expired(received, confirmations), payment, { underpaymentTolerancePercent: percent })
  const failed = assessPayment({ ...expired("0"), status: "FAILED" }, payment)

  it.each<[string, ReturnType<typeof assess>, StoreSideState, DecisionPolicy, object]>([
    [
      "accepted short: captured, flagged accepted_short (not underpaid), nothing owed",
      assess("0.00995", 3, 1),
      awaiting,
      flag,
      { action: "capture", settled: true, flags: { accepted_short: true } },
    ],
    [
      "accepted short on an order collection: that session is captured",
      assess("0.00995", 3, 1),
      orderCollection,
      flag,
      { action: "capture", flags: { accepted_short: true } },
    ],
    [
      "short within the tolerance, confirming: kept awaiting, read until the window ends",
      assess("0.00995", 1, 1),
      awaiting,
      flag,
      { action: "none", settled: false, holdUntilWindowEnd: true, flags: {} },
    ],
    [
      "short within the tolerance, still unconfirmed when the window ended: canceled as expired",
      assess("0.00995", 1, 1),
      windowOver,
      flag,
      { action: "cancel_order", flags: { underpaid: true } },
    ],
    [
      "short beyond the tolerance, flag: the awaiting order is canceled",
      assess("0.00995", 3, 0),
      awaiting,
      flag,
      { action: "cancel_order", flags: { underpaid: true } },
    ],
    [
      "expired, fulfil, window open: the order stays awaiting, read again by the window's end",
      assess("0", 0, 0),
      awaiting,
      fulfil,
      { action: "none", settled: false, watchLate: true, holdUntilWindowEnd: true },
    ],
    [
      "failed, fulfil, window open: the order stays awaiting too",
      failed,
      awaiting,
      fulfil,
      { action: "none", settled: false, watchLate: true, holdUntilWindowEnd: true },
    ],
    [
      "expired, fulfil, window over: the order is canceled",
      assess("0", 0, 0),
      windowOver,
      fulfil,
      { action: "cancel_order", sessionId: "payses_1" },
    ],
    [
      "expired, fulfil, an order collection: only its session closes, never the order",
      assess("0", 0, 0),
      orderCollection,
      fulfil,
      { action: "cancel_session" },
    ],
    [
      "expired, fulfil, no order yet (after_payment): the session closes",
      assess("0", 0, 0),
      { ...awaiting, orderId: undefined, orderStatus: undefined },
      fulfil,
      { action: "cancel_session" },
    ],
  ])("%s", (_name, a, store, policy, expected) => {
    const decision = decideAction(a, store, policy)
    expect(decision).toMatchObject(expected)
    if ((expected as { flags?: object }).flags) expect(decision.flags).toEqual((expected as { flags: object }).flags)
  })

  it("a late payment inside a fulfil window is an ordinary capture: no paid_late flag, nothing owed", () => {
    const completed = assessPayment(
      { ...expired("0.01"), status: "COMPLETED", completedAt: new Date().toISOString() } as StatusRecord,
      payment
    )
    const decision = decideAction(completed, awaiting, fulfil)
    expect(decision).toMatchObject({ action: "capture", flags: {} })
    expect(decision.owed).toBeUndefined()
  })

  it("the accepted-short note names the shortfall and the tolerance", () => {
    expect(decideAction(assess("0.00995", 3, 1), awaiting, flag).note).toBe(
      "Accepted short: 0.00995000 of 0.01000000 BTC arrived, 0.00005000 short, within the 1 % underpayment tolerance."
    )
  })
})

describe("the policy in force", () => {
  const defaults: MerchantPolicy = { underpaymentTolerancePercent: 0, latePayments: "flag" }

  it.each<[string, Parameters<typeof effectivePolicy>[1], MerchantPolicy]>([
    ["nothing saved: the options", undefined, defaults],
    [
      "both saved",
      { underpayment_tolerance_bp: 50, late_payments: "fulfil" },
      { underpaymentTolerancePercent: 0.5, latePayments: "fulfil" },
    ],
    [
      "one saved, the other from the options",
      { underpayment_tolerance_bp: null, late_payments: "fulfil" },
      { ...defaults, latePayments: "fulfil" },
    ],
    ["a saved 0 wins over a non-zero option", { underpayment_tolerance_bp: 0, late_payments: null }, defaults],
    ["a value out of range is ignored", { underpayment_tolerance_bp: 900, late_payments: "keep" }, defaults],
  ])("%s", (_name, saved, expected) => {
    expect(effectivePolicy(defaults, saved)).toEqual(expected)
    expect(
      effectivePolicy(
        { ...defaults, underpaymentTolerancePercent: 2 },
        { underpayment_tolerance_bp: 0, late_payments: null }
      ).underpaymentTolerancePercent
    ).toBe(0)
  })

  it.each([
    [0, true],
    [0.5, true],
    [5, true],
    [0.01, true],
    [0.125, false],
    [5.01, false],
    [-0.5, false],
  ])("tolerance %p valid: %p", (value, valid) => {
    expect(tolerancePercentSchema.safeParse(value).success).toBe(valid)
  })
})
