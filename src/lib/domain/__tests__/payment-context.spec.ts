import {
  CollectionSession,
  ContextPayment,
  ownCaptureOf,
  paymentContextOf,
  PaymentReading,
  SiblingPayment,
} from "../payment-context"
import type { StoreSideState } from "../decision-terms"

const NOW = new Date("2026-05-01T12:00:00.000Z")
const hours = (h: number) => new Date(NOW.getTime() + h * 3600_000)

/** pay_1, made for session payses_1 of a 25 USD collection. */
const payment: ContextPayment = {
  payment_id: "pay_1",
  session_id: "payses_1",
  payment_collection_id: "paycol_1",
  capture_session_id: null,
  remainder_of: null,
  status: "PENDING",
  settled: false,
  coin: "BTC",
  received_amount: "0",
  required_amount: "0.00038462",
  base_amount: "25.00",
  base_currency: "USD",
  expires_at: hours(1),
  watch_until: hours(25),
  captured_no_order: false,
}

const sibling = (fields: Partial<SiblingPayment>): SiblingPayment => ({ ...payment, ...fields })

const session = (fields: Partial<CollectionSession>): CollectionSession => ({
  id: "payses_1",
  status: "pending",
  amount: 25,
  currency_code: "usd",
  data: { paymentId: "pay_1" },
  created_at: hours(-1),
  payment: null,
  ...fields,
})

const capturedPayment = { id: "pay_medusa_1", captured_at: hours(-0.1), canceled_at: null }

/** refunds "disabled": the compensation could not refund pay_1's capture, which stands (Medusa counts it as paid). */
const claimedCollection = {
  amount: 25,
  currency_code: "usd",
  sessions: [session({ status: "authorized", payment: capturedPayment })],
  payments: [{ ...capturedPayment, payment_session_id: "payses_1" }],
}

/** Medusa's compensation refunded pay_1's capture and deleted its session payses_1, for a new one; no order. */
const noOrderCollection = {
  amount: 25,
  currency_code: "usd",
  sessions: [session({ id: "payses_2", created_at: hours(-0.05) })],
  payments: [{ ...capturedPayment, payment_session_id: "payses_1", amount: 25, refunds: [{ amount: 25 }] }],
}

type Reading = Partial<Omit<PaymentReading, "payment">> & { payment?: Partial<ContextPayment> }

function reading(r: Reading = {}): PaymentReading {
  const own = { ...payment, ...r.payment }
  return {
    inCart: true,
    siblings: [own],
    owed: [],
    collection: { amount: 25, currency_code: "usd", sessions: [session({})] },
    ...r,
    payment: own,
  }
}

const storeOf = (r: Reading, captureUnrecorded = false) =>
  paymentContextOf(reading(r), { captureUnrecorded, now: NOW }).store

describe("paymentContextOf: which session the payment's money would pay", () => {
  // pay_2 replaced pay_1 on session payses_2 (Medusa deleted payses_1 when the customer switched coin)
  const replaced: Reading = {
    siblings: [payment, sibling({ payment_id: "pay_2", session_id: "payses_2" })],
    collection: { amount: 25, currency_code: "usd", sessions: [session({ id: "payses_2", created_at: hours(-0.5) })] },
  }

  it.each<[string, Reading, Partial<StoreSideState>]>([
    [
      "its own session, open: current",
      {},
      { current: true, sessionOpen: true, targetSessionId: "payses_1", paidByOther: false, covers: true },
    ],
    [
      "its own session, canceled: current, closed",
      { collection: { amount: 25, currency_code: "usd", sessions: [session({ status: "canceled" })] } },
      { current: true, sessionOpen: false, targetSessionId: "payses_1" },
    ],
    [
      "its session is gone: not current, nothing to pay",
      { collection: { amount: 25, currency_code: "usd", sessions: [] } },
      { current: false, sessionOpen: false, capturedByThis: false },
    ],
    [
      "replaced by a newer payment: the cart's open crypto session",
      replaced,
      { current: false, sessionOpen: false, targetSessionId: "payses_2" },
    ],
    [
      "a newer payment on the same session: not current",
      { siblings: [payment, sibling({ payment_id: "pay_2" })] },
      { current: false, sessionOpen: true, targetSessionId: "payses_1" },
    ],
    [
      "the newest open crypto session is the target (a closed one is not)",
      {
        ...replaced,
        siblings: [
          ...(replaced.siblings ?? []),
          sibling({ payment_id: "pay_3", session_id: "payses_3" }),
          sibling({ payment_id: "pay_4", session_id: "payses_4" }),
        ],
        collection: {
          amount: 25,
          currency_code: "usd",
          sessions: [
            session({ id: "payses_2", created_at: hours(-0.5) }),
            session({ id: "payses_3", created_at: hours(-0.2) }),
            session({ id: "payses_4", status: "canceled", created_at: hours(-0.1) }),
          ],
        },
      },
      { targetSessionId: "payses_3" },
    ],
    [
      "another provider's session is never a target",
      {
        ...replaced,
        collection: {
          amount: 25,
          currency_code: "usd",
          sessions: [session({ id: "payses_stripe" })],
        },
      },
      { current: false },
    ],
  ])("%s", (_, r, expected) => {
    const store = storeOf(r)
    expect(store).toMatchObject(expected)
    if (!("targetSessionId" in expected)) expect(store.targetSessionId).toBeUndefined()
  })
})

describe("paymentContextOf: who paid", () => {
  const capturedOwn = { amount: 25, currency_code: "usd", sessions: [session({ payment: capturedPayment })] }

  it.each<[string, Reading, Partial<StoreSideState>]>([
    ["nothing captured", {}, { capturedByThis: false, paidByOther: false }],
    ["its own session captured", { collection: capturedOwn }, { capturedByThis: true, paidByOther: false }],
    [
      "a captured payment canceled since counts for nobody",
      {
        collection: {
          amount: 25,
          currency_code: "usd",
          sessions: [session({ payment: { ...capturedPayment, canceled_at: hours(-0.05) } })],
        },
      },
      { capturedByThis: false, paidByOther: false },
    ],
    [
      "another payment's session captured: paid by another",
      {
        siblings: [payment, sibling({ payment_id: "pay_2", session_id: "payses_2" })],
        collection: {
          amount: 25,
          currency_code: "usd",
          sessions: [session({}), session({ id: "payses_2", payment: capturedPayment })],
        },
      },
      { capturedByThis: false, paidByOther: true },
    ],
    [
      "its session claimed by another payment: paid by another",
      { siblings: [payment, sibling({ payment_id: "pay_0", session_id: "payses_0", capture_session_id: "payses_1" })] },
      { current: true, paidByOther: true },
    ],
    [
      "a session it claimed and captured is its own capture",
      {
        payment: { capture_session_id: "payses_2" },
        siblings: [
          { ...payment, capture_session_id: "payses_2" },
          sibling({ payment_id: "pay_2", session_id: "payses_2" }),
        ],
        collection: {
          amount: 25,
          currency_code: "usd",
          sessions: [
            session({ status: "canceled" }),
            session({ id: "payses_2", amount: 20, payment: capturedPayment }),
          ],
        },
      },
      { capturedByThis: true, paidByOther: false, takenBase: "20.00" },
    ],
  ])("%s", (_, r, expected) => {
    expect(storeOf(r)).toMatchObject(expected)
  })

  it.each<[string, Reading, boolean, string | undefined]>([
    ["its capture, unrecorded on the order", { collection: capturedOwn }, true, "payses_1"],
    ["its capture, recorded", { collection: capturedOwn }, false, undefined],
    ["no capture of its own: nothing unrecorded", {}, true, undefined],
  ])("captureUnrecorded: %s", (_, r, unrecorded, sessionId) => {
    expect(storeOf(r, unrecorded).captureUnrecorded).toBe(sessionId)
  })

  it.each<[string, Reading, ReturnType<typeof ownCaptureOf>]>([
    ["nothing captured", {}, undefined],
    ["its own session captured", { collection: capturedOwn }, { sessionId: "payses_1", paymentId: "pay_medusa_1" }],
  ])("ownCaptureOf: %s", (_, r, capture) => {
    expect(ownCaptureOf(reading(r))).toEqual(capture)
  })
})

describe("paymentContextOf: the order, the window and the money", () => {
  it.each<[string, Reading, Partial<StoreSideState>, string[]]>([
    ["no order", {}, { orderCollection: false }, ["orderId", "orderStatus", "orderPaidElsewhere"]],
    [
      "the checkout's order",
      { order: { id: "order_1", status: "pending", payment_collections: [{ id: "paycol_1", status: "not_paid" }] } },
      { orderId: "order_1", orderStatus: "pending", orderCollection: false },
      ["orderPaidElsewhere"],
    ],
    [
      "a collection made on an order (no cart): an order collection",
      { order: { id: "order_1", status: "completed" }, inCart: false },
      { orderCollection: true },
      [],
    ],
    [
      "the order paid through another collection",
      {
        order: {
          id: "order_1",
          status: "pending",
          payment_collections: [
            { id: "paycol_1", status: "not_paid" },
            { id: "paycol_0", status: "completed" },
          ],
        },
      },
      { orderPaidElsewhere: true },
      [],
    ],
    [
      "another collection of the order, not paid",
      { order: { id: "order_1", status: "pending", payment_collections: [{ id: "paycol_0", status: "canceled" }] } },
      {},
      ["orderPaidElsewhere"],
    ],
    ["inside the late-payment window", {}, { lateWindowOver: false }, []],
    ["past the late-payment window", { payment: { watch_until: hours(-1) } }, { lateWindowOver: true }, []],
    ["at its very end", { payment: { watch_until: NOW } }, { lateWindowOver: true }, []],
    ["no window to wait for", { payment: { watch_until: null } }, { lateWindowOver: true }, []],
    [
      "the base amount and what the session takes, at the store currency's precision",
      {},
      { base: { amount: "25.00", currency: "USD" }, takenBase: "25.00", covers: true },
      [],
    ],
    [
      "a yen cart compares yen",
      {
        payment: { base_amount: "2500", base_currency: "jpy" },
        collection: {
          amount: 2500,
          currency_code: "jpy",
          sessions: [session({ amount: 2500.4, currency_code: "jpy" })],
        },
      },
      { base: { amount: "2500", currency: "JPY" }, takenBase: "2500", covers: true },
      [],
    ],
    [
      "a cart that asks more now is not covered",
      { collection: { amount: 30, currency_code: "usd", sessions: [session({})] } },
      { covers: false },
      [],
    ],
    [
      "another currency is not covered",
      { collection: { amount: 25, currency_code: "eur", sessions: [session({})] } },
      { covers: false },
      [],
    ],
    ["no collection: nothing covered", { collection: undefined }, { covers: false, current: false }, ["takenBase"]],
    ["a currency Medusa does not know: no base", { payment: { base_currency: "XYZ" } }, { covers: false }, ["base"]],
    [
      "captured, no order: Medusa holds its capture (its session deleted by the compensation), the cart no order",
      { collection: { ...noOrderCollection } },
      { capturedNoOrder: true },
      ["claimMeetsOrder"],
    ],
    [
      "captured, no order: derived, whatever the ledger's flag says",
      { collection: { ...noOrderCollection }, payment: { captured_no_order: false } },
      { capturedNoOrder: true },
      [],
    ],
    [
      "a flag alone is no capture: Medusa holds none",
      { payment: { captured_no_order: true } },
      {},
      ["capturedNoOrder", "claimMeetsOrder"],
    ],
    [
      "a capture canceled in Medusa is no capture",
      {
        collection: {
          ...noOrderCollection,
          payments: [{ ...noOrderCollection.payments[0], canceled_at: hours(-0.05) }],
        },
      },
      {},
      ["capturedNoOrder"],
    ],
    [
      "another payment's capture is not this checkout's",
      {
        siblings: [payment, sibling({ payment_id: "pay_9", session_id: "payses_9" })],
        collection: {
          ...noOrderCollection,
          payments: [{ ...noOrderCollection.payments[0], payment_session_id: "payses_9" }],
        },
      },
      {},
      ["capturedNoOrder"],
    ],
    [
      "a remainder's read finds its first payment's capture",
      {
        payment: { payment_id: "pay_r", remainder_of: "pay_1", session_id: "payses_1" },
        first: { payment_id: "pay_1", base_amount: "25.00", base_currency: "USD" },
        siblings: [payment, sibling({ payment_id: "pay_r", remainder_of: "pay_1", capture_session_id: "payses_1" })],
        collection: { ...noOrderCollection },
      },
      { capturedNoOrder: true },
      [],
    ],
    [
      "an order collection is never captured with no order",
      { inCart: false, collection: { ...noOrderCollection } },
      {},
      ["capturedNoOrder"],
    ],
    [
      "a no-order claim meets the order its cart became with the captured session",
      {
        payment: { captured_no_order: true },
        collection: { ...claimedCollection },
        order: { id: "order_1", status: "pending" },
      },
      { claimMeetsOrder: true, orderId: "order_1" },
      ["capturedNoOrder", "claimUnderway"],
    ],
    [
      "a claim record meets the order, its payout started",
      {
        owed: [{ kind: "late", payment_id: "pay_1", key: "no_order@0.00038462", payout_started_at: hours(-1) }],
        collection: { ...claimedCollection },
        order: { id: "order_1", status: "pending" },
      },
      { claimMeetsOrder: true, claimUnderway: true },
      ["capturedNoOrder"],
    ],
    [
      "an order placed after the capture was refunded in full (refunds manual) is not paid with it: captured, no order still",
      {
        payment: { captured_no_order: true },
        collection: { ...noOrderCollection },
        order: { id: "order_1", status: "pending" },
      },
      { capturedNoOrder: true },
      ["claimMeetsOrder"],
    ],
    [
      "an earlier attempt's capture with no order on the cart's collection: its order is never canceled by this payment",
      {
        siblings: [sibling({ payment_id: "pay_0", session_id: "payses_0" }), payment],
        collection: {
          ...noOrderCollection,
          sessions: [session({})],
          // refunds "disabled": the compensation could not refund it, so it stands
          payments: [{ ...capturedPayment, payment_session_id: "payses_0", amount: 25, refunds: [] }],
        },
        order: { id: "order_1", status: "pending" },
      },
      { orderPaidElsewhere: true },
      ["capturedNoOrder", "claimMeetsOrder"],
    ],
    [
      "a canceled order meets no claim",
      {
        payment: { captured_no_order: true },
        collection: { ...claimedCollection },
        order: { id: "order_1", status: "canceled" },
      },
      {},
      ["claimMeetsOrder"],
    ],
  ])("%s", (_, r, expected, absent) => {
    const store = storeOf(r)
    expect(store).toMatchObject(expected)
    for (const key of absent) expect(store).not.toHaveProperty(key)
  })
})

describe("paymentContextOf: remainders, late money and other payments", () => {
  const first = { payment_id: "pay_0", base_amount: "40.00", base_currency: "USD" }

  it.each<[string, Reading, Partial<StoreSideState>, string[]]>([
    [
      "a remainder is priced at its first payment's terms",
      { payment: { remainder_of: "pay_0", base_amount: "2.50" }, first },
      { remainder: true, base: { amount: "40.00", currency: "USD" }, covers: true },
      [],
    ],
    [
      "a short payment whose remainder arrived",
      { siblings: [payment, sibling({ payment_id: "pay_2", remainder_of: "pay_1", received_amount: "0.00003847" })] },
      { completedByRemainder: false, remainderReceived: "0.00003847", current: false },
      [],
    ],
    [
      "a short payment whose remainder's capture stands",
      {
        siblings: [
          payment,
          sibling({ payment_id: "pay_2", session_id: "payses_2", remainder_of: "pay_1", received_amount: "0.0001" }),
        ],
        collection: {
          amount: 25,
          currency_code: "usd",
          sessions: [session({ status: "canceled" }), session({ id: "payses_2", payment: capturedPayment })],
        },
      },
      { completedByRemainder: true, paidByOther: true },
      [],
    ],
    [
      "owed back as late money already",
      { owed: [{ kind: "late", payment_id: "pay_1", sent_at: null }] },
      { owedLate: true },
      [],
    ],
    [
      "owed back as excess: not late",
      { owed: [{ kind: "excess", payment_id: "pay_1", sent_at: null }] },
      {},
      ["owedLate"],
    ],
    [
      "2. a remainder whose first payment's late coins are being paid out (payout started, not sent yet)",
      {
        payment: { remainder_of: "pay_0" },
        first,
        owed: [{ kind: "late", payment_id: "pay_0", sent_at: null, payout_started_at: hours(-1) }],
      },
      { owedLate: true },
      [],
    ],
    [
      "4. a remainder's coins are priced at its checkout's rate: its first payment's required coins",
      { payment: { remainder_of: "pay_0", base_amount: "2.50" }, first: { ...first, required_amount: "0.0006" } },
      { base: { amount: "40.00", currency: "USD", required: "0.0006" } },
      [],
    ],
    [
      "a remainder whose first payment's late coins were sent back",
      { payment: { remainder_of: "pay_0" }, first, owed: [{ kind: "late", payment_id: "pay_0", sent_at: hours(-1) }] },
      { owedLate: true },
      [],
    ],
    [
      "a remainder whose first payment's late coins are still open (a capture withdraws them)",
      { payment: { remainder_of: "pay_0" }, first, owed: [{ kind: "late", payment_id: "pay_0", sent_at: null }] },
      {},
      ["owedLate"],
    ],
    [
      "another payment confirming the full amount for the collection",
      { siblings: [payment, sibling({ payment_id: "pay_2", session_id: "payses_2", received_amount: "0.00038462" })] },
      { othersConfirming: true },
      [],
    ],
    [
      "another payment short of its amount",
      { siblings: [payment, sibling({ payment_id: "pay_2", session_id: "payses_2", received_amount: "0.0003" })] },
      {},
      ["othersConfirming"],
    ],
    [
      "another payment in full, settled already",
      {
        siblings: [
          payment,
          sibling({ payment_id: "pay_2", session_id: "payses_2", received_amount: "0.00038462", settled: true }),
        ],
      },
      {},
      ["othersConfirming"],
    ],
    [
      "another payment in full, for less than the collection asks now",
      {
        siblings: [
          payment,
          sibling({ payment_id: "pay_2", session_id: "payses_2", received_amount: "0.00038462", base_amount: "20.00" }),
        ],
      },
      {},
      ["othersConfirming"],
    ],
    [
      "its own full amount is not another's",
      { payment: { received_amount: "0.00038462" }, siblings: [{ ...payment, received_amount: "0.00038462" }] },
      {},
      ["othersConfirming"],
    ],
  ])("%s", (_, r, expected, absent) => {
    const store = storeOf(r)
    expect(store).toMatchObject(expected)
    for (const key of absent) expect(store).not.toHaveProperty(key)
  })
})

describe("paymentContextOf: the payment and its sessions, for the steps after the decision", () => {
  it("writes the payment's times as ISO text and snapshots the sessions as the close step writes them back", () => {
    const context = paymentContextOf(
      reading({
        payment: { capture_session_id: "payses_1", expires_at: "2026-05-01T13:00:00Z", watch_until: null },
        collection: { amount: 25, currency_code: "usd", sessions: [session({ amount: "25.5", data: null })] },
      }),
      { captureUnrecorded: false, now: NOW }
    )
    expect(context.payment).toEqual({
      payment_id: "pay_1",
      status: "PENDING",
      expires_at: "2026-05-01T13:00:00.000Z",
      watch_until: null,
      capture_session_id: "payses_1",
    })
    const snapshot = { id: "payses_1", status: "pending", amount: 25.5, currency_code: "usd", data: {} }
    expect(context.ownSession).toEqual(snapshot)
    expect(context.targetSession).toEqual(snapshot)
  })

  it("has no sessions to hand on when its own is gone and nothing replaced it", () => {
    const context = paymentContextOf(reading({ collection: { amount: 25, currency_code: "usd", sessions: [] } }), {
      captureUnrecorded: false,
      now: NOW,
    })
    expect(context.ownSession).toBeUndefined()
    expect(context.targetSession).toBeUndefined()
  })
})
