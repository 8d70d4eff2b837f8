import { adminPaymentView } from "../admin-payment-view"

/** A converted EUR payment as the ledger holds it, with what a hostile service or a careless option left in it. */
const row = {
  payment_id: "pay_1",
  kind: "payment",
  status: "PENDING",
  outcome: "pending",
  coin: "BTC",
  address: "bc1q",
  qr_code: "btc:bc1q?amount=0.001",
  invoice_url: "javascript:alert(document.cookie)",
  required_amount: "0.001",
  crypto_amount: "0.001",
  received_amount: "0",
  confirmations: 0,
  required_confirmations: 3,
  base_amount: "46.02",
  base_currency: "EUR",
  usd_amount: "49.90",
  exchange_rate: "1.0842",
  rate_source: "ecb",
  rate_url: "https://reader:s3cret@rates.example/eurofxref-daily.xml?token=abc",
  rate_published_on: "2026-11-26",
  rate_markup_percent: "0",
  accepted_short: false,
  timeline: null,
  created_at: new Date("2026-11-27T12:00:00Z"),
}

describe("the admin's view of a payment", () => {
  it("6. shows the rates url as the settings panel does: no credentials, no query", () => {
    expect(adminPaymentView(row as never).exchange?.url).toBe("https://rates.example/eurofxref-daily.xml")
  })

  it("6. never hands the dashboard a payment page that is not a web page", () => {
    expect(adminPaymentView(row as never).invoice_url).toBeNull()
    expect(adminPaymentView({ ...row, invoice_url: "https://pay.example/p/1" } as never).invoice_url).toBe(
      "https://pay.example/p/1"
    )
  })
})
