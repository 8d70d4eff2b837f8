import type Medusa from "@medusajs/js-sdk"
import {
  decimalText,
  openCryptoSessionOf,
  paymentCollectionDue,
  startCryptoCollectionPayment,
} from "../../../../docs/storefront/crypto-payment"
import { orderOfPath, paymentLinkOf } from "../app/payment-link"

describe("the page of the dashboard's payment link", () => {
  describe("what is due on a payment collection (docs/storefront/crypto-payment.ts)", () => {
    it.each<[string, number | string, number | string | null | undefined, string, string]>([
      ["nothing captured yet", 25, null, "usd", "25.00"],
      ["nothing captured, no captured_amount at all", 25, undefined, "usd", "25.00"],
      ["part captured", 84, 83.5, "usd", "0.50"],
      ["floats that would not subtract exactly", 0.3, 0.1, "usd", "0.20"],
      ["an amount with more places than the currency", 33.333333333333336, 0, "usd", "33.33"],
      ["half a cent, rounded up", 10.005, 0, "usd", "10.01"],
      ["a currency without minor units", 1200.5, 200, "jpy", "1001"],
      ["a currency with three places", 1.2345, 0, "kwd", "1.235"],
      ["decimal text", "19.99", "4.99", "usd", "15.00"],
    ])("%s: %s minus %s captured is %s", (_, amount, captured, currency, due) => {
      expect(
        paymentCollectionDue({ amount, captured_amount: captured, currency_code: currency, status: "not_paid" })
      ).toEqual({ state: "due", due, currency })
    })

    it.each([
      ["not_paid", 25, 0, "due", "25.00"],
      ["awaiting", 25, 0, "due", "25.00"],
      ["partially_captured", 25, 10, "due", "15.00"],
      ["failed", 25, 0, "due", "25.00"],
      ["authorized", 25, 0, "authorized", "25.00"],
      ["completed", 25, 25, "paid", "0.00"],
      ["completed", 25.001, 25, "paid", "0.00"],
      ["awaiting", 25, 25, "paid", "0.00"],
      ["not_paid", 25, 30, "paid", "0.00"],
      ["canceled", 25, 0, "canceled", "25.00"],
    ])("a %s collection of %s with %s captured is %s, %s due", (status, amount, captured, state, due) => {
      expect(paymentCollectionDue({ amount, captured_amount: captured, currency_code: "usd", status })).toMatchObject({
        state,
        due,
      })
    })

    it.each([
      [12.5, "12.5"],
      [84, "84"],
      [1e-7, "0.0000001"],
      [1.5e21, "1500000000000000000000"],
      ["007.50", "7.5"],
      [-0.5, "-0.5"],
      [0, "0"],
    ])("reads %p as the decimal text %s", (value, text) => {
      expect(decimalText(value)).toBe(text)
    })

    it.each(["", "abc", "1.2.3", "."])("refuses %j as an amount", (value) => {
      expect(() => decimalText(value)).toThrow(/not an amount/)
    })
  })

  it("shows the collection's open crypto session again, not one the shop closed", () => {
    const closed = { paymentId: "inv_old" }
    const open = { paymentId: "inv_new" }
    expect(
      openCryptoSessionOf({
        payment_sessions: [
          { provider_id: "pp_crypto_crypto", status: "canceled", data: closed },
          { provider_id: "pp_crypto_crypto", status: "pending", data: open },
        ],
      })
    ).toBe(open)
    expect(
      openCryptoSessionOf({ payment_sessions: [{ provider_id: "pp_crypto_crypto", status: "canceled", data: closed }] })
    ).toBeUndefined()
    expect(
      openCryptoSessionOf({ payment_sessions: [{ provider_id: "pp_crypto_crypto", status: "error", data: closed }] })
    ).toBeUndefined()
    expect(openCryptoSessionOf(undefined)).toBeUndefined()
  })

  it.each([
    [undefined, { provider_id: "pp_crypto_crypto" }],
    ["LTC" as const, { provider_id: "pp_crypto_crypto", data: { currency: "LTC" } }],
  ])("starts a crypto payment (coin %s) on the collection named by the link", async (coin, body) => {
    const calls: Array<[string, unknown]> = []
    const data = { paymentId: "inv_1", kind: coin ? "payment" : "invoice" }
    const sdk = {
      client: {
        fetch: async (url: string, init: unknown) => {
          calls.push([url, init])
          return {
            payment_collection: {
              id: "pay_col_1",
              payment_sessions: [{ provider_id: "pp_crypto_crypto", status: "pending", data }],
            },
          }
        },
      },
    } as unknown as Medusa
    await expect(startCryptoCollectionPayment(sdk, "pay_col_1", coin)).resolves.toBe(data)
    expect(calls).toEqual([["/store/payment-collections/pay_col_1/payment-sessions", { method: "POST", body }]])
  })

  it("says so when the store created no crypto session", async () => {
    const sdk = {
      client: { fetch: async () => ({ payment_collection: { id: "pay_col_1", payment_sessions: [] } }) },
    } as unknown as Medusa
    await expect(startCryptoCollectionPayment(sdk, "pay_col_1")).rejects.toThrow(/was not created/)
  })

  it.each([
    ["/payment-collection/pay_col_1", "?order_id=order_1", { collectionId: "pay_col_1", orderId: "order_1" }],
    ["/payment-collection/pay_col_1/", "?order_id=order_1", { collectionId: "pay_col_1", orderId: "order_1" }],
    ["/payment-collection/pay_col_1", "", { collectionId: "pay_col_1", orderId: undefined }],
    ["/payment-collection/pay%20col", "?order_id=", { collectionId: "pay col", orderId: undefined }],
    ["/", "", undefined],
    ["/payment-collection/", "?order_id=order_1", undefined],
    ["/payment-collection/a/b", "", undefined],
  ])("reads the link %s%s", (pathname, search, link) => {
    expect(paymentLinkOf(pathname, search)).toEqual(link)
  })

  it.each([
    ["/order/order_1/confirmed", "order_1"],
    ["/dk/order/order_1/confirmed", "order_1"],
    ["/order/order_1", "order_1"],
    ["/order/order_1/", "order_1"],
    ["/order/", undefined],
    ["/order/order_1/transfer", undefined],
    ["/", undefined],
  ])("opens the emails' order page %s", (pathname, orderId) => {
    expect(orderOfPath(pathname)).toBe(orderId)
  })
})
