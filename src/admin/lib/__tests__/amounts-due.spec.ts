import { OrderCollection, outstandingCollections, remainingToSend } from "../amounts-due"
import type { CryptoPayment } from "../payment-types"

const collection = (status: string, amount: number, captured: number | null = 0): OrderCollection => ({
  id: `paycol_${status}`,
  status,
  amount,
  captured_amount: captured,
  currency_code: "usd",
})

describe("an order's collections still waiting for money", () => {
  it.each([
    ["an order edit's not_paid collection", collection("not_paid", 12.5), "12.5"],
    ["an awaiting collection", collection("awaiting", 30, null), "30"],
    ["a partially authorized collection", collection("partially_authorized", 20.1, 0.1), "20"],
  ])("lists %s with what is due", (_, item, due) => {
    expect(outstandingCollections([item])).toEqual([{ collection: item, due }])
  })

  it.each([
    ["the fully captured checkout collection", collection("completed", 45, 45)],
    ["a canceled collection", collection("canceled", 45)],
    ["an authorized collection", collection("authorized", 45)],
    ["a collection with nothing left to pay", collection("not_paid", 10, 10)],
    ["a collection of nothing", collection("not_paid", 0)],
  ])("leaves out %s", (_, item) => {
    expect(outstandingCollections([item])).toEqual([])
  })
})

describe("what an underpaid payment still waits for", () => {
  const payment = (over: Partial<CryptoPayment>) =>
    ({
      status: "PENDING",
      flags: ["underpaid"],
      coin: "BTC",
      amount_required: "0.00038462",
      amount_received: "0.0002",
      ...over,
    }) as CryptoPayment

  it("is the required amount less what arrived, exactly", () => {
    expect(remainingToSend(payment({}))).toBe("0.00018462")
  })

  it.each([
    ["not pending", { status: "EXPIRED" as const }],
    ["not flagged underpaid", { flags: [] }],
    ["its coin is unknown", { coin: null }],
    ["its required amount is unknown", { amount_required: null }],
    ["nothing is left", { amount_received: "0.00038462" }],
  ])("is nothing when %s", (_, over) => {
    expect(remainingToSend(payment(over))).toBeNull()
  })
})
