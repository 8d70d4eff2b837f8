import type { CheckoutMember, CheckoutOwedRecord } from "../checkout-payment"

/** A checkout's payment as tests build it: minutes after noon on the day of these tests. */
export const at = (minutes: number) => new Date(Date.UTC(2026, 10, 27, 12, minutes))

/** F asked 0.01 BTC for 100 EUR; 0.004 arrived and it expired; its remainder R paid the 0.006 left. */
export const member = (fields: Partial<CheckoutMember>): CheckoutMember => ({
  payment_id: "pay_f",
  remainder_of: null,
  status: "EXPIRED",
  settled: true,
  coin: "BTC",
  required_amount: "0.01000000",
  crypto_amount: "0.01000000",
  received_amount: "0.00400000",
  base_amount: "100.00",
  base_currency: "EUR",
  created_at: at(0),
  ...fields,
})
export const F = member({})
export const R = member({
  payment_id: "pay_r",
  remainder_of: "pay_f",
  status: "COMPLETED",
  required_amount: "0.00600000",
  crypto_amount: "0.00600000",
  received_amount: "0.00600000",
  base_amount: "60.00",
  created_at: at(30),
})
export const record = (fields: Partial<CheckoutOwedRecord>): CheckoutOwedRecord => ({
  id: "owed_1",
  payment_id: "pay_f",
  kind: "refund",
  coin_amount: "0.01000000",
  ...fields,
})
