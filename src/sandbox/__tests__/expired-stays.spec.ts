/**
 * PUT /__sandbox/config {expiredStays}: a service that never moves an EXPIRED record again (the spec: a
 * client stops polling at EXPIRED), although coins still arrive and confirm on its address. By default
 * a late payment in full still completes. Driven over real HTTP on loopback, as the contract tests are.
 */
import { sandboxOverHttp } from "./over-http"

const KEY = "expired_stays_test_key"

const suite = sandboxOverHttp(KEY)

// at the sandbox's default prices, 25 USD is 0.00769231 ETH (12 confirmations)
async function createPayment(body: Record<string, unknown> = {}): Promise<{ paymentId: string; amount: number }> {
  const res = await suite.http.post("/v1/create_payment", {
    amount: 25,
    amountCurrency: "USD",
    currency: "ETH",
    ...body,
  })
  expect(res.status).toBe(200)
  return res.data.data
}
const status = async (paymentId: string) => (await suite.http.get(`/v1/invoice/${paymentId}/status`)).data

describe("by default (expiredStays: false)", () => {
  it("completes a payment paid in full and confirmed after its window ended", async () => {
    expect((await suite.control.configure({})).expiredStays).toBe(false)
    const payment = await createPayment()
    await suite.control.advanceClock(31 * 60_000)
    expect((await status(payment.paymentId)).status).toBe("EXPIRED")
    await suite.control.pay(payment.paymentId)
    await suite.control.confirm(payment.paymentId)
    expect(await status(payment.paymentId)).toMatchObject({
      status: "COMPLETED",
      currentBalance: "0.00769231",
      confirmations: 12,
      completedAt: expect.any(String),
    })
  })
})

describe("PUT /__sandbox/config {expiredStays: true}", () => {
  beforeEach(async () => {
    expect(await suite.control.configure({ expiredStays: true })).toMatchObject({ expiredStays: true })
  })

  it("keeps a payment EXPIRED by time while coins arrive and confirm: balance and confirmations grow", async () => {
    const payment = await createPayment()
    await suite.control.advanceClock(31 * 60_000)
    expect((await status(payment.paymentId)).status).toBe("EXPIRED")

    await suite.control.pay(payment.paymentId, { mode: "partial" })
    expect(await status(payment.paymentId)).toMatchObject({
      status: "EXPIRED",
      currentBalance: "0.00384615",
      confirmations: 0,
    })
    await suite.control.pay(payment.paymentId)
    expect(await status(payment.paymentId)).toMatchObject({ status: "EXPIRED", currentBalance: "0.00769231" })
    await suite.control.confirm(payment.paymentId, 5)
    expect(await status(payment.paymentId)).toMatchObject({ status: "EXPIRED", confirmations: 5 })
    await suite.control.confirm(payment.paymentId, 20)
    const record = await status(payment.paymentId)
    expect(record).toMatchObject({
      status: "EXPIRED",
      currentBalance: "0.00769231",
      requiredAmount: "0.00769231",
      confirmations: 25,
    })
    expect(record).not.toHaveProperty("completedAt")

    // overpaid, time passes: still EXPIRED, on every read and in the control view
    await suite.control.pay(payment.paymentId, { amount: "0.01" })
    await suite.control.confirm(payment.paymentId, 12)
    await suite.control.advanceClock(24 * 60 * 60_000)
    expect(await status(payment.paymentId)).toMatchObject({ status: "EXPIRED", currentBalance: "0.01769231" })
    const view = await suite.control.payment(payment.paymentId)
    expect(view).toMatchObject({ status: "EXPIRED", remainingAmount: "0.00000000" })
    expect(view.transactions).toHaveLength(3)
  })

  it("keeps a payment expired by POST /__sandbox/payments/:id/expire EXPIRED: no payment.completed webhook", async () => {
    const payment = await createPayment({ webhookUrl: "http://127.0.0.1:9/unreachable" })
    await suite.control.setWebhooks({ maxAttempts: 1 })
    await suite.control.expire(payment.paymentId)
    await suite.control.pay(payment.paymentId)
    await suite.control.confirm(payment.paymentId)
    expect(await status(payment.paymentId)).toMatchObject({ status: "EXPIRED", currentBalance: "0.00769231" })
    const events = (await suite.control.webhooks()).deliveries.map((d) => d.event)
    expect(events).toEqual(["payment.expired"])
  })

  it("changes nothing else: expiry by time, completion in time, a failed payment", async () => {
    const unpaid = await createPayment({ expirationMinutes: 5 })
    const paid = await createPayment({ expirationMinutes: 5 })
    const failed = await createPayment()
    await suite.control.pay(paid.paymentId)
    await suite.control.confirm(paid.paymentId)
    expect((await status(paid.paymentId)).status).toBe("COMPLETED")
    await suite.control.advanceClock(5 * 60_000)
    expect((await status(unpaid.paymentId)).status).toBe("EXPIRED")
    expect((await status(paid.paymentId)).status).toBe("COMPLETED")
    // fully paid before the window ends, confirmed after: still completes (it never expired)
    const waiting = await createPayment({ expirationMinutes: 5 })
    await suite.control.pay(waiting.paymentId)
    await suite.control.advanceClock(10 * 60_000)
    expect((await status(waiting.paymentId)).status).toBe("PENDING")
    await suite.control.confirm(waiting.paymentId)
    expect((await status(waiting.paymentId)).status).toBe("COMPLETED")
    await suite.control.fail(failed.paymentId)
    await suite.control.pay(failed.paymentId)
    await suite.control.confirm(failed.paymentId)
    expect((await status(failed.paymentId)).status).toBe("FAILED")
  })

  it("is read when a record is settled: switched off, a late payment in full completes at its next read", async () => {
    const payment = await createPayment()
    await suite.control.expire(payment.paymentId)
    await suite.control.pay(payment.paymentId)
    await suite.control.confirm(payment.paymentId)
    expect((await status(payment.paymentId)).status).toBe("EXPIRED")
    await suite.control.configure({ expiredStays: false })
    expect((await status(payment.paymentId)).status).toBe("COMPLETED")
  })
})
