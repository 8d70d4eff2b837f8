import { assessPayment, SessionExpectation } from "../payment-decision"
import type { StatusRecord } from "../crypto-api/schemas"

const payment: SessionExpectation = { paymentId: "pay_1", kind: "payment", coin: "BTC", cryptoAmount: "0.00038462" }
const invoice: SessionExpectation = { paymentId: "inv_1", kind: "invoice", quotes: { BTC: "0.00038462", ETH: "0.00769231" } }

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

describe("assessPayment: status record + session expectation → outcome", () => {
  it.each([
    ["COMPLETED with the full amount", payment, record({ status: "COMPLETED", currentBalance: "0.00038462", confirmations: 3 }), "paid"],
    ["COMPLETED overpaid", payment, record({ status: "COMPLETED", currentBalance: "0.001", confirmations: 3 }), "paid"],
    ["PENDING nothing received", payment, record({}), "pending"],
    ["PENDING confirming", payment, record({ currentBalance: "0.00038462", confirmations: 1 }), "pending"],
    ["EXPIRED", payment, record({ status: "EXPIRED" }), "expired"],
    ["FAILED", payment, record({ status: "FAILED" }), "failed"],
    ["COMPLETED but short of the amount", payment, record({ status: "COMPLETED", currentBalance: "0.0003", confirmations: 3 }), "mismatch"],
    ["COMPLETED for another payment", payment, record({ paymentId: "pay_2", status: "COMPLETED", currentBalance: "1" }), "mismatch"],
    ["COMPLETED in another coin", payment, record({ status: "COMPLETED", currency: "LTC", currentBalance: "1" }), "mismatch"],
    ["COMPLETED asking less than agreed", payment, record({ status: "COMPLETED", requiredAmount: "0.0001", currentBalance: "0.0001" }), "mismatch"],
    ["COMPLETED with an unknown coin", payment, record({ status: "COMPLETED", currency: "DOGE", currentBalance: "1" }), "mismatch"],
    ["COMPLETED with a garbage amount", payment, record({ status: "COMPLETED", currentBalance: "lots" }), "mismatch"],
    ["invoice, no coin chosen yet (absent)", invoice, record({ paymentId: "inv_1", currency: undefined, address: undefined, requiredAmount: "25.00" }), "pending"],
    ["invoice, no coin chosen yet (null)", invoice, record({ paymentId: "inv_1", currency: null, address: null }), "pending"],
    ["invoice expired before a coin was chosen", invoice, record({ paymentId: "inv_1", currency: null, status: "EXPIRED" }), "expired"],
    ["invoice COMPLETED without a coin", invoice, record({ paymentId: "inv_1", currency: null, status: "COMPLETED" }), "mismatch"],
    ["invoice paid in ETH at the quote", invoice, record({ paymentId: "inv_1", currency: "ETH", status: "COMPLETED", requiredAmount: "0.00769231", currentBalance: "0.00769231", confirmations: 12 }), "paid"],
    ["invoice paid in ETH below the quote", invoice, record({ paymentId: "inv_1", currency: "ETH", status: "COMPLETED", requiredAmount: "0.007", currentBalance: "0.007", confirmations: 12 }), "mismatch"],
    ["invoice in a coin without a quote, at the service's amount", invoice, record({ paymentId: "inv_1", currency: "LTC", status: "COMPLETED", requiredAmount: "0.3", currentBalance: "0.3", confirmations: 6 }), "paid"],
  ])("%s → %s", (_, expected, status, outcome) => {
    expect(assessPayment(status, expected).outcome).toBe(outcome)
  })

  it("reports under- and overpayment with received vs required at the coin's precision", () => {
    const under = assessPayment(record({ currentBalance: "0.0002" }), payment)
    expect(under).toMatchObject({ underpaid: true, overpaid: false, received: "0.00020000", required: "0.00038462", requiredConfirmations: 3 })
    const over = assessPayment(record({ status: "COMPLETED", currentBalance: "0.0005", confirmations: 3 }), payment)
    expect(over).toMatchObject({ outcome: "paid", overpaid: true, underpaid: false, received: "0.00050000" })
  })

  it("takes the larger of the agreed and the reported amount as required", () => {
    const a = assessPayment(record({ requiredAmount: "0.0005", currentBalance: "0.00038462", status: "COMPLETED", confirmations: 3 }), payment)
    expect(a).toMatchObject({ outcome: "mismatch", required: "0.00050000" })
  })

  it("explains every mismatch", () => {
    const a = assessPayment(record({ paymentId: "pay_2", status: "COMPLETED" }), payment)
    expect(a.reason).toBe("the status record names another payment")
  })
})
