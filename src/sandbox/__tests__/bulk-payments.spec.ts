/**
 * POST /__sandbox/payments/bulk: many payments in one call (the bench's payment book of 100,000 open
 * payments), each as create_payment makes it, without a webhook URL. Over real HTTP on loopback, as
 * the contract tests are.
 */
import { sandboxOverHttp } from "./over-http"

const KEY = "bulk_test_key"

const suite = sandboxOverHttp(KEY)

const bulk = (body: unknown) => suite.http.post("/__sandbox/payments/bulk", body)
const minutesBetween = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / 60_000)

describe("POST /__sandbox/payments/bulk", () => {
  it("creates count payments as create_payment would, without a webhook URL", async () => {
    const paymentIds = await suite.control.bulkCreatePayments({
      count: 25,
      amount: 100,
      amountCurrency: "USD",
      currency: "BTC",
    })
    expect(paymentIds).toHaveLength(25)
    expect(new Set(paymentIds).size).toBe(25)

    const single = (
      await suite.http.post("/v1/create_payment", { amount: 100, amountCurrency: "USD", currency: "BTC" })
    ).data.data
    const addresses = new Set<string>()
    for (const paymentId of paymentIds) {
      const view = await suite.control.payment(paymentId)
      expect(view).toMatchObject({
        paymentId,
        kind: "payment",
        status: "PENDING",
        currency: "BTC",
        baseAmount: 100,
        baseCurrency: "USD",
        requiredAmount: single.amount.toFixed(8),
        webhookUrl: null,
        orderId: null,
      })
      addresses.add(view.address!)
      // the service's status endpoint knows it, with create_payment's default expiry
      const status = (await suite.http.get(`/v1/invoice/${paymentId}/status`)).data
      expect(minutesBetween(status.createdAt, status.expiresAt)).toBe(30)
    }
    expect(addresses.size).toBe(25)
    expect(await suite.control.payments()).toHaveLength(26)
  })

  it.each([[0], [200_001], [1.5], ["10"], [undefined]])(
    "answers 400 for count %p and creates nothing",
    async (count) => {
      const res = await bulk({ count, amount: 10, amountCurrency: "USD", currency: "BTC" })
      expect(res.status).toBe(400)
      expect(res.data).toMatchObject({ success: false, error: "Validation failure", statusCode: 400 })
      expect(res.data.details.count).toBe("count must be a whole number from 1 to 200000")
      expect(await suite.control.payments()).toHaveLength(0)
    }
  )

  it("answers 400 with create_payment's details for a bad payment, every bad field at once", async () => {
    const res = await bulk({ count: 0, amount: 0, amountCurrency: "USD", currency: "DOGE" })
    expect(res.status).toBe(400)
    expect(Object.keys(res.data.details).sort()).toEqual(["amount", "count", "currency"])
    await expect(
      suite.control.bulkCreatePayments({ count: 3, amount: 10, amountCurrency: "EUR", currency: "BTC" })
    ).rejects.toThrow(/400 Validation failure/)
    expect(await suite.control.payments()).toHaveLength(0)
  })

  it("is listed in the control API's index", async () => {
    const { endpoints } = (await suite.http.get("/__sandbox")).data
    expect(endpoints.some((line: string) => line.startsWith("POST /__sandbox/payments/bulk {count: 1..200000"))).toBe(
      true
    )
  })
})
