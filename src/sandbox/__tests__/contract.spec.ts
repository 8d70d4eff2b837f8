/**
 * The sandbox against the spec, table by table (../shared/spec/crypto-payment-service.md):
 * resources and their fields, validation and its errors, status codes, defaults,
 * confirmations per coin, the QR format, balances, webhooks, and the control API.
 */
import axios, { AxiosInstance } from "axios"
import { createServer, Server } from "node:http"
import type { AddressInfo } from "node:net"
import { startSandbox, Sandbox, SandboxControl } from ".."
import { qrPayload } from "../page"
import { COINS, REQUIRED_CONFIRMATIONS } from "../../lib/crypto-api/constants"

const KEY = "contract_test_key"
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/
const DECIMAL = /^\d+\.\d+$/

let sandbox: Sandbox
let http: AxiosInstance
let control: SandboxControl

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, webhookRetryBaseMs: 20 })
  http = axios.create({ baseURL: sandbox.url, validateStatus: () => true, headers: { "X-API-Key": KEY } })
  control = new SandboxControl(sandbox.url)
})
afterAll(() => sandbox.close())
beforeEach(() => control.reset())

const createInvoice = (body: Record<string, unknown> = {}) =>
  http.post("/v1/create_invoice", { amount: 25, amountCurrency: "USD", ...body })
const createPayment = (body: Record<string, unknown> = {}) =>
  http.post("/v1/create_payment", { amount: 25, amountCurrency: "USD", currency: "ETH", ...body })
const status = (paymentId: string) =>
  axios.get(`${sandbox.url}/v1/invoice/${paymentId}/status`, { validateStatus: () => true })

function minutesBetween(a: string, b: string) {
  return Math.round((new Date(b).getTime() - new Date(a).getTime()) / 60_000)
}

describe("POST /v1/create_invoice", () => {
  it("returns the Invoice in the success envelope with every field of the spec", async () => {
    const res = await createInvoice({ orderId: "cart_1", description: "Order #1" })
    expect(res.status).toBe(200)
    expect(res.data).toEqual({ success: true, data: expect.any(Object), message: expect.any(String), statusCode: 200 })
    const invoice = res.data.data
    expect(Object.keys(invoice).sort()).toEqual(
      [
        "paymentId",
        "baseAmount",
        "baseCurrency",
        "conversionRates",
        "invoiceUrl",
        "allowCurrencySelection",
        "orderId",
        "expiresAt",
      ].sort()
    )
    expect(invoice).toMatchObject({
      baseAmount: 25,
      baseCurrency: "USD",
      allowCurrencySelection: true,
      orderId: "cart_1",
    })
    expect(typeof invoice.paymentId).toBe("string")
    expect(invoice.invoiceUrl).toBe(`${sandbox.url}/pay/${invoice.paymentId}`)
    expect(invoice.expiresAt).toMatch(ISO)
    expect(Object.keys(invoice.conversionRates).sort()).toEqual([...COINS].sort())
    for (const coin of COINS) {
      expect(invoice.conversionRates[coin]).toEqual({ cryptoAmount: expect.any(Number), price: expect.any(Number) })
      expect(invoice.conversionRates[coin].cryptoAmount).toBeGreaterThan(0)
    }
    expect(invoice.conversionRates.USDT_ERC20.cryptoAmount).toBe(25)
  })

  it("leaves orderId out when none is supplied", async () => {
    const res = await createInvoice()
    expect(res.data.data).not.toHaveProperty("orderId")
  })

  it("accepts USDT as amountCurrency", async () => {
    expect((await createInvoice({ amountCurrency: "USDT" })).data.data.baseCurrency).toBe("USDT")
  })

  it("expires after 60 minutes by default and after expirationMinutes when given", async () => {
    const byDefault = (await createInvoice()).data.data
    const created = (await status(byDefault.paymentId)).data.createdAt
    expect(minutesBetween(created, byDefault.expiresAt)).toBe(60)
    const custom = (await createInvoice({ expirationMinutes: 5 })).data.data
    expect(minutesBetween((await status(custom.paymentId)).data.createdAt, custom.expiresAt)).toBe(5)
    const longest = (await createInvoice({ expirationMinutes: 1440 })).data.data
    expect(minutesBetween((await status(longest.paymentId)).data.createdAt, longest.expiresAt)).toBe(1440)
  })

  it.each([
    ["amount", { amount: 0 }],
    ["amount", { amount: -3 }],
    ["amount", { amount: "25" }],
    ["amount", { amount: undefined }],
    ["amountCurrency", { amountCurrency: "EUR" }],
    ["amountCurrency", { amountCurrency: "BTC" }],
    ["amountCurrency", { amountCurrency: undefined }],
    ["expirationMinutes", { expirationMinutes: 4 }],
    ["expirationMinutes", { expirationMinutes: 1441 }],
    ["expirationMinutes", { expirationMinutes: 10.5 }],
    ["orderId", { orderId: 42 }],
    ["webhookUrl", { webhookUrl: "not a url" }],
  ])("answers 400 validation failure with details.%s", async (field, body) => {
    const res = await createInvoice(body)
    expect(res.status).toBe(400)
    expect(res.data).toEqual({
      success: false,
      error: "Validation failure",
      details: expect.any(Object),
      statusCode: 400,
    })
    expect(typeof res.data.details[field]).toBe("string")
  })

  it("reports every bad field at once", async () => {
    const res = await http.post("/v1/create_invoice", { amount: 0, amountCurrency: "GBP" })
    expect(Object.keys(res.data.details).sort()).toEqual(["amount", "amountCurrency"])
  })
})

describe("POST /v1/create_payment", () => {
  it("returns the Payment with address and the QR payload <coin>:<address>?amount=<amount>", async () => {
    const res = await createPayment({ orderId: "cart_2", description: "Order #2" })
    expect(res.status).toBe(200)
    expect(res.data).toMatchObject({ success: true, statusCode: 200, message: expect.any(String) })
    const payment = res.data.data
    expect(Object.keys(payment).sort()).toEqual(
      [
        "paymentId",
        "amount",
        "currency",
        "address",
        "invoiceUrl",
        "qrCode",
        "expiresAt",
        "orderId",
        "description",
      ].sort()
    )
    expect(payment).toMatchObject({ currency: "ETH", orderId: "cart_2", description: "Order #2" })
    expect(typeof payment.amount).toBe("number")
    expect(payment.address).toMatch(/^0x[0-9a-f]{40}$/)
    expect(payment.qrCode).toBe(`eth:${payment.address}?amount=${payment.amount}`)
    expect(payment.expiresAt).toMatch(ISO)
  })

  it("omits orderId and description when they are not supplied", async () => {
    const payment = (await createPayment()).data.data
    expect(payment).not.toHaveProperty("orderId")
    expect(payment).not.toHaveProperty("description")
  })

  it.each([
    ["BTC", /^bc1q[a-z0-9]{38}$/],
    ["LTC", /^ltc1q[a-z0-9]{38}$/],
    ["ETH", /^0x[0-9a-f]{40}$/],
    ["USDT_ERC20", /^0x[0-9a-f]{40}$/],
    ["USDT_BEP20", /^0x[0-9a-f]{40}$/],
  ])("gives a %s payment a plausible address and a lowercase QR scheme", async (coin, format) => {
    const payment = (await createPayment({ currency: coin })).data.data
    expect(payment.address).toMatch(format)
    expect(payment.qrCode.startsWith(`${coin.toLowerCase()}:${payment.address}?amount=`)).toBe(true)
  })

  it("generates a unique address per payment", async () => {
    const addresses = new Set<string>()
    for (let i = 0; i < 20; i++) addresses.add((await createPayment({ currency: "BTC" })).data.data.address)
    expect(addresses.size).toBe(20)
  })

  it("states amounts at the coin's precision", async () => {
    const btc = (await createPayment({ currency: "BTC", amount: 100 })).data.data
    expect(btc.amount).toBe(0.00153847) // 100 / 65000 rounded up at 8 places
    const usdt = (await createPayment({ currency: "USDT_BEP20", amount: 19.99 })).data.data
    expect(usdt.amount).toBe(19.99)
    const fromBtc = (await createPayment({ currency: "BTC", amountCurrency: "BTC", amount: 0.5 })).data.data
    expect(fromBtc.amount).toBe(0.5)
  })

  it("expires after 30 minutes by default", async () => {
    const payment = (await createPayment()).data.data
    expect(minutesBetween((await status(payment.paymentId)).data.createdAt, payment.expiresAt)).toBe(30)
  })

  it.each(["LTC", "USDT", "BTC", "ETH", "USD"])("accepts %s as amountCurrency", async (amountCurrency) => {
    expect((await createPayment({ amountCurrency })).status).toBe(200)
  })

  it("answers 400 with a details entry keyed currency for an invalid coin", async () => {
    const res = await createPayment({ currency: "DOGE" })
    expect(res.status).toBe(400)
    expect(res.data.error).toBe("Validation failure")
    expect(res.data.details.currency).toContain("BTC, ETH, LTC, USDT_ERC20, USDT_BEP20")
  })

  it.each([
    ["amount", { amount: 0 }],
    ["amountCurrency", { amountCurrency: "EUR" }],
    ["amountCurrency", { amountCurrency: "USDT_ERC20" }],
    ["currency", { currency: undefined }],
    ["expirationMinutes", { expirationMinutes: 0 }],
    ["description", { description: ["x"] }],
  ])("answers 400 with details.%s", async (field, body) => {
    const res = await createPayment(body)
    expect(res.status).toBe(400)
    expect(res.data.details).toHaveProperty(field)
  })
})

describe("authentication", () => {
  it.each([
    ["POST", "/v1/create_invoice"],
    ["POST", "/v1/create_payment"],
    ["GET", "/v1/merchant/balance"],
    ["GET", "/v1/merchant/balance/BTC"],
  ])("%s %s answers 401 with a missing or wrong key", async (method, url) => {
    for (const headers of [{}, { "X-API-Key": "wrong" }]) {
      const res = await axios.request({ method, url: sandbox.url + url, headers, data: {}, validateStatus: () => true })
      expect(res.status).toBe(401)
      expect(res.data).toEqual({ success: false, error: "Invalid API key", statusCode: 401 })
    }
  })

  it("checks the key before validating the body", async () => {
    const res = await axios.post(
      `${sandbox.url}/v1/create_payment`,
      { currency: "DOGE" },
      { validateStatus: () => true }
    )
    expect(res.status).toBe(401)
  })
})

describe("GET /v1/invoice/{paymentId}/status", () => {
  it("returns the record without the envelope and without authentication", async () => {
    const payment = (await createPayment({ currency: "LTC" })).data.data
    const res = await status(payment.paymentId)
    expect(res.status).toBe(200)
    expect(res.data).not.toHaveProperty("success")
    expect(Object.keys(res.data).sort()).toEqual(
      [
        "paymentId",
        "status",
        "currentBalance",
        "confirmations",
        "requiredAmount",
        "currency",
        "address",
        "expiresAt",
        "createdAt",
      ].sort()
    )
    expect(res.data).toMatchObject({
      paymentId: payment.paymentId,
      status: "PENDING",
      currentBalance: "0.00000000",
      confirmations: 0,
      currency: "LTC",
      address: payment.address,
    })
    expect(res.data.requiredAmount).toMatch(DECIMAL)
    expect(Number(res.data.requiredAmount)).toBe(payment.amount)
    expect(res.data.createdAt).toMatch(ISO)
  })

  it("leaves currency and address out of an invoice until a coin is chosen", async () => {
    const invoice = (await createInvoice()).data.data
    const before = (await status(invoice.paymentId)).data
    expect(before).not.toHaveProperty("currency")
    expect(before).not.toHaveProperty("address")
    await control.select(invoice.paymentId, "BTC")
    const after = (await status(invoice.paymentId)).data
    expect(after.currency).toBe("BTC")
    expect(after.address).toMatch(/^bc1q/)
    expect(Number(after.requiredAmount)).toBe(invoice.conversionRates.BTC.cryptoAmount)
  })

  it("can show them as null instead, for clients that must cope with both", async () => {
    await control.configure({ unselectedStyle: "null" })
    const invoice = (await createInvoice()).data.data
    const before = (await status(invoice.paymentId)).data
    expect(before.currency).toBeNull()
    expect(before.address).toBeNull()
  })

  it("answers 404 for an unknown id", async () => {
    const res = await status("pay_unknown")
    expect(res.status).toBe(404)
    expect(res.data).toEqual({ success: false, error: "Payment not found", statusCode: 404 })
  })
})

describe("chain simulation", () => {
  it.each(Object.entries(REQUIRED_CONFIRMATIONS))(
    "%s completes only with the full amount and %i confirmations",
    async (coin, required) => {
      const payment = (await createPayment({ currency: coin })).data.data
      await control.pay(payment.paymentId)
      let record = (await status(payment.paymentId)).data
      expect(record.status).toBe("PENDING")
      expect(record.currentBalance).toBe(record.requiredAmount)
      await control.confirm(payment.paymentId, required - 1)
      record = (await status(payment.paymentId)).data
      expect(record).toMatchObject({ status: "PENDING", confirmations: required - 1 })
      expect(record).not.toHaveProperty("completedAt")
      await control.confirm(payment.paymentId, 1)
      record = (await status(payment.paymentId)).data
      expect(record).toMatchObject({ status: "COMPLETED", confirmations: required })
      expect(record.completedAt).toMatch(ISO)
    }
  )

  it("never completes an underpaid payment, however many confirmations", async () => {
    const payment = (await createPayment({ currency: "BTC" })).data.data
    await control.pay(payment.paymentId, { mode: "partial" })
    await control.confirm(payment.paymentId, 100)
    const record = (await status(payment.paymentId)).data
    expect(record.status).toBe("PENDING")
    expect(Number(record.currentBalance)).toBeLessThan(Number(record.requiredAmount))
  })

  it("completes an overpaid payment and reports what was received", async () => {
    const payment = (await createPayment({ currency: "BTC" })).data.data
    await control.pay(payment.paymentId, { mode: "over" })
    await control.confirm(payment.paymentId)
    const record = (await status(payment.paymentId)).data
    expect(record.status).toBe("COMPLETED")
    expect(Number(record.currentBalance)).toBeGreaterThan(Number(record.requiredAmount))
  })

  it("expires when the window ends without the full amount", async () => {
    const payment = (await createPayment({ expirationMinutes: 5 })).data.data
    await control.pay(payment.paymentId, { mode: "partial" })
    await control.advanceClock(4 * 60_000)
    expect((await status(payment.paymentId)).data.status).toBe("PENDING")
    await control.advanceClock(60_000)
    expect((await status(payment.paymentId)).data.status).toBe("EXPIRED")
  })

  it("does not expire a fully paid payment still waiting for confirmations", async () => {
    const payment = (await createPayment({ currency: "BTC", expirationMinutes: 5 })).data.data
    await control.pay(payment.paymentId)
    await control.advanceClock(10 * 60_000)
    expect((await status(payment.paymentId)).data.status).toBe("PENDING")
    await control.confirm(payment.paymentId)
    expect((await status(payment.paymentId)).data.status).toBe("COMPLETED")
  })

  it("fails on demand, and a failed payment stays failed", async () => {
    const payment = (await createPayment({ currency: "BTC" })).data.data
    await control.fail(payment.paymentId)
    expect((await status(payment.paymentId)).data.status).toBe("FAILED")
    await control.pay(payment.paymentId)
    await control.confirm(payment.paymentId)
    expect((await status(payment.paymentId)).data.status).toBe("FAILED")
  })

  it("completes a payment paid in full after it expired (a late payment)", async () => {
    const payment = (await createPayment({ currency: "BTC" })).data.data
    await control.expire(payment.paymentId)
    expect((await status(payment.paymentId)).data.status).toBe("EXPIRED")
    await control.pay(payment.paymentId)
    await control.confirm(payment.paymentId)
    expect((await status(payment.paymentId)).data.status).toBe("COMPLETED")
  })

  it("refuses to pay an invoice before a coin is chosen", async () => {
    const invoice = (await createInvoice()).data.data
    await expect(control.pay(invoice.paymentId)).rejects.toThrow(/409 choose a coin/)
  })
})

describe("balances", () => {
  it("GET /v1/merchant/balance lists coins with activity, pending then available, without resetAt", async () => {
    const empty = await http.get("/v1/merchant/balance")
    expect(empty.status).toBe(200)
    expect(empty.data).toMatchObject({ success: true, statusCode: 200, message: expect.any(String) })
    expect(empty.data.data).toEqual({ merchantId: expect.any(String), businessName: expect.any(String), balances: {} })

    const payment = (await createPayment({ currency: "BTC", amountCurrency: "BTC", amount: 0.5 })).data.data
    await control.pay(payment.paymentId)
    let btc = (await http.get("/v1/merchant/balance")).data.data.balances.BTC
    expect(btc).toMatchObject({ pendingBalance: 0.5, availableBalance: 0, totalEarned: 0, totalWithdrawn: 0 })
    expect(Object.keys((await http.get("/v1/merchant/balance")).data.data.balances)).toEqual(["BTC"])

    await control.confirm(payment.paymentId)
    btc = (await http.get("/v1/merchant/balance")).data.data.balances.BTC
    expect(btc).toMatchObject({ pendingBalance: 0, availableBalance: 0.5, totalEarned: 0.5 })
    for (const period of ["daily", "monthly"]) {
      expect(btc.limits[period]).toEqual({
        limit: expect.any(Number),
        used: expect.any(Number),
        remaining: expect.any(Number),
      })
    }
  })

  it("GET /v1/merchant/balance/{currency} carries resetAt in each limit", async () => {
    const res = await http.get("/v1/merchant/balance/ETH")
    expect(res.status).toBe(200)
    expect(res.data.data.currency).toBe("ETH")
    const { balance } = res.data.data
    expect(Object.keys(balance).sort()).toEqual([
      "availableBalance",
      "limits",
      "pendingBalance",
      "totalEarned",
      "totalWithdrawn",
    ])
    for (const period of ["daily", "monthly"]) {
      expect(balance.limits[period]).toEqual({
        limit: expect.any(Number),
        used: expect.any(Number),
        remaining: expect.any(Number),
        resetAt: expect.stringMatching(ISO),
      })
    }
    expect(new Date(balance.limits.monthly.resetAt).getUTCDate()).toBe(1)
  })

  it("answers 400 invalid currency with details.currency stating the allowed set", async () => {
    const res = await http.get("/v1/merchant/balance/DOGE")
    expect(res.status).toBe(400)
    expect(res.data).toEqual({
      success: false,
      error: "Invalid currency",
      details: { currency: expect.stringContaining("BTC, ETH, LTC, USDT_ERC20, USDT_BEP20") },
      statusCode: 400,
    })
  })
})

describe("faults and rate limits", () => {
  it("answers 500 in the error envelope on an injected fault, once", async () => {
    await control.addFault({ kind: "error", path: "/v1/create_invoice" })
    const res = await createInvoice()
    expect(res.status).toBe(500)
    expect(res.data).toEqual({ success: false, error: "Internal server error", statusCode: 500 })
    expect((await createInvoice()).status).toBe(200)
  })

  it("answers 429 with Retry-After when a fault asks for it", async () => {
    await control.addFault({ kind: "rate_limit", path: "/status", retryAfter: 7, times: 2 })
    const payment = (await createPayment()).data.data
    for (let i = 0; i < 2; i++) {
      const res = await status(payment.paymentId)
      expect(res.status).toBe(429)
      expect(res.headers["retry-after"]).toBe("7")
    }
    expect((await status(payment.paymentId)).status).toBe(200)
  })

  it("answers malformed JSON when asked", async () => {
    await control.addFault({ kind: "malformed", path: "/v1/merchant/balance" })
    const res = await http.get("/v1/merchant/balance", { transformResponse: (d) => d })
    expect(res.status).toBe(200)
    expect(() => JSON.parse(res.data)).toThrow()
  })

  it("hangs when asked, so clients' timeouts can be tested", async () => {
    const payment = (await createPayment()).data.data
    await control.addFault({ kind: "hang", path: "/status" })
    await expect(axios.get(`${sandbox.url}/v1/invoice/${payment.paymentId}/status`, { timeout: 300 })).rejects.toThrow(
      /timeout/
    )
    expect((await status(payment.paymentId)).status).toBe(200)
  })

  it("lets `skip` matching requests through before a fault starts", async () => {
    const payment = (await createPayment()).data.data
    await control.addFault({ kind: "error", path: "/status", skip: 2, times: 1 })
    const codes: number[] = []
    for (let i = 0; i < 4; i++) codes.push((await status(payment.paymentId)).status)
    expect(codes).toEqual([200, 200, 500, 200])
  })

  it("answers a seeded share of requests with random faults under chaos, the same for the same seed", async () => {
    const payment = (await createPayment()).data.data
    const run = async () => {
      await control.setChaos({ rate: 0.5, kinds: ["error", "rate_limit"], path: "/v1/invoice/", seed: 7 })
      const codes: number[] = []
      for (let i = 0; i < 40; i++) codes.push((await status(payment.paymentId)).status)
      await control.setChaos({ rate: 0 })
      return codes
    }
    const first = await run()
    expect(first.filter((c) => c !== 200).length).toBeGreaterThan(10)
    expect(first.filter((c) => c !== 200).length).toBeLessThan(30)
    expect(new Set(first.filter((c) => c !== 200))).toEqual(new Set([500, 429]))
    expect(await run()).toEqual(first)
    expect((await status(payment.paymentId)).status).toBe(200)
  })

  it("answers 429 with Retry-After beyond the configured rate limit", async () => {
    await control.setRateLimit(3, 60_000)
    const payment = (await createPayment()).data.data
    const codes: number[] = []
    for (let i = 0; i < 4; i++) codes.push((await status(payment.paymentId)).status)
    expect(codes).toEqual([200, 200, 429, 429])
    const limited = await status(payment.paymentId)
    expect(limited.data).toEqual({ success: false, error: "Rate limit exceeded", statusCode: 429 })
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0)
  })
})

describe("request log", () => {
  it("records method, path, body and headers without the key's value", async () => {
    await createInvoice({ orderId: "cart_log" })
    const [entry] = await control.requests("/v1/create_invoice")
    expect(entry).toMatchObject({
      method: "POST",
      path: "/v1/create_invoice",
      body: { amount: 25, amountCurrency: "USD", orderId: "cart_log" },
      status: 200,
    })
    expect(entry.headers["x-api-key"]).toBe("[redacted]")
    expect(JSON.stringify(await control.requests())).not.toContain(KEY)
  })
})

describe("webhooks", () => {
  let receiver: Server
  let receiverUrl: string
  let received: Array<{ body: any; url: string }>
  let answers: number[]

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = ""
      req.on("data", (c) => (body += c))
      req.on("end", () => {
        received.push({ body: JSON.parse(body), url: req.url ?? "" })
        res.writeHead(answers.shift() ?? 200).end()
      })
    })
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r))
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise((r) => receiver.close(r)))
  beforeEach(() => {
    received = []
    answers = []
  })

  it("posts every status change to the URL given at creation", async () => {
    const payment = (await createPayment({ currency: "BTC", webhookUrl: `${receiverUrl}/hooks/abc` })).data.data
    await control.pay(payment.paymentId)
    await control.confirm(payment.paymentId)
    await sandbox.webhooks.idle()
    expect(received).toHaveLength(1)
    expect(received[0].url).toBe("/hooks/abc")
    expect(received[0].body).toMatchObject({ paymentId: payment.paymentId, status: "COMPLETED" })
  })

  it("retries with backoff on a non-2xx answer until it is accepted", async () => {
    answers = [500, 503]
    const payment = (await createPayment({ webhookUrl: `${receiverUrl}/hooks/retry` })).data.data
    await control.expire(payment.paymentId)
    await sandbox.webhooks.idle()
    expect(received).toHaveLength(3)
    const { deliveries } = await control.webhooks()
    expect(deliveries[0]).toMatchObject({
      state: "delivered",
      attempts: [{ status: 500 }, { status: 503 }, { status: 200 }],
    })
  })

  it("retries on a network error and gives up after maxAttempts", async () => {
    await control.setWebhooks({ maxAttempts: 3 })
    const payment = (await createPayment({ webhookUrl: "http://127.0.0.1:1/unreachable" })).data.data
    await control.fail(payment.paymentId)
    await sandbox.webhooks.idle()
    const { deliveries } = await control.webhooks()
    expect(deliveries[0].state).toBe("gave_up")
    expect(deliveries[0].attempts).toHaveLength(3)
    expect(deliveries[0].attempts[0].error).toBeDefined()
  })

  it("reads the URL from the configured body field", async () => {
    await control.configure({ webhookField: "callbackUrl" })
    const payment = (await createPayment({ callbackUrl: `${receiverUrl}/hooks/field` })).data.data
    await control.fail(payment.paymentId)
    await sandbox.webhooks.idle()
    expect(received.map((r) => r.url)).toEqual(["/hooks/field"])
  })

  it("sends nothing while webhooks are switched off", async () => {
    await control.setWebhooks({ enabled: false })
    const payment = (await createPayment({ webhookUrl: `${receiverUrl}/hooks/off` })).data.data
    await control.fail(payment.paymentId)
    await sandbox.webhooks.idle()
    expect(received).toHaveLength(0)
  })
})

describe("hosted page", () => {
  it("serves the page at invoiceUrl and 404 for an unknown payment", async () => {
    const invoice = (await createInvoice()).data.data
    const page = await axios.get(invoice.invoiceUrl)
    expect(page.headers["content-type"]).toContain("text/html")
    expect(page.data).toContain(JSON.stringify(invoice.paymentId))
    expect((await axios.get(`${sandbox.url}/pay/nope`, { validateStatus: () => true })).status).toBe(404)
  })

  it("shows the QR code of the payment's payload once a coin is chosen", async () => {
    const invoice = (await createInvoice()).data.data
    const qrOf = (paymentId: string) =>
      axios.get(`${sandbox.url}/pay/${paymentId}/qr.svg`, { validateStatus: () => true })
    expect((await qrOf(invoice.paymentId)).status).toBe(404)
    await control.select(invoice.paymentId, "LTC")
    const qr = await qrOf(invoice.paymentId)
    expect(qr.status).toBe(200)
    expect(qr.headers["content-type"]).toContain("image/svg+xml")
    expect(String(qr.data)).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[\s\S]*<path[\s\S]*<\/svg>\s*$/)
    // the page shows it as an image
    expect((await axios.get(invoice.invoiceUrl)).data).toContain('<img id="qr"')
    // a payment has its coin from the start; the SVG encodes the status record's own payload
    const payment = (await createPayment()).data.data
    expect(qrPayload((await status(payment.paymentId)).data)).toBe(payment.qrCode)
    expect((await qrOf(payment.paymentId)).status).toBe(200)
    expect((await qrOf("nope")).status).toBe(404)
  })
})
