import type { EmailPayment } from "../customer-email"

/** A single-coin payment as an email reads it: 25 EUR in BTC, part of it arrived. */
export const emailPayment: EmailPayment = {
  payment_id: "pay_1",
  payment_collection_id: "pay_col_1",
  kind: "payment",
  base_amount: "25.00",
  base_currency: "eur",
  coin: "BTC",
  crypto_amount: "0.00038462",
  quotes: null,
  invoice_url: "https://pay.example/pay_1",
  expires_at: "2026-11-26T12:00:00Z",
  received_amount: "0.0001",
  confirmations: 1,
  required_confirmations: 3,
  remainder_of: null,
  applied: null,
}
