import { verdictOf } from "../verdict"
import type { PaymentAssessment } from "../payment-assessment"

const row = {
  applied: null,
  settled: false,
  paid_late: false,
  paid_twice: false,
  mismatch: false,
  check_failures: 0,
  captured_no_order: false,
}
const read = (over: Partial<PaymentAssessment>): PaymentAssessment => ({
  outcome: "pending",
  status: "PENDING",
  coin: "BTC",
  received: "0.00000000",
  required: "0.00038462",
  confirmations: 0,
  underpaid: false,
  overpaid: false,
  ...over,
})

describe("the shop's verdict for the customer", () => {
  it.each([
    ["nothing received", row, read({}), "awaiting", false],
    ["no coin chosen yet", row, read({ coin: undefined, received: "0" }), "awaiting", false],
    ["part received", row, read({ received: "0.0001", underpaid: true }), "short", false],
    ["all received, confirming", row, read({ received: "0.00038462", confirmations: 1 }), "confirming", false],
    // the service says COMPLETED but the shop has not applied it: not paid yet
    ["COMPLETED, not applied yet", row, read({ status: "COMPLETED", outcome: "paid" }), "confirming", false],
    [
      "captured by the shop",
      { ...row, applied: "capture", settled: true },
      read({ status: "COMPLETED" }),
      "paid",
      true,
    ],
    // COMPLETED, but the shop refused it as it stands
    [
      "COMPLETED short",
      { ...row, mismatch: true },
      read({ status: "COMPLETED", outcome: "mismatch" }),
      "needs_attention",
      false,
    ],
    [
      "paid after the order was canceled",
      { ...row, paid_late: true, settled: true },
      read({ status: "COMPLETED" }),
      "needs_attention",
      true,
    ],
    ["paid twice", { ...row, paid_twice: true, settled: true }, read({ status: "COMPLETED" }), "needs_attention", true],
    ["runs failing", { ...row, check_failures: 3 }, read({ status: "COMPLETED" }), "needs_attention", false],
    ["expired", row, read({ status: "EXPIRED", outcome: "expired" }), "expired", true],
    [
      "expired short",
      row,
      read({ status: "EXPIRED", outcome: "expired", received: "0.0001", underpaid: true }),
      "expired",
      true,
    ],
    ["failed", row, read({ status: "FAILED", outcome: "failed" }), "failed", true],
    // issue 32, item 9: "final" only when no capture can still happen
    [
      "expired short within the tolerance, still confirming",
      row,
      read({ status: "EXPIRED", outcome: "pending", received: "0.00038", underpaid: true }),
      "confirming",
      false,
    ],
    [
      "expired, held under fulfil inside the window",
      row,
      read({ status: "EXPIRED", outcome: "expired", acceptsLate: true }),
      "expired",
      false,
    ],
    [
      "expired with the full amount, taken under fulfil, not applied yet",
      row,
      read({ status: "EXPIRED", outcome: "paid", late: true, acceptsLate: true }),
      "confirming",
      false,
    ],
    [
      "expired, held under fulfil, then decided at the window's end (an older read still says it would be taken)",
      { ...row, settled: true, applied: "cancel_order" },
      read({ status: "EXPIRED", outcome: "expired", acceptsLate: true }),
      "expired",
      true,
    ],
    // issue 32, item 7
    [
      "captured, no order",
      { ...row, applied: "capture", settled: true, captured_no_order: true },
      read({ status: "COMPLETED", outcome: "paid" }),
      "needs_attention",
      true,
    ],
  ] as const)("%s → %s", (_, ledgerRow, assessment, verdict, final) => {
    expect(verdictOf(ledgerRow, assessment)).toEqual({ verdict, final })
  })
})
