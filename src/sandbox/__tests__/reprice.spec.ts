/**
 * Re-pricing at coin choice: a service whose invoice quotes (create_invoice's conversionRates) are
 * not locked, so the status record's requiredAmount differs from the creation quote, either way.
 * Driven over real HTTP on loopback, as the contract tests are.
 */
import { sandboxOverHttp } from "./over-http"
import { scaleByPercent } from "../decimal"

const KEY = "reprice_test_key"

const suite = sandboxOverHttp(KEY)

// at the sandbox's default prices, 25 USD quotes BTC 0.00038462, ETH 0.00769231, USDT 25.000000
async function createInvoice(amount = 25): Promise<{ paymentId: string; conversionRates: Record<string, any> }> {
  const res = await suite.http.post("/v1/create_invoice", { amount, amountCurrency: "USD" })
  expect(res.status).toBe(200)
  return res.data.data
}
const status = async (paymentId: string) => (await suite.http.get(`/v1/invoice/${paymentId}/status`)).data
const controlCall = (method: string, path: string, body?: unknown) =>
  suite.http.request({ method, url: `/__sandbox${path}`, data: body })

describe("scaleByPercent", () => {
  it.each([
    [2500n, 0, 2500n],
    [2500n, -3, 2425n],
    [2500n, 5, 2625n],
    [769231n, -2.5, 750001n], // 750000.225, rounded up
    [38462n, 5, 40386n], // 40385.1, rounded up
    [3n, 0.1, 4n], // 3.003
    [10n, -90, 1n],
    [10n, 1000, 110n],
    [1000000n, 1e-7, 1000001n], // 1000000.001: an exponent-printed percent is read exactly
  ])("%s units re-priced by %s%% are %s", (units, percent, expected) => {
    expect(scaleByPercent(units, percent)).toBe(expected)
  })

  it("refuses a re-price that leaves nothing to pay", () => {
    expect(() => scaleByPercent(100n, -100)).toThrow(RangeError)
  })
})

describe("POST /__sandbox/payments/:id/reprice", () => {
  it("re-prices down at coin selection, and leaves the creation quote as it was", async () => {
    const invoice = await createInvoice()
    const view = await suite.control.reprice(invoice.paymentId, -3)
    expect(view.repricePercent).toBe(-3)
    expect(view.requiredAmount).toBe("25.00") // no coin yet: the base amount, as before
    await suite.control.select(invoice.paymentId, "USDT_ERC20")
    const record = await status(invoice.paymentId)
    expect(record).toMatchObject({ currency: "USDT_ERC20", requiredAmount: "24.250000", currentBalance: "0.000000" })
    const seen = (await suite.control.payment(invoice.paymentId)) as any
    expect(seen.conversionRates.USDT_ERC20.cryptoAmount).toBe(25)
    expect(invoice.conversionRates.USDT_ERC20.cryptoAmount).toBe(25)
  })

  it("re-prices up at coin selection, rounded up at the coin's precision", async () => {
    const invoice = await createInvoice()
    expect(invoice.conversionRates.BTC.cryptoAmount).toBe(0.00038462)
    await suite.control.reprice(invoice.paymentId, 5)
    const view = await suite.control.select(invoice.paymentId, "BTC")
    expect(view.requiredAmount).toBe("0.00040386") // 0.000403851 rounded up
    expect(view.remainingAmount).toBe("0.00040386")
  })

  it("applies a fractional percent exactly", async () => {
    const invoice = await createInvoice()
    await suite.control.reprice(invoice.paymentId, -2.5)
    expect((await suite.control.select(invoice.paymentId, "ETH")).requiredAmount).toBe("0.00750001")
  })

  it("re-quotes at once when the coin is already selected, and again for another coin", async () => {
    const invoice = await createInvoice()
    expect((await suite.control.select(invoice.paymentId, "ETH")).requiredAmount).toBe("0.00769231")
    const view = await suite.control.reprice(invoice.paymentId, 5)
    expect(view.requiredAmount).toBe("0.00807693") // 0.0080769255 rounded up
    expect((await status(invoice.paymentId)).requiredAmount).toBe("0.00807693")
    expect((await suite.control.select(invoice.paymentId, "USDT_BEP20")).requiredAmount).toBe("26.250000")
  })

  it("with null, clears the invoice's re-price back to the creation quote", async () => {
    const invoice = await createInvoice()
    await suite.control.select(invoice.paymentId, "USDT_ERC20")
    await suite.control.reprice(invoice.paymentId, 10)
    const view = await suite.control.reprice(invoice.paymentId, null)
    expect(view).toMatchObject({ repricePercent: null, requiredAmount: "25.000000" })
  })

  it("accepts the bounds -90 and +1000", async () => {
    const low = await createInvoice()
    await suite.control.reprice(low.paymentId, -90)
    expect((await suite.control.select(low.paymentId, "USDT_ERC20")).requiredAmount).toBe("2.500000")
    const high = await createInvoice()
    await suite.control.reprice(high.paymentId, 1000)
    expect((await suite.control.select(high.paymentId, "USDT_ERC20")).requiredAmount).toBe("275.000000")
  })

  it("makes a full payment pay the re-priced amount, which completes", async () => {
    const invoice = await createInvoice()
    await suite.control.reprice(invoice.paymentId, 5)
    await suite.control.select(invoice.paymentId, "USDT_ERC20")
    const paid = await suite.control.pay(invoice.paymentId)
    expect(paid.transactions).toEqual([expect.objectContaining({ amount: "26.250000" })])
    await suite.control.confirm(invoice.paymentId)
    expect(await status(invoice.paymentId)).toMatchObject({
      status: "COMPLETED",
      requiredAmount: "26.250000",
      currentBalance: "26.250000",
    })
  })

  it("leaves a payment of the creation quote underpaid after a re-price up: it never completes, and expires", async () => {
    const invoice = await createInvoice()
    await suite.control.select(invoice.paymentId, "USDT_ERC20")
    await suite.control.reprice(invoice.paymentId, 5)
    await suite.control.pay(invoice.paymentId, { amount: "25" })
    await suite.control.confirm(invoice.paymentId, 50)
    expect(await status(invoice.paymentId)).toMatchObject({ status: "PENDING", currentBalance: "25.000000" })
    expect((await suite.control.payment(invoice.paymentId)).remainingAmount).toBe("1.250000")
    await suite.control.advanceClock(61 * 60_000)
    expect((await status(invoice.paymentId)).status).toBe("EXPIRED")
  })

  it("completes a payment of the creation quote after a re-price down (an overpayment)", async () => {
    const invoice = await createInvoice()
    await suite.control.reprice(invoice.paymentId, -3)
    await suite.control.select(invoice.paymentId, "USDT_ERC20")
    await suite.control.pay(invoice.paymentId, { amount: "25" })
    await suite.control.confirm(invoice.paymentId)
    expect(await status(invoice.paymentId)).toMatchObject({
      status: "COMPLETED",
      requiredAmount: "24.250000",
      currentBalance: "25.000000",
    })
  })

  it.each([
    ["a string", { percent: "5" }],
    ["no percent", {}],
    ["below -90", { percent: -90.5 }],
    ["above 1000", { percent: 1000.01 }],
    ["a boolean", { percent: true }],
  ])("answers 400 for %s, and changes nothing", async (_, body) => {
    const invoice = await createInvoice()
    await suite.control.select(invoice.paymentId, "USDT_ERC20")
    const res = await controlCall("POST", `/payments/${invoice.paymentId}/reprice`, body)
    expect(res.status).toBe(400)
    expect(res.data).toMatchObject({ success: false, error: expect.stringMatching(/percent.*-90.*1000/) })
    expect(typeof res.data.details.percent).toBe("string")
    expect(await suite.control.payment(invoice.paymentId)).toMatchObject({
      repricePercent: null,
      requiredAmount: "25.000000",
    })
  })

  it("answers 404 for an unknown payment", async () => {
    expect((await controlCall("POST", "/payments/inv_missing/reprice", { percent: 5 })).status).toBe(404)
  })

  it("answers 409 for a payment (its coin is fixed at creation) and for an invoice that received funds", async () => {
    const payment = await suite.http.post("/v1/create_payment", { amount: 25, amountCurrency: "USD", currency: "ETH" })
    const onPayment = await controlCall("POST", `/payments/${payment.data.data.paymentId}/reprice`, { percent: 5 })
    expect(onPayment.status).toBe(409)
    const invoice = await createInvoice()
    await suite.control.select(invoice.paymentId, "USDT_ERC20")
    await suite.control.pay(invoice.paymentId, { mode: "partial" })
    const afterFunds = await controlCall("POST", `/payments/${invoice.paymentId}/reprice`, { percent: 5 })
    expect(afterFunds.status).toBe(409)
    expect((await status(invoice.paymentId)).requiredAmount).toBe("25.000000")
  })
})

describe("PUT /__sandbox/config {repricePercent}", () => {
  it("re-prices every invoice at coin choice unless the invoice has its own", async () => {
    expect(await suite.control.configure({ repricePercent: -10 })).toMatchObject({ repricePercent: -10 })
    const shopWide = await createInvoice()
    expect((await suite.control.select(shopWide.paymentId, "USDT_BEP20")).requiredAmount).toBe("22.500000")
    const own = await createInvoice()
    await suite.control.reprice(own.paymentId, 2)
    expect((await suite.control.select(own.paymentId, "USDT_BEP20")).requiredAmount).toBe("25.500000")
  })

  it("applies at coin choice only: an invoice whose coin was chosen before keeps its amount", async () => {
    const before = await createInvoice()
    await suite.control.select(before.paymentId, "USDT_ERC20")
    await suite.control.configure({ repricePercent: 5 })
    expect((await status(before.paymentId)).requiredAmount).toBe("25.000000")
    const after = await createInvoice()
    expect((await suite.control.select(after.paymentId, "USDT_ERC20")).requiredAmount).toBe("26.250000")
  })

  it("is the fallback when an invoice's own re-price is cleared", async () => {
    await suite.control.configure({ repricePercent: 4 })
    const invoice = await createInvoice()
    await suite.control.reprice(invoice.paymentId, -3)
    await suite.control.select(invoice.paymentId, "USDT_ERC20")
    expect((await suite.control.reprice(invoice.paymentId, null)).requiredAmount).toBe("26.000000")
  })

  it("locks quotes again with null", async () => {
    await suite.control.configure({ repricePercent: 5 })
    expect(await suite.control.configure({ repricePercent: null })).toMatchObject({ repricePercent: null })
    const invoice = await createInvoice()
    expect((await suite.control.select(invoice.paymentId, "USDT_ERC20")).requiredAmount).toBe("25.000000")
  })

  it.each([["5"], [-91], [1001], [true]])("answers 400 for %j, and applies no field of the request", async (bad) => {
    const res = await controlCall("PUT", "/config", { webhookField: "callbackUrl", repricePercent: bad })
    expect(res.status).toBe(400)
    expect(res.data.error).toMatch(/repricePercent/)
    expect(await suite.control.configure({})).toEqual({
      webhookField: "webhookUrl",
      unselectedStyle: "absent",
      repricePercent: null,
      expiredStays: false,
      decimals: "quoted",
    })
  })
})

describe("reset", () => {
  it("clears the shop-wide and the per-invoice re-prices", async () => {
    await suite.control.configure({ repricePercent: 7 })
    const old = await createInvoice()
    await suite.control.reprice(old.paymentId, 9)
    await suite.control.reset()
    expect((await controlCall("GET", `/payments/${old.paymentId}`)).status).toBe(404)
    expect((await suite.control.configure({})).repricePercent).toBeNull()
    const invoice = await createInvoice()
    expect(await suite.control.select(invoice.paymentId, "USDT_ERC20")).toMatchObject({
      repricePercent: null,
      requiredAmount: "25.000000",
    })
  })
})

describe("help", () => {
  it("lists the re-price routes", async () => {
    const endpoints: string[] = (await controlCall("GET", "/")).data.endpoints
    expect(endpoints.some((e) => e.includes("/__sandbox/payments/:id/reprice"))).toBe(true)
    expect(endpoints.some((e) => e.includes("/__sandbox/config") && e.includes("repricePercent"))).toBe(true)
  })
})
