import { ownSession } from "./store-side"
import { decideAction } from "../payment-decision"
import { StoreSideState } from "../decision-terms"
import {
  assessPayment,
  driftPercentText,
  PaymentAssessment,
  SessionExpectation,
  sessionStatusFor,
  withEarlierPayments,
} from "../payment-assessment"
import type { StatusRecord } from "../../crypto-api/schemas"

const payment: SessionExpectation = { paymentId: "pay_1", kind: "payment", coin: "BTC", cryptoAmount: "0.00038462" }
const invoice: SessionExpectation = {
  paymentId: "inv_1",
  kind: "invoice",
  quotes: { BTC: "0.00038462", ETH: "0.00769231" },
}

function record(overrides: Partial<StatusRecord>): StatusRecord {
  return {
    paymentId: "pay_1",
    status: "PENDING",
    currentBalance: "0",
    confirmations: 0,
    requiredAmount: "0.00038462",
    currency: "BTC",
    ...overrides,
  } as StatusRecord
}

/** A session's own payment, current and open, for a 25 USD cart. */
const own: StoreSideState = ownSession
const awaiting = { ...own, orderId: "order_1", orderStatus: "pending" }

describe("assessPayment: status record + session expectation → outcome", () => {
  it.each([
    [
      "COMPLETED with the full amount",
      payment,
      record({ status: "COMPLETED", currentBalance: "0.00038462", confirmations: 3 }),
      "paid",
    ],
    ["COMPLETED overpaid", payment, record({ status: "COMPLETED", currentBalance: "0.001", confirmations: 3 }), "paid"],
    ["PENDING nothing received", payment, record({}), "pending"],
    ["PENDING confirming", payment, record({ currentBalance: "0.00038462", confirmations: 1 }), "pending"],
    ["EXPIRED", payment, record({ status: "EXPIRED" }), "expired"],
    ["FAILED", payment, record({ status: "FAILED" }), "failed"],
    [
      "COMPLETED but short of the amount",
      payment,
      record({ status: "COMPLETED", currentBalance: "0.0003", confirmations: 3 }),
      "mismatch",
    ],
    [
      "COMPLETED for another payment",
      payment,
      record({ paymentId: "pay_2", status: "COMPLETED", currentBalance: "1" }),
      "mismatch",
    ],
    [
      "COMPLETED in another coin",
      payment,
      record({ status: "COMPLETED", currency: "LTC", currentBalance: "1" }),
      "mismatch",
    ],
    [
      "COMPLETED with less than agreed, the service's own required amount received (re-priced)",
      payment,
      record({ status: "COMPLETED", requiredAmount: "0.0001", currentBalance: "0.0001" }),
      "paid",
    ],
    [
      "COMPLETED where the service asks for nothing",
      payment,
      record({ status: "COMPLETED", requiredAmount: "0", currentBalance: "0" }),
      "mismatch",
    ],
    [
      "COMPLETED with an unknown coin",
      payment,
      record({ status: "COMPLETED", currency: "DOGE", currentBalance: "1" }),
      "mismatch",
    ],
    ["COMPLETED with a garbage amount", payment, record({ status: "COMPLETED", currentBalance: "lots" }), "mismatch"],
    [
      "invoice, no coin chosen yet (absent)",
      invoice,
      record({ paymentId: "inv_1", currency: undefined, address: undefined, requiredAmount: "25.00" }),
      "pending",
    ],
    [
      "invoice, no coin chosen yet (null)",
      invoice,
      record({ paymentId: "inv_1", currency: null, address: null }),
      "pending",
    ],
    [
      "invoice expired before a coin was chosen",
      invoice,
      record({ paymentId: "inv_1", currency: null, status: "EXPIRED" }),
      "expired",
    ],
    [
      "invoice COMPLETED without a coin",
      invoice,
      record({ paymentId: "inv_1", currency: null, status: "COMPLETED" }),
      "mismatch",
    ],
    [
      "invoice paid in ETH at the quote",
      invoice,
      record({
        paymentId: "inv_1",
        currency: "ETH",
        status: "COMPLETED",
        requiredAmount: "0.00769231",
        currentBalance: "0.00769231",
        confirmations: 12,
      }),
      "paid",
    ],
    [
      "invoice re-priced down at coin choice, paid what the service asked",
      invoice,
      record({
        paymentId: "inv_1",
        currency: "ETH",
        status: "COMPLETED",
        requiredAmount: "0.007",
        currentBalance: "0.007",
        confirmations: 12,
      }),
      "paid",
    ],
    [
      "invoice re-priced up at coin choice, only the quote received",
      invoice,
      record({
        paymentId: "inv_1",
        currency: "ETH",
        status: "COMPLETED",
        requiredAmount: "0.008",
        currentBalance: "0.00769231",
        confirmations: 12,
      }),
      "mismatch",
    ],
    [
      "invoice in a coin without a quote, at the service's amount",
      invoice,
      record({
        paymentId: "inv_1",
        currency: "LTC",
        status: "COMPLETED",
        requiredAmount: "0.3",
        currentBalance: "0.3",
        confirmations: 6,
      }),
      "paid",
    ],
  ])("%s → %s", (_, expected, status, outcome) => {
    expect(assessPayment(status, expected).outcome).toBe(outcome)
  })

  it("reports under- and overpayment with received vs required at the coin's precision", () => {
    const under = assessPayment(record({ currentBalance: "0.0002" }), payment)
    expect(under).toMatchObject({
      underpaid: true,
      overpaid: false,
      received: "0.00020000",
      required: "0.00038462",
      requiredConfirmations: 3,
    })
    const over = assessPayment(record({ status: "COMPLETED", currentBalance: "0.0005", confirmations: 3 }), payment)
    expect(over).toMatchObject({ outcome: "paid", overpaid: true, underpaid: false, received: "0.00050000" })
  })

  it("takes the service's own required amount, and reports how far it drifted from the creation quote", () => {
    const up = assessPayment(
      record({ requiredAmount: "0.0005", currentBalance: "0.00038462", status: "COMPLETED", confirmations: 3 }),
      payment
    )
    expect(up).toMatchObject({
      outcome: "mismatch",
      required: "0.00050000",
      quoteDrift: { coin: "BTC", quoted: "0.00038462", required: "0.00050000", basisPoints: 2999 },
    })
    const down = assessPayment(
      record({
        paymentId: "inv_1",
        currency: "ETH",
        status: "COMPLETED",
        requiredAmount: "0.0074",
        currentBalance: "0.0074",
        confirmations: 12,
      }),
      invoice
    )
    expect(down).toMatchObject({ outcome: "paid", quoteDrift: { quoted: "0.00769231", basisPoints: -380 } })
    expect(driftPercentText(-379)).toBe("-3.79")
    expect(driftPercentText(2999)).toBe("29.99")
    expect(driftPercentText(5)).toBe("0.05")
    const same = assessPayment(record({ status: "COMPLETED", currentBalance: "0.00038462", confirmations: 3 }), payment)
    expect(same.quoteDrift).toBeUndefined()
  })

  it("rounds what was received down and what is required up, never counting a fraction twice", () => {
    // 9 digits: the ninth is dropped from what arrived, and added to what is asked
    const a = assessPayment(
      record({
        status: "COMPLETED",
        requiredAmount: "0.000384615",
        currentBalance: "0.000384619",
        confirmations: 3,
      }),
      payment
    )
    expect(a).toMatchObject({ received: "0.00038461", required: "0.00038462", outcome: "mismatch", underpaid: true })
  })

  it("explains every mismatch", () => {
    const a = assessPayment(record({ paymentId: "pay_2", status: "COMPLETED" }), payment)
    expect(a.reason).toBe("the status record names another payment")
  })
})

describe("sessionStatusFor: outcome → Medusa session status", () => {
  it.each([
    ["paid", "before_payment", "captured"],
    ["paid", "after_payment", "captured"],
    ["pending", "before_payment", "pending_authorization"],
    ["pending", "after_payment", "pending"],
    ["mismatch", "before_payment", "pending_authorization"],
    ["mismatch", "after_payment", "pending"],
    ["expired", "before_payment", "canceled"],
    ["failed", "after_payment", "error"],
  ] as const)("%s with %s → %s", (outcome, placeOrder, status) => {
    expect(sessionStatusFor(outcome, placeOrder)).toBe(status)
  })
})

describe("decideAction: assessment + store side → what to do", () => {
  const paid = assessPayment(record({ status: "COMPLETED", currentBalance: "0.00038462", confirmations: 3 }), payment)
  const overpaid = assessPayment(record({ status: "COMPLETED", currentBalance: "0.001", confirmations: 3 }), payment)
  const pending = assessPayment(record({}), payment)
  const underpaid = assessPayment(record({ currentBalance: "0.0001" }), payment)
  const expired = assessPayment(record({ status: "EXPIRED" }), payment)
  const expiredShort = assessPayment(record({ status: "EXPIRED", currentBalance: "0.0001" }), payment)
  const failed = assessPayment(record({ status: "FAILED" }), payment)
  const mismatch = assessPayment(record({ status: "COMPLETED", currentBalance: "0.0001", confirmations: 3 }), payment)

  const noOrder = own
  const capturedOrder = { ...awaiting, capturedByThis: true }
  // Medusa captured it, the run failed before the order recorded the capture
  const capturedUnrecorded = { ...capturedOrder, captureUnrecorded: "payses_1" }
  const canceledOrder = { ...own, sessionOpen: false, orderId: "order_1", orderStatus: "canceled" }
  const closedSession = { ...own, sessionOpen: false }
  const replaced = { ...awaiting, current: false, targetSessionId: "payses_2" }
  const replacedShort = { ...replaced, covers: false }
  const replacedNoTarget = { ...replaced, targetSessionId: undefined }
  const paidByOther = { ...awaiting, paidByOther: true }
  // a collection Medusa made on a paid order (order edit, claim, exchange): its payment never touches the order
  const orderEdit = { ...awaiting, orderStatus: "pending", orderCollection: true }

  it.each([
    ["paid, order awaiting", paid, awaiting, "capture", true, {}],
    ["paid, no order yet", paid, noOrder, "capture", true, {}],
    ["paid, already captured by it", paid, capturedOrder, "none", true, {}],
    ["paid, captured by it but not recorded on its order", paid, capturedUnrecorded, "capture", true, {}],
    ["expired, captured by it but not recorded on its order", expired, capturedUnrecorded, "none", true, {}],
    ["overpaid, already captured by it", overpaid, capturedOrder, "none", true, { overpaid: true }],
    ["paid after the order was canceled", paid, canceledOrder, "none", true, { paid_late: true }],
    ["paid after the session was closed", paid, closedSession, "none", true, { paid_late: true }],
    ["paid, order paid by another payment", paid, paidByOther, "none", true, { paid_twice: true }],
    ["paid for a replaced session, covering the order", paid, replaced, "capture", true, { replaced_session: true }],
    [
      "paid for a replaced session, short of the order",
      paid,
      replacedShort,
      "none",
      true,
      { replaced_session: true, underpaid: true },
    ],
    [
      "paid for a replaced session, nothing to capture with",
      paid,
      replacedNoTarget,
      "none",
      true,
      { replaced_session: true },
    ],
    ["expired, order awaiting", expired, awaiting, "cancel_order", false, {}],
    ["expired, no order", expired, noOrder, "cancel_session", false, {}],
    ["expired, session already closed", expired, closedSession, "none", false, {}],
    ["expired, already captured (never downgraded)", expired, capturedOrder, "none", true, {}],
    // nothing arrived for a replaced session: it leaves the due index (issue 32, item 10)
    ["expired, replaced, nothing received (the order waits for the new payment)", expired, replaced, "none", true, {}],
    ["expired short, replaced (watched for the rest)", expiredShort, replaced, "none", false, { underpaid: true }],
    ["expired, order edit's collection (the order is left alone)", expired, orderEdit, "cancel_session", false, {}],
    ["failed, order edit's collection", failed, orderEdit, "cancel_session", true, {}],
    ["paid, order edit's collection", paid, orderEdit, "capture", true, {}],
    ["failed, order awaiting", failed, awaiting, "cancel_order", true, {}],
    ["failed, no order", failed, noOrder, "cancel_session", true, {}],
    ["pending", pending, awaiting, "none", false, {}],
    ["pending underpaid", underpaid, awaiting, "none", false, { underpaid: true }],
    ["completed short (mismatch)", mismatch, awaiting, "none", false, { mismatch: true, underpaid: true }],
  ] as const)("%s → %s", (_, assessment, store, action, settled, flags) => {
    const decision = decideAction(assessment, store)
    expect(decision).toMatchObject({ action, settled })
    expect(decision.flags).toEqual(flags)
  })

  it("captures a replaced payment into the session that replaced it", () => {
    expect(decideAction(paid, replaced)).toMatchObject({
      sessionId: "payses_2",
      note: expect.stringMatching(/^Paid for a replaced payment: .* covers order order_1, captured with it/),
    })
  })

  it("watches an expired payment for a late one; a failed one is final", () => {
    expect(decideAction(expired, awaiting).watchLate).toBe(true)
    expect(decideAction(failed, awaiting).watchLate).toBe(false)
  })

  it("explains what the admin must look at", () => {
    expect(decideAction(paid, canceledOrder).attention).toMatch(
      /^Paid late: 0\.00038462 BTC arrived after the order was canceled/
    )
    expect(decideAction(underpaid, awaiting).attention).toBe("Underpaid so far: 0.00010000 of 0.00038462 BTC.")
    expect(decideAction(expiredShort, awaiting).attention).toMatch(
      /^Underpaid and expired: 0\.00010000 of 0\.00038462 BTC/
    )
    expect(decideAction(mismatch, awaiting).attention).toBe(
      "Not accepted as paid: completed with less than the required amount."
    )
    expect(decideAction(expired, capturedOrder).attention).toMatch(/already captured; nothing was changed/)
    expect(decideAction(paid, awaiting).attention).toBeUndefined()
    expect(decideAction(paid, paidByOther).attention).toMatch(
      /^Paid twice: 0\.00038462 BTC arrived for order order_1 that another payment had already paid/
    )
    expect(decideAction(paid, replacedShort).attention).toMatch(
      /^Underpaid: 0\.00038462 BTC arrived for a replaced payment that does not cover order order_1/
    )
  })

  describe("money beyond what the order took is owed, also after the capture", () => {
    it("owes the excess of an overpaid payment, when captured and on every later read", () => {
      expect(decideAction(overpaid, awaiting)).toMatchObject({
        action: "capture",
        owed: { kind: "excess", coins: "0.00061538" },
      })
      expect(decideAction(overpaid, capturedOrder).owed).toEqual({ kind: "excess", coins: "0.00061538" })
      expect(decideAction(paid, capturedOrder).owed).toBeUndefined()
    })

    it("keeps an excess below what the shop can send back (ETH: 8 places) as rounding: never owes 0.00000000 ETH", () => {
      const eth: SessionExpectation = {
        paymentId: "pay_1",
        kind: "payment",
        coin: "ETH",
        cryptoAmount: "0.041234567890123456",
      }
      const ethRecord = (currentBalance: string) =>
        record({
          status: "COMPLETED",
          currency: "ETH",
          requiredAmount: "0.041234567890123456",
          currentBalance,
          confirmations: 12,
        })
      const dust = decideAction(assessPayment(ethRecord("0.041234568560123456"), eth), awaiting)
      expect(dust).toMatchObject({ action: "capture", rounding: "0.00000000067", flags: {} })
      expect(dust.owed).toBeUndefined()
      const unit = decideAction(assessPayment(ethRecord("0.041234577890123456"), eth), awaiting)
      expect(unit).toMatchObject({ owed: { kind: "excess", coins: "0.00000001" }, flags: { overpaid: true } })
    })

    describe("an amount the service wrote at more places than the chain has (USDT on Ethereum: 6)", () => {
      const usdt: SessionExpectation = {
        paymentId: "pay_1",
        kind: "payment",
        coin: "USDT_ERC20",
        cryptoAmount: "49.123456789",
      }
      const usdtRecord = (currentBalance: string) =>
        record({
          status: "COMPLETED",
          currency: "USDT_ERC20",
          requiredAmount: "49.123456789",
          currentBalance,
          confirmations: 12,
        })

      it("keeps what the wallet rounded up to the chain's unit as rounding: not overpaid, nothing owed", () => {
        const rounded = assessPayment(usdtRecord("49.123457"), usdt)
        expect(rounded).toMatchObject({ outcome: "paid", overpaid: false, covered: true })
        const decision = decideAction(rounded, awaiting)
        expect(decision).toMatchObject({ action: "capture", rounding: "0.000000211", flags: {} })
        expect(decision.owed).toBeUndefined()
        expect(decideAction(rounded, capturedOrder)).toMatchObject({ action: "none", rounding: "0.000000211" })
      })

      it("owes all of an excess of a chain unit or more, the sub-unit part with it", () => {
        const over = assessPayment(usdtRecord("49.123458"), usdt)
        expect(over.overpaid).toBe(true)
        const decision = decideAction(over, awaiting)
        expect(decision).toMatchObject({ owed: { kind: "excess", coins: "0.000001211" }, flags: { overpaid: true } })
        expect(decision.rounding).toBeUndefined()
      })
    })

    it("owes what an older, dearer invoice paid beyond the cheaper cart it was captured for", () => {
      // $100 of coins arrived for an $80 cart: the order took 80 % of the coins
      const dear = assessPayment(
        record({ status: "COMPLETED", requiredAmount: "0.001", currentBalance: "0.001", confirmations: 3 }),
        { ...payment, cryptoAmount: "0.001" }
      )
      const cheaper = { ...replaced, base: { amount: "100.00", currency: "USD" as const }, takenBase: "80.00" }
      expect(decideAction(dear, cheaper)).toMatchObject({
        action: "capture",
        flags: { overpaid: true, replaced_session: true },
        owed: { kind: "excess", coins: "0.00020000" },
      })
    })

    it("owes all of a second payment, and all of a late one", () => {
      expect(decideAction(paid, paidByOther).owed).toEqual({ kind: "excess", coins: "0.00038462" })
      expect(decideAction(paid, canceledOrder).owed).toEqual({ kind: "late", coins: "0.00038462" })
    })
  })

  describe("re-priced invoices", () => {
    const repriced = (required: string) =>
      assessPayment(
        record({
          paymentId: "inv_1",
          currency: "BTC",
          status: "COMPLETED",
          requiredAmount: required,
          currentBalance: required,
          confirmations: 3,
        }),
        invoice
      )
    it.each([
      ["2 % down, at the alert", "0.00037693", 2, false],
      ["just beyond 2 % down", "0.00037692", 2, true],
      ["5 % up", "0.00040386", 2, true],
      ["5 % up, alert at 10 %", "0.00040386", 10, false],
    ])("%s → captured, quote_drift %s", (_, required, alertPercent, flagged) => {
      const decision = decideAction(repriced(required), awaiting, { quoteDriftAlertPercent: alertPercent })
      expect(decision.action).toBe("capture")
      expect(!!decision.flags.quote_drift).toBe(flagged)
      expect(decision.attention).toBeUndefined()
    })
  })
})

describe("every coin accounted for (issue 32)", () => {
  const fulfil = { quoteDriftAlertPercent: 2, latePayments: "fulfil" as const }
  const flag = { quoteDriftAlertPercent: 2, latePayments: "flag" as const }
  const full = { status: "EXPIRED" as const, currentBalance: "0.00038462", confirmations: 3 }

  it("2. late coins that also pay the next attempt: once owed as late, they never capture the customer's new session", () => {
    const paid = assessPayment(record({ status: "COMPLETED", currentBalance: "0.00038462", confirmations: 3 }), payment)
    // session closed at expiry, coins after; the customer started again on the same cart (a new session)
    const startedAgain = { ...own, current: false, targetSessionId: "payses_2" }
    expect(decideAction(paid, startedAgain)).toMatchObject({ action: "capture", sessionId: "payses_2" })
    const decision = decideAction(paid, { ...startedAgain, owedLate: true })
    expect(decision).toMatchObject({ action: "none", flags: { paid_late: true }, owed: { kind: "late" } })
  })

  describe("3. EXPIRED with money", () => {
    it("full and confirmed under fulfil inside the window: captured (excess owed as on COMPLETED)", () => {
      const a = assessPayment(record(full), payment, { acceptsLate: true })
      expect(a).toMatchObject({ outcome: "paid", late: true })
      expect(decideAction(a, awaiting, fulfil)).toMatchObject({ action: "capture", sessionId: "payses_1" })
      const over = assessPayment(record({ ...full, currentBalance: "0.0005" }), payment, { acceptsLate: true })
      expect(decideAction(over, awaiting, fulfil)).toMatchObject({
        action: "capture",
        owed: { kind: "excess", coins: "0.00011538" },
      })
    })

    it("full and confirmed under flag: paid_late and a late owed record, the awaiting order canceled", () => {
      const a = assessPayment(record(full), payment)
      expect(a.outcome).toBe("expired")
      expect(decideAction(a, awaiting, flag)).toMatchObject({
        action: "cancel_order",
        settled: true,
        flags: { paid_late: true },
        owed: { kind: "late", coins: "0.00038462" },
      })
      // the order canceled already: flagged and owed, nothing else
      const canceled = { ...awaiting, sessionOpen: false, orderStatus: "canceled" }
      expect(decideAction(a, canceled, flag)).toMatchObject({
        action: "none",
        flags: { paid_late: true },
        owed: { kind: "late", coins: "0.00038462" },
      })
    })

    it("full and confirmed on an order collection: flagged and owed, the order never touched", () => {
      const a = assessPayment(record(full), payment, { acceptsLate: true })
      const orderEdit = { ...awaiting, orderCollection: true }
      expect(decideAction(a, orderEdit, fulfil)).toMatchObject({
        action: "cancel_session",
        flags: { paid_late: true },
        owed: { kind: "late" },
      })
    })

    it("short with coins on a canceled order or a closed session: owed as late", () => {
      const short = assessPayment(record({ status: "EXPIRED", currentBalance: "0.0001", confirmations: 3 }), payment)
      for (const store of [
        { ...awaiting, sessionOpen: false, orderStatus: "canceled" },
        { ...own, sessionOpen: false },
      ])
        expect(decideAction(short, store, flag)).toMatchObject({ owed: { kind: "late", coins: "0.00010000" } })
      // the decision that cancels the order owes them in the same run
      expect(decideAction(short, awaiting, flag)).toMatchObject({
        action: "cancel_order",
        owed: { kind: "late", coins: "0.00010000" },
      })
      // held under fulfil: nothing owed while the order waits
      expect(decideAction(short, awaiting, fulfil).owed).toBeUndefined()
    })
  })

  it("4. wei precision: an exact 18-decimal ETH payment is paid, not short", () => {
    const eth: SessionExpectation = {
      paymentId: "pay_1",
      kind: "payment",
      coin: "ETH",
      cryptoAmount: "0.033333333333333333",
    }
    const exact = record({
      status: "COMPLETED",
      currency: "ETH",
      requiredAmount: "0.033333333333333333",
      currentBalance: "0.033333333333333333",
      confirmations: 12,
    })
    expect(assessPayment(exact, eth)).toMatchObject({
      outcome: "paid",
      underpaid: false,
      received: "0.033333333333333333",
      required: "0.033333333333333333",
    })
    // one wei short is short
    expect(
      assessPayment(record({ ...exact, status: "PENDING", currentBalance: "0.033333333333333332" }), eth)
    ).toMatchObject({ outcome: "pending", underpaid: true })
  })

  it("5. a short payment that completes after its remainder paid owes only what both sent beyond the amount", () => {
    // 90 % paid, the remainder (10 %) captured the session; then the first payment completes with 100 %
    const completed = assessPayment(
      record({ status: "COMPLETED", currentBalance: "0.00038462", confirmations: 3 }),
      payment
    )
    const decision = decideAction(completed, {
      ...own,
      completedByRemainder: true,
      remainderReceived: "0.00003847",
      paidByOther: true,
    })
    expect(decision).toMatchObject({ action: "none", owed: { kind: "excess", coins: "0.00003847" } })
    expect(decision.flags.paid_twice).toBeUndefined()
  })

  it("1. a remainder judged with its first payment keeps its own amounts for its row and what it owes alone", () => {
    const first = assessPayment(record({ status: "EXPIRED", currentBalance: "0.0003", confirmations: 3 }), payment)
    const rest = assessPayment(
      record({
        paymentId: "pay_2",
        status: "COMPLETED",
        currentBalance: "0.00008462",
        requiredAmount: "0.00008462",
        confirmations: 3,
      }),
      { paymentId: "pay_2", kind: "payment", coin: "BTC", cryptoAmount: "0.00008462" }
    )
    const pair = withEarlierPayments(rest, first)
    expect(pair).toMatchObject({
      outcome: "paid",
      received: "0.00038462",
      required: "0.00038462",
      own: { received: "0.00008462", required: "0.00008462" },
    })
    // the remainder paid a session another payment had paid: only its own coins are owed back
    const twice = decideAction(pair, { ...own, remainder: true, paidByOther: true })
    expect(twice.owed).toEqual({ kind: "excess", coins: "0.00008462" })
    // its capture completes the first payment (its late records withdrawn), the pair's excess on the first
    const over = withEarlierPayments({ ...rest, received: "0.0001" }, first)
    expect(decideAction(over, { ...own, remainder: true })).toMatchObject({
      action: "capture",
      completesFirst: true,
      owed: { kind: "excess", coins: "0.00001538", pair: true },
    })
  })

  it("7. a remainder pair 0.1 % short under a 1 % tolerance is paid, accepted short, like a single payment", () => {
    // pay_1 asked 0.01 BTC, 0.004 arrived and it expired; its remainder asked 0.006 and got 0.00599
    const first = assessPayment(
      record({ status: "EXPIRED", currentBalance: "0.004", requiredAmount: "0.01", confirmations: 3 }),
      { ...payment, cryptoAmount: "0.01" }
    )
    const rest = assessPayment(
      record({
        paymentId: "pay_2",
        status: "EXPIRED",
        currentBalance: "0.00599",
        requiredAmount: "0.006",
        confirmations: 3,
      }),
      { paymentId: "pay_2", kind: "payment", coin: "BTC", cryptoAmount: "0.006" }
    )
    const pair = withEarlierPayments(rest, first, [], 1)
    expect(pair).toMatchObject({
      outcome: "paid",
      received: "0.00999000",
      required: "0.01000000",
      short: { shortfall: "0.00001000", tolerancePercent: 1, confirmed: true },
      own: { received: "0.00599000" },
    })
    expect(decideAction(pair, { ...awaiting, remainder: true })).toMatchObject({
      action: "capture",
      completesFirst: true,
      flags: { accepted_short: true },
    })
    // beyond the tolerance, or with a coin unconfirmed, it is not paid
    expect(withEarlierPayments(rest, first, [], 0.05).outcome).toBe("expired")
    expect(withEarlierPayments({ ...rest, confirmed: false }, first, [], 1).outcome).toBe("pending")
  })

  it("7. the full amount still confirming after the window keeps being read until it is decided", () => {
    const confirming = assessPayment(
      record({ status: "EXPIRED", currentBalance: "0.00038462", confirmations: 1 }),
      payment
    )
    const decision = decideAction(confirming, { ...awaiting, lateWindowOver: true })
    expect(decision).toMatchObject({ settled: false, untilConfirmed: true })
    expect(decision.owed).toBeUndefined()
  })

  it("every coin owed when nothing can take it: a replaced payment's short coins, a capture with no order", () => {
    const short = assessPayment(record({ status: "EXPIRED", currentBalance: "0.0001", confirmations: 3 }), payment)
    expect(decideAction(short, { ...own, current: false, targetSessionId: "payses_2" }).owed).toEqual({
      kind: "late",
      coins: "0.00010000",
    })
    expect(decideAction(short, { ...awaiting, paidByOther: true }).owed).toEqual({ kind: "late", coins: "0.00010000" })
    const more = assessPayment(record({ status: "COMPLETED", currentBalance: "0.0005", confirmations: 3 }), payment)
    expect(decideAction(more, { ...own, capturedByThis: true, capturedNoOrder: true })).toMatchObject({
      action: "none",
      owed: { kind: "late", coins: "0.00050000" },
    })
  })

  it("a no-order claim that meets an order is withdrawn, unless its coins are leaving: paid once, never also owed", () => {
    const paidInFull = assessPayment(record({ status: "COMPLETED", confirmations: 3 }), payment)
    const met = { ...awaiting, capturedByThis: true, claimMeetsOrder: true }
    const withdrawn = decideAction(paidInFull, met)
    expect(withdrawn).toMatchObject({ action: "none", captured: true, settled: true, withdrawNoOrderClaim: true })
    expect(withdrawn.owed).toBeUndefined()
    expect(withdrawn.attention).toBeUndefined()
    // what arrived beyond the amount is still owed, as for any paid order
    const more = assessPayment(record({ status: "COMPLETED", currentBalance: "0.0005", confirmations: 3 }), payment)
    expect(decideAction(more, met).owed).toMatchObject({ kind: "excess" })
    const leaving = decideAction(paidInFull, { ...met, claimUnderway: true })
    expect(leaving.withdrawNoOrderClaim).toBeUndefined()
    expect(leaving.attention).toMatch(/^Paid and sent back: order order_1 was placed/)
    // a claim that meets no order is the claim still
    expect(decideAction(more, { ...awaiting, capturedByThis: true, capturedNoOrder: true })).toMatchObject({
      owed: { kind: "late", coins: "0.00050000", noOrder: true },
    })
  })

  it("coins that arrive after an EXPIRED or FAILED payment was captured are owed back as excess, never dropped", () => {
    const more = assessPayment(record({ status: "EXPIRED", currentBalance: "0.0005", confirmations: 3 }), payment)
    const decision = decideAction(more, { ...awaiting, capturedByThis: true })
    expect(decision).toMatchObject({ action: "none", owed: { kind: "excess" }, flags: { overpaid: true } })
    expect(decision.attention).toMatch(/already captured; nothing was changed/)
  })

  it("10. an invoice that expired before a coin was chosen, or a replaced session's unpaid one, leaves the due index", () => {
    const noCoin = assessPayment(
      { paymentId: "inv_1", status: "EXPIRED", currentBalance: "0", confirmations: 0 } as StatusRecord,
      invoice
    )
    expect(decideAction(noCoin, own)).toMatchObject({ action: "cancel_session", settled: true, stopReading: true })
    const replacedUnpaid = assessPayment(record({ status: "EXPIRED" }), payment)
    expect(decideAction(replacedUnpaid, { ...own, current: false, targetSessionId: "payses_2" })).toMatchObject({
      action: "none",
      stopReading: true,
    })
    // one with coins stays watched
    const replacedShort = assessPayment(record({ status: "EXPIRED", currentBalance: "0.0001" }), payment)
    expect(decideAction(replacedShort, { ...own, current: false }).stopReading).toBeUndefined()
  })

  it("11. a cancel looks at every payment of the collection and the order's other collections", () => {
    const expired = assessPayment(record({ status: "EXPIRED" }), payment)
    // a replaced payment of the same cart is confirming the full amount: nothing canceled yet
    expect(decideAction(expired, { ...awaiting, othersConfirming: true }, flag)).toMatchObject({
      action: "none",
      settled: false,
    })
    // the order was paid through another collection: only this session closes
    expect(decideAction(expired, { ...awaiting, orderPaidElsewhere: true }, flag)).toMatchObject({
      action: "cancel_session",
    })
    expect(decideAction(expired, awaiting, flag)).toMatchObject({ action: "cancel_order" })
  })
})

describe("a remainder paid as the service asked completes its checkout, or the admin is told why not (issue 59, 4)", () => {
  // F asked 49.883721 USDT_ERC20 (46.00 EUR), 20 arrived and it expired: 29.883721 short
  const usdt = (paymentId: string, cryptoAmount: string): SessionExpectation => ({
    paymentId,
    kind: "payment",
    coin: "USDT_ERC20",
    cryptoAmount,
  })
  const first = (received = "20") =>
    assessPayment(
      record({
        status: "EXPIRED",
        currency: "USDT_ERC20",
        currentBalance: received,
        requiredAmount: "49.883721",
        confirmations: 12,
      }),
      usdt("pay_1", "49.883721")
    )
  /** The remainder, COMPLETED with what the service asked of it (its required amount as the service wrote it). */
  const remainder = (asked: string, confirmations = 12) =>
    assessPayment(
      record({
        paymentId: "pay_2",
        status: "COMPLETED",
        currency: "USDT_ERC20",
        currentBalance: asked,
        requiredAmount: asked,
        confirmations,
      }),
      usdt("pay_2", "29.883721")
    )

  it.each<[string, string, number, Partial<PaymentAssessment>]>([
    ["the shortfall itself", "29.883721", 0, { outcome: "paid", covered: true, underpaid: false }],
    [
      "the shortfall at the service's 2 places (0.003721 less)",
      "29.88",
      0,
      { outcome: "paid", covered: true, underpaid: false, received: "49.880000" },
    ],
    ["the shortfall rounded up at 2 places", "29.89", 0, { outcome: "paid", covered: true, underpaid: false }],
    [
      "one unit of its 6 places less",
      "29.883720",
      0,
      { outcome: "paid", covered: true, underpaid: false, received: "49.883720" },
    ],
    [
      "two units of its 6 places less",
      "29.883719",
      0,
      {
        outcome: "mismatch",
        covered: false,
        underpaid: true,
        remainderShort: { asked: "29.883719", shortfall: "29.883721", missing: "0.000002" },
      },
    ],
    [
      "a USDT price taken as USD, 0.014934 less, no tolerance",
      "29.868787",
      0,
      {
        outcome: "mismatch",
        remainderShort: { asked: "29.868787", shortfall: "29.883721", missing: "0.014934" },
        reason:
          "the remainder asked 29.868787 USDT_ERC20 where 29.883721 USDT_ERC20 was short; 0.014934 USDT_ERC20 of the 49.883721 USDT_ERC20 the first payment required is still missing",
      },
    ],
    [
      "a USDT price taken as USD, within a 0.03 % tolerance of the first payment's coins",
      "29.868787",
      0.03,
      { outcome: "paid", short: { shortfall: "0.014934", tolerancePercent: 0.03, confirmed: true } },
    ],
    [
      "a USDT price taken as USD, beyond a 0.02 % tolerance",
      "29.868787",
      0.02,
      { outcome: "mismatch", remainderShort: { asked: "29.868787", shortfall: "29.883721", missing: "0.014934" } },
    ],
  ])("asked %s: %#", (_, asked, tolerance, expected) => {
    const pair = withEarlierPayments(remainder(asked), first(), [], tolerance)
    expect(pair).toMatchObject({ ...expected, own: { received: expect.any(String), required: expect.any(String) } })
    if (expected.outcome !== "mismatch") expect(pair.remainderShort).toBeUndefined()
  })

  it("never completes on coins that are not there: the first payment's dropped, or one unconfirmed", () => {
    // a reorg took 0.1 of the first payment's coins: the pair is 0.1 short, however exactly the remainder was paid
    expect(withEarlierPayments(remainder("29.883721"), first("19.9"))).toMatchObject({
      outcome: "mismatch",
      remainderShort: { asked: "29.883721", shortfall: "29.983721", missing: "0.100000" },
    })
    // within the service's precision, but the remainder's coins are not confirmed yet: read until they are
    expect(withEarlierPayments(remainder("29.88", 3), first())).toMatchObject({
      outcome: "pending",
      covered: true,
      confirmed: false,
    })
  })

  it("a remainder flagged short tells the admin both figures; one completed by its own remainder is settled", () => {
    const pair = withEarlierPayments(remainder("29.868787"), first())
    const decision = decideAction(pair, { ...awaiting, remainder: true })
    expect(decision).toMatchObject({
      action: "none",
      settled: false,
      flags: { mismatch: true, underpaid: true },
      attention:
        "Remainder short: it asked 29.868787 USDT_ERC20, but 29.883721 USDT_ERC20 was short of the 49.883721 USDT_ERC20 the first payment required; 0.014934 USDT_ERC20 is still missing. Request the remainder of this payment for the rest, or refund what arrived from the service's dashboard.",
    })
    expect(decision.owed).toBeUndefined()
    // the admin requested the rest, which was paid and captured the session: nothing of it is owed, settled
    const completed = decideAction(pair, {
      ...own,
      remainder: true,
      current: false,
      completedByRemainder: true,
      remainderReceived: "0.014934",
    })
    expect(completed).toMatchObject({ action: "none", settled: true, completesFirst: true })
    expect(completed.owed).toBeUndefined()
    expect(completed.attention).toBeUndefined()
  })
})
