import { checkoutPaymentOf } from "../../../../lib/domain/checkout-payment"
import { F, R, record } from "../../../../lib/domain/__tests__/checkout-fixtures"
import { refundOwedOf } from "../refund"

describe("a Medusa refund as an owed record of the checkout's payment", () => {
  it("a Medusa refund is recorded on the first payment, capped at what arrived on the checkout less its other records", () => {
    const excess = record({ id: "owed_x", kind: "excess", coin_amount: "0.00050000" })
    const checkout = checkoutPaymentOf([F, { ...R, received_amount: "0.00650000" }], [excess], "pay_r")!
    expect(refundOwedOf(checkout, 100, "ref_1")).toMatchObject({
      payment_id: "pay_f",
      key: "refund:ref_1",
      coin: "BTC",
      coin_amount: "0.01000000",
      base_amount: "100.00",
      base_currency: "EUR",
    })
    const refunded = checkoutPaymentOf([F, R], [record({ coin_amount: "0.00700000" })], "pay_r")!
    expect(refundOwedOf(refunded, 100, "ref_2").coin_amount).toBe("0.00300000")
  })

  it("a retried refund (the same Medusa refund id) is not capped by the record it wrote the first time", () => {
    const written = record({ id: "owed_1", key: "refund:ref_1", coin_amount: "0.01000000" })
    const checkout = checkoutPaymentOf([F, R], [written], "pay_r")!
    expect(refundOwedOf(checkout, 100, "ref_1").coin_amount).toBe("0.01000000")
    expect(refundOwedOf(checkout, 100, "ref_2").coin_amount).toBe("0.00000000")
  })
})
