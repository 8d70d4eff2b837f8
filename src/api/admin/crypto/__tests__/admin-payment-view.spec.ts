import { adminPaymentView } from "../admin-payment-view"
import { checkoutPaymentOf } from "../../../../lib/domain/checkout-payment"
import { F, member } from "../../../../lib/domain/__tests__/checkout-fixtures"

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
  it("6. shows the rates url as the settings panel does: no credentials, a credential's value in the query masked", () => {
    expect(adminPaymentView(row as never).exchange?.url).toBe("https://rates.example/eurofxref-daily.xml?token=***")
  })

  it("6. never hands the dashboard a payment page that is not a web page", () => {
    expect(adminPaymentView(row as never).invoice_url).toBeNull()
    expect(adminPaymentView({ ...row, invoice_url: "https://pay.example/p/1" } as never).invoice_url).toBe(
      "https://pay.example/p/1"
    )
  })

  it("shows a remainder's store amount at its checkout's rate: 0.004 BTC of a 0.01 BTC / 100 EUR checkout is 40.00 EUR", () => {
    // R2, a remainder of R1, written at F's coins for R1's 60.00 EUR (issue 59): 24.00 recorded
    const R1 = member({ payment_id: "pay_r1", remainder_of: "pay_f", required_amount: "0.006", base_amount: "60.00" })
    const R2 = { ...row, ...member({ payment_id: "pay_r2", remainder_of: "pay_r1", required_amount: "0.004" }) }
    const stored = { ...R2, base_amount: "24.00", crypto_amount: "0.004", usd_amount: null, exchange_rate: null }
    const checkout = checkoutPaymentOf([F, R1, stored], [], "pay_r2")
    expect(adminPaymentView(stored as never, [], checkout).base_amount).toBe("40.00")
    // the first payment, or a remainder whose checkout was not read, as recorded
    expect(adminPaymentView({ ...row, ...F } as never, [], checkout).base_amount).toBe("100.00")
    expect(adminPaymentView(stored as never).base_amount).toBe("24.00")
  })

  it("shows what is owed now as a wallet sends it, rounded down, beside the exact coins", () => {
    const eth = { ...row, coin: "ETH", base_currency: "USD" }
    const owed = (id: string, coins: string | null, sentAt: string | null = null) =>
      ({ id, coin: coins === null ? null : "ETH", coin_amount: coins, base_amount: "5.00", sent_at: sentAt }) as never
    const { refund } = adminPaymentView(eth as never, [
      owed("owed_1", "0.001538462"),
      owed("owed_2", "0.001874951333333333"),
      owed("owed_3", "0.1", "2026-11-27T13:00:00.000Z"),
    ])
    // 0.003413413333333333 owed now: one sending, rounded down once
    expect(refund).toMatchObject({
      owed: true,
      owed_now: "0.003413413333333333",
      owed_now_sendable: "0.00341341",
      owed_now_base: "10.00",
    })
    expect(adminPaymentView(eth as never, [owed("owed_4", null)]).refund).toMatchObject({
      owed_now: null,
      owed_now_sendable: null,
    })
  })
})
