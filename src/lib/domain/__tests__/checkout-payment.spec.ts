import {
  checkoutPaymentOf,
  CheckoutPayment,
  earlierIdsOf,
  firstPaymentIdOf,
  lateUnderway,
  openRemainderOf,
  owedCapOf,
} from "../checkout-payment"
import { refundCoinsOf } from "../refund-basis"
import { recordsSent } from "../owed-sent"
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
  })
})

describe("5. mark sent marks what the admin saw", () => {
  const open = (id: string, coins: string, minute: number, more: object = {}) => ({
    id,
    coin: "BTC",
    coin_amount: coins,
    created_at: at(minute),
    sent_at: null,
    ...more,
  })
  const records = [open("owed_1", "0.1", 0), open("owed_2", "0.1", 10)]

  it("marks the named records only; one written since stays owed", () => {
    expect(recordsSent([...records, open("owed_3", "0.05", 20)], { owed_ids: ["owed_1", "owed_2"] })).toEqual({
      records,
    })
  })

  it("answers a conflict when a named record was sent or withdrawn meanwhile", () => {
    expect(
      recordsSent([records[0], { ...records[1], sent_at: at(15) }], { owed_ids: ["owed_1", "owed_2"] })
    ).toHaveProperty("conflict")
    expect(recordsSent([records[0]], { owed_ids: ["owed_1", "owed_2"] })).toHaveProperty("conflict")
  })

  it("takes the total read as of a time, and answers a conflict when it no longer matches", () => {
    const later = [...records, open("owed_3", "0.05", 20)]
    expect(recordsSent(later, { total: "0.2", as_of: at(15).toISOString() })).toEqual({ records })
    expect(recordsSent(later, { total: "0.25", as_of: at(15).toISOString() })).toHaveProperty("conflict")
  })

  it("takes the old body only while one record is open, saying it is deprecated", () => {
    expect(recordsSent([records[0]], {})).toEqual({ records: [records[0]], deprecated: true })
    expect(recordsSent(records, {})).toHaveProperty("conflict")
    expect(recordsSent([], {})).toHaveProperty("refused")
  })

  it("refuses coins whose customer gave an address until their payout started", () => {
    const addressed = open("owed_1", "0.1", 0, { refund_address: "bc1q…" })
    expect(recordsSent([addressed], { owed_ids: ["owed_1"] })).toHaveProperty("refused")
    expect(recordsSent([{ ...addressed, payout_started_at: at(5) }], { owed_ids: ["owed_1"] })).toHaveProperty(
      "records"
    )
  })
})
