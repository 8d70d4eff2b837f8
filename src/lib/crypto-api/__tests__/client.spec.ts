import { inspect } from "node:util"
import { startSandbox, Sandbox, SandboxControl } from "../../../sandbox"
import { backoffDelay, CryptoApiClient, normaliseBaseUrl, parseRetryAfter } from "../client"
import { CryptoApiError } from "../errors"

const KEY = "sk_client_test_secret_1234"
let sandbox: Sandbox
let control: SandboxControl
let waits: number[]
let logLines: string[]

function client(overrides: Partial<ConstructorParameters<typeof CryptoApiClient>[0]> = {}) {
  return new CryptoApiClient({
    baseUrl: sandbox.url,
    apiKey: KEY,
    timeoutMs: 1000,
    sleep: async (ms) => {
      waits.push(ms)
    },
    log: (line) => logLines.push(line),
    ...overrides,
  })
}

async function caught(promise: Promise<unknown>): Promise<CryptoApiError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(CryptoApiError)
    return error as CryptoApiError
  }
  throw new Error("the call succeeded")
}

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY })
  control = new SandboxControl(sandbox.url)
})
afterAll(() => sandbox.close())
beforeEach(async () => {
  waits = []
  logLines = []
  await control.reset()
})

describe("CryptoApiClient against the sandbox", () => {
  it("creates an invoice, with the webhook URL in the named field, and reads its status", async () => {
    const api = client()
    const invoice = await api.createInvoice(
      { amount: 25, amountCurrency: "USD", orderId: "payses_1" },
      { field: "notifyUrl", url: "http://localhost:9000/hooks/crypto/t" }
    )
    expect(invoice.paymentId).toMatch(/^inv_/)
    const [request] = await control.requests("/v1/create_invoice")
    expect(request.body).toEqual({
      amount: 25,
      amountCurrency: "USD",
      orderId: "payses_1",
      notifyUrl: "http://localhost:9000/hooks/crypto/t",
    })
    const status = await api.getStatus(invoice.paymentId)
    expect(status).toMatchObject({ paymentId: invoice.paymentId, status: "PENDING", confirmations: 0 })
  })

  it("sends no key to the public status endpoint", async () => {
    const api = client()
    const payment = await api.createPayment({ amount: 10, amountCurrency: "USD", currency: "BTC" })
    await api.getStatus(payment.paymentId)
    const [read] = await control.requests("/status")
    expect(read.headers["x-api-key"]).toBeUndefined()
  })

  it("accepts a base URL that ends in /v1 or a slash", () => {
    expect(normaliseBaseUrl("https://pay.example/v1/")).toBe("https://pay.example")
    expect(normaliseBaseUrl("https://pay.example/")).toBe("https://pay.example")
  })

  it("reads balances, both endpoints", async () => {
    const api = client()
    expect((await api.getBalances()).balances).toEqual({})
    const btc = await api.getBalance("BTC")
    expect(btc.balance.limits.daily.resetAt).toBeDefined()
  })

  it("refuses to send a request that breaks the spec, without calling the service", async () => {
    const api = client()
    const error = await caught(api.createPayment({ amount: 0, amountCurrency: "USD", currency: "DOGE" as "BTC" }))
    expect(error.kind).toBe("invalid_request")
    expect(Object.keys(error.details ?? {}).sort()).toEqual(["amount", "currency"])
    expect(await control.requests()).toHaveLength(0)
  })

  it("reports a 400 with the service's details", async () => {
    // an ftp:// URL passes our URL check but not the service's rule for the webhook field
    const error = await caught(
      client().createInvoice(
        { amount: 10, amountCurrency: "USD" },
        { field: "webhookUrl", url: "ftp://files.example/hook" }
      )
    )
    expect(error).toMatchObject({ kind: "http", status: 400, transient: false })
    expect(error.info.serviceError).toBe("Validation failure")
    expect(error.details).toEqual({ webhookUrl: expect.any(String) })
    expect(waits).toEqual([])
  })

  it("retries a status read after 429, honouring Retry-After", async () => {
    await control.addFault({ kind: "rate_limit", path: "/status", retryAfter: 2, times: 2 })
    const api = client()
    const payment = await api.createPayment({ amount: 10, amountCurrency: "USD", currency: "ETH" })
    const status = await api.getStatus(payment.paymentId)
    expect(status.status).toBe("PENDING")
    expect(waits).toEqual([2000, 2000])
  })

  it("retries a status read after 5xx with growing jittered backoff, then gives up", async () => {
    await control.addFault({ kind: "error", path: "/status", times: 10 })
    const api = client({ retry: { retries: 3, baseDelayMs: 100, maxDelayMs: 1000 } })
    const error = await caught(api.getStatus("pay_x"))
    expect(error).toMatchObject({ kind: "http", status: 500, transient: true })
    expect(waits).toHaveLength(3)
    expect(waits[0]).toBeGreaterThanOrEqual(50)
    expect(waits[0]).toBeLessThanOrEqual(100)
    expect(waits[2]).toBeGreaterThanOrEqual(200)
    expect(waits[2]).toBeLessThanOrEqual(400)
    expect(await control.requests("/status")).toHaveLength(4)
  })

  it("does not wait for a Retry-After beyond its limit: the caller decides", async () => {
    await control.addFault({ kind: "rate_limit", path: "/status", retryAfter: 600 })
    const error = await caught(client().getStatus("pay_x"))
    expect(error.rateLimited).toBe(true)
    expect(error.retryAfterMs).toBe(600_000)
    expect(waits).toEqual([])
  })

  it("never repeats a create that reached the service and failed with 5xx", async () => {
    await control.addFault({ kind: "error", path: "/v1/create_payment" })
    const error = await caught(client().createPayment({ amount: 10, amountCurrency: "USD", currency: "BTC" }))
    expect(error).toMatchObject({ kind: "http", status: 500 })
    expect(await control.requests("/v1/create_payment")).toHaveLength(1)
  })

  it("repeats a create refused with 429 (nothing was created)", async () => {
    await control.addFault({ kind: "rate_limit", path: "/v1/create_payment", retryAfter: 1 })
    const payment = await client().createPayment({ amount: 10, amountCurrency: "USD", currency: "BTC" })
    expect(payment.paymentId).toMatch(/^pay_/)
    expect((await control.requests("/v1/create_payment")).map((r) => r.status)).toEqual([429, 200])
  })

  it("times out a call that hangs", async () => {
    await control.addFault({ kind: "hang", path: "/v1/create_invoice" })
    const error = await caught(client({ timeoutMs: 300 }).createInvoice({ amount: 10, amountCurrency: "USD" }))
    expect(error.kind).toBe("timeout")
  })

  it("turns a malformed body into invalid_response", async () => {
    await control.addFault({ kind: "malformed", path: "/v1/merchant/balance" })
    const error = await caught(client().getBalances())
    expect(error.kind).toBe("invalid_response")
  })

  it("reports a refused connection as a network error", async () => {
    const error = await caught(client({ baseUrl: "http://127.0.0.1:1", retry: { retries: 0 } }).getStatus("pay_x"))
    expect(error.kind).toBe("network")
  })

  it("never puts the API key in an error, its inspection or a log line", async () => {
    const wrong = client({ apiKey: "sk_wrong_key_value_987" })
    const error = await caught(wrong.getBalances())
    expect(error.status).toBe(401)
    const network = await caught(
      client({ baseUrl: "http://127.0.0.1:1", retry: { retries: 1 } }).createInvoice({
        amount: 1,
        amountCurrency: "USD",
      })
    )
    for (const e of [error, network]) {
      const text = `${e.message} ${inspect(e, { depth: 10 })} ${JSON.stringify(e)}`
      expect(text).not.toContain("sk_wrong_key_value_987")
      expect(text).not.toContain(KEY)
    }
    expect(logLines.join("\n")).not.toContain(KEY)
    expect(logLines.join("\n")).not.toContain("sk_wrong_key_value_987")
  })
})

describe("retry helpers", () => {
  it("parses Retry-After as seconds or an HTTP date", () => {
    expect(parseRetryAfter("3")).toBe(3000)
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000)
    expect(parseRetryAfter("soon")).toBeUndefined()
    expect(parseRetryAfter(undefined)).toBeUndefined()
  })

  it("backs off exponentially with jitter and a cap", () => {
    const policy = { retries: 5, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 0 }
    expect(backoffDelay(0, policy, () => 0)).toBe(50)
    expect(backoffDelay(0, policy, () => 1)).toBe(100)
    expect(backoffDelay(3, policy, () => 1)).toBe(800)
    expect(backoffDelay(10, policy, () => 1)).toBe(1000)
  })
})
