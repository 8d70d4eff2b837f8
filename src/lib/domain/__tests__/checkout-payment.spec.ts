import {
  checkoutPaymentOf,
  CheckoutPayment,
  earlierIdsOf,
  firstPaymentIdOf,
  lateUnderway,
  openRemainderOf,
  owedCapOf,
  RemainderRead,
  remainderAskOf,
} from "../checkout-payment"
import { refundCoinsOf } from "../refund-basis"
import { recordsSent, sameCoins } from "../owed-sent"
import { at, F, member, R, record } from "./checkout-fixtures"

/** The ids of a checkout's payments, the first one first. */
const memberIdsOf = (checkout: CheckoutPayment) => [
  checkout.first.payment_id,
  ...checkout.remainders.map((r) => r.payment_id),
]

describe("a checkout's payment: the first payment and every remainder whose chain leads to it", () => {
  it("is found from any of its payments, a remainder of a remainder too, leaving other rows out", () => {
    const R2 = member({ payment_id: "pay_r2", remainder_of: "pay_r", received_amount: "0", created_at: at(60) })
    const other = member({ payment_id: "pay_x", created_at: at(5) })
    const rows = [R2, other, R, F]
    for (const id of ["pay_f", "pay_r", "pay_r2"]) {
      expect(firstPaymentIdOf(rows, id)).toBe("pay_f")
      expect(memberIdsOf(checkoutPaymentOf(rows, [], id)!)).toEqual(["pay_f", "pay_r", "pay_r2"])
    }
    expect(memberIdsOf(checkoutPaymentOf(rows, [], "pay_x")!)).toEqual(["pay_x"])
    expect(checkoutPaymentOf(rows, [], "pay_missing")).toBeUndefined()
    expect(earlierIdsOf(rows, "pay_r2")).toEqual(["pay_r", "pay_f"])
    expect(earlierIdsOf(rows, "pay_f")).toEqual([])
    // a chain that loops (no row the plugin writes) ends instead of running for ever
    expect(earlierIdsOf([{ ...F, remainder_of: "pay_r" }, R], "pay_r")).toEqual(["pay_f"])
  })

  it("sums what arrived on all of them, prices at the first payment's rate and counts refunds on any", () => {
    const checkout = checkoutPaymentOf(
      [F, R],
      [record({}), record({ id: "owed_2", kind: "late", payment_id: "pay_r" })],
      "pay_r"
    )!
    expect(checkout).toMatchObject({
      coin: "BTC",
      received: "0.01000000",
      refunded: "0.01000000",
      rate: { coin: "BTC", required: "0.01000000", baseAmount: "100.00", baseCurrency: "EUR" },
    })
  })

  it("knows nothing arrived before any read said so (no cap then)", () => {
    const unread = checkoutPaymentOf([{ ...F, received_amount: null }], [], "pay_f")!
    expect(unread.received).toBeUndefined()
    expect(owedCapOf(unread)).toBeUndefined()
  })

  it("1. a refund's basis counts the remainder's coins: 100 EUR refunded, rate at payment, fee 1 % sends 0.0099 BTC", () => {
    const refund = record({ base_amount: "100.00" } as never)
    const checkout = checkoutPaymentOf([F, R], [refund], "pay_f")!
    const cap = owedCapOf(checkout, refund.id)!
    expect(cap).toBe("0.01000000")
    const { coins } = refundCoinsOf(
      { basis: "rate_then", feePercent: "1" },
      { kind: "refund", base_amount: "100.00" },
      checkout.rate!,
      cap
    )
    expect(coins).toBe("0.00990000")
  })

  it("2. a late record whose payout started counts as leaving, like one sent; an open remainder is found", () => {
    expect(lateUnderway({ records: [record({ kind: "late", payout_started_at: at(40) })] })).toBe(true)
    expect(lateUnderway({ records: [record({ kind: "late", sent_at: at(40) })] })).toBe(true)
    expect(lateUnderway({ records: [record({ kind: "late" })] })).toBe(false)
    expect(openRemainderOf({ remainders: [{ ...R, status: "PENDING", settled: false }] })?.payment_id).toBe("pay_r")
    expect(openRemainderOf({ remainders: [R] })).toBeUndefined()
    // COMPLETED at the service, not captured yet (confirmations, or its read, to come): it may still pay
    expect(openRemainderOf({ remainders: [{ ...R, status: "COMPLETED", settled: false }] })?.payment_id).toBe("pay_r")
    expect(openRemainderOf({ remainders: [{ ...R, status: "COMPLETED", settled: true }] })).toBeUndefined()
    expect(openRemainderOf({ remainders: [{ ...R, status: "EXPIRED", settled: false }] })).toBeUndefined()
  })
})

describe("a remainder asks the checkout's shortfall at the first payment's rate, at any depth (issue 59, 6)", () => {
  // F asked 0.01 BTC for 100 EUR, 0.004 arrived; R1 asked the 0.006 left (60 EUR), 0.002 arrived; both expired
  const R1 = member({
    payment_id: "pay_r1",
    remainder_of: "pay_f",
    required_amount: "0.00600000",
    crypto_amount: "0.00600000",
    received_amount: "0.00200000",
    base_amount: "60.00",
    created_at: at(30),
  })
  const R2 = member({
    payment_id: "pay_r2",
    remainder_of: "pay_r1",
    required_amount: "0.00400000",
    crypto_amount: "0.00400000",
    received_amount: "0.00100000",
    base_amount: "40.00",
    created_at: at(60),
  })
  const read = (required: string, received: string, own?: string): RemainderRead => ({
    coin: "BTC",
    required,
    received,
    ...(own ? { own: { received: own } } : {}),
  })

  it.each<[string, (typeof F)[], string, RemainderRead, [received: string, shortfall: string, store: string]]>([
    ["of the first payment", [F], "pay_f", read("0.01", "0.004"), ["0.00400000", "0.00600000", "60.00"]],
    [
      "of R1 read alone (no tolerance)",
      [F, R1],
      "pay_r1",
      read("0.006", "0.002"),
      ["0.00600000", "0.00400000", "40.00"],
    ],
    [
      "of R1 read with F (a tolerance set): F's required coins, not R1's 60 EUR",
      [F, R1],
      "pay_r1",
      read("0.01", "0.006", "0.002"),
      ["0.00600000", "0.00400000", "40.00"],
    ],
    [
      "of R1, 0.001 more on F since R1 was asked",
      [{ ...F, received_amount: "0.00500000" }, R1],
      "pay_r1",
      read("0.006", "0.002"),
      ["0.00700000", "0.00300000", "30.00"],
    ],
    [
      "of R2, a remainder of a remainder",
      [F, R1, R2],
      "pay_r2",
      read("0.004", "0.001"),
      ["0.00700000", "0.00300000", "30.00"],
    ],
    [
      "of R2 read with R1 and F",
      [F, R1, R2],
      "pay_r2",
      read("0.01", "0.007", "0.001"),
      ["0.00700000", "0.00300000", "30.00"],
    ],
  ])("%s", (_, rows, paymentId, fresh, [received, shortfall, baseAmount]) => {
    const checkout = checkoutPaymentOf(rows, [], paymentId)!
    expect(remainderAskOf(checkout, paymentId, fresh)).toEqual({
      rate: { coin: "BTC", required: expect.stringMatching(/^0\.01(0*)$/), baseAmount: "100.00", baseCurrency: "EUR" },
      received,
      shortfall,
      baseAmount,
    })
  })

  it("asks nothing when the checkout is covered, or for a payment not in it", () => {
    const checkout = checkoutPaymentOf([F, R1], [], "pay_r1")!
    expect(remainderAskOf(checkout, "pay_r1", read("0.006", "0.006"))).toBeUndefined()
    expect(remainderAskOf(checkout, "pay_x", read("0.006", "0.002"))).toBeUndefined()
    expect(remainderAskOf(checkout, "pay_r1", { received: "0.002" })).toBeUndefined()
  })
})

describe("5. mark sent marks what the admin saw", () => {
  const open = (id: string, coins: string | null, minute: number, more: object = {}) => ({
    id,
    coin: "BTC",
    coin_amount: coins,
    created_at: at(minute),
    sent_at: null,
    ...more,
  })
  const records = [open("owed_1", "0.1", 0), open("owed_2", "0.1", 10)]
  const seen = (...pairs: Array<[string, string | null]>) => ({
    owed: pairs.map(([id, coin_amount]) => ({ id, coin_amount })),
  })

  it("marks the named records only, with the coins the admin saw; one written since stays owed", () => {
    expect(recordsSent([...records, open("owed_3", "0.05", 20)], seen(["owed_1", "0.1"], ["owed_2", "0.1"]))).toEqual({
      records,
    })
    // the same coins written otherwise are the same coins; a record named twice is marked once
    expect(recordsSent(records, seen(["owed_1", "0.10000000"], ["owed_1", "0.1"]))).toEqual({ records: [records[0]] })
    const unpriced = open("owed_4", null, 30)
    expect(recordsSent([unpriced], seen(["owed_4", null]))).toEqual({ records: [unpriced] })
  })

  it("answers a conflict when a named record was sent or withdrawn meanwhile", () => {
    const sent = recordsSent(
      [records[0], { ...records[1], sent_at: at(15) }],
      seen(["owed_1", "0.1"], ["owed_2", "0.1"])
    )
    expect(sent).toEqual({
      conflict:
        "The amount owed changed since you read it: owed_2 is no longer owed (sent or withdrawn meanwhile). Reload the payment and mark sent what it shows now.",
    })
    expect(recordsSent([records[0]], seen(["owed_1", "0.1"], ["owed_2", "0.1"]))).toHaveProperty("conflict")
  })

  it("answers a conflict when a record's coins differ from what the admin saw, naming both", () => {
    const rebased = [records[0], { ...records[1], coin_amount: "0.099" }]
    expect(recordsSent(rebased, seen(["owed_1", "0.1"], ["owed_2", "0.1"]))).toEqual({
      conflict:
        "The amount owed changed since you read it: owed_2 is now 0.099 BTC (you saw 0.1 BTC). Reload the payment and mark sent what it shows now.",
    })
    // never rounded: a digit beyond what the admin saw is a change
    expect(recordsSent(records, seen(["owed_1", "0.1000000001"]))).toHaveProperty("conflict")
    // coins worked out since the admin saw none, and the other way round
    expect(recordsSent(records, seen(["owed_1", null]))).toMatchObject({
      conflict: expect.stringContaining("owed_1 is now 0.1 BTC (you saw none)"),
    })
    expect(recordsSent([open("owed_4", null, 30)], seen(["owed_4", "0.1"]))).toHaveProperty("conflict")
  })

  it("takes the figure shown to send (rounded down to what a wallet sends) as the record's coins in full; less is a conflict", () => {
    const eth = open("owed_5", "0.003336413333333333", 40, { coin: "ETH" })
    const usdt = open("owed_6", "12.345678901234567891", 50, { coin: "USDT_BEP20" })
    expect(recordsSent([eth], seen(["owed_5", "0.00333641"]))).toEqual({ records: [eth] })
    expect(recordsSent([eth], seen(["owed_5", "0.003336410"]))).toEqual({ records: [eth] })
    expect(recordsSent([eth], seen(["owed_5", "0.003336413333333333"]))).toEqual({ records: [eth] })
    expect(recordsSent([usdt], seen(["owed_6", "12.345678"]))).toEqual({ records: [usdt] })
    // below the figure shown, between it and the exact one, or above: not a figure the admin was shown
    expect(recordsSent([eth], seen(["owed_5", "0.0033364"]))).toMatchObject({
      conflict: expect.stringContaining("owed_5 is now 0.003336413333333333 ETH (you saw 0.0033364 ETH)"),
    })
    expect(recordsSent([eth], seen(["owed_5", "0.00333640"]))).toHaveProperty("conflict")
    expect(recordsSent([eth], seen(["owed_5", "0.0033364133"]))).toHaveProperty("conflict")
    expect(recordsSent([eth], seen(["owed_5", "0.00333642"]))).toHaveProperty("conflict")
    expect(recordsSent([usdt], seen(["owed_6", "12.34567"]))).toHaveProperty("conflict")
  })

  it("refuses a body naming no record", () => {
    expect(recordsSent(records, { owed: [] })).toHaveProperty("refused")
  })

  it("refuses coins whose customer gave an address until their payout started", () => {
    const addressed = open("owed_1", "0.1", 0, { refund_address: "bc1q…" })
    expect(recordsSent([addressed], seen(["owed_1", "0.1"]))).toHaveProperty("refused")
    expect(recordsSent([{ ...addressed, payout_started_at: at(5) }], seen(["owed_1", "0.1"]))).toHaveProperty("records")
  })
})

describe("sameCoins: the coins the admin saw against the record's, exactly", () => {
  it.each<[string | null, string | null, boolean]>([
    ["0.1", "0.1", true],
    ["0.1", "0.10", true],
    ["00.1", "0.1", true],
    ["1", "1.000", true],
    ["1e-7", "0.0000001", true],
    ["0.1", "0.1000000001", false],
    ["0.1", "0.01", false],
    ["10", "1", false],
    [null, null, true],
    [null, "0", false],
    ["0", null, false],
    ["abc", "abc", false],
  ])("%s and %s: %s", (a, b, same) => {
    expect(sameCoins(a, b)).toBe(same)
  })
})
