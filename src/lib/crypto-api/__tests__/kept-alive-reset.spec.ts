import http from "node:http"
import type { AddressInfo } from "node:net"
import { inspect } from "node:util"
import { MedusaError } from "@medusajs/framework/utils"
import type { Logger } from "@medusajs/framework/types"
import CryptoPaymentProviderService from "../../../providers/crypto/service"
import type { CoreLedger, PolicySource } from "../../../modules/crypto-payment/core"
import type { OpenedPayment } from "../../../modules/crypto-payment/ledger"
import { CryptoApiClient } from "../client"
import { CryptoApiError } from "../errors"
import { waitFor } from "../../../../integration-tests/helpers/wait"

/*
 * The service resets a kept-alive connection as the client reuses it (its idle timeout and our request
 * crossed), before answering: a read is sent once more, a create never, and the customer is asked to try again.
 */

const KEY = "sk_live_reset_test_5e1b_do_not_leak"
const EXPIRES_AT = "2026-11-22T09:00:00.000Z"
/** What the service answers on a connection it does not reset; the status read's body names no secret. */
const ANSWERS: Record<string, string> = {
  "/v1/invoice/pay_1/status": JSON.stringify({ paymentId: "pay_1", status: "PENDING" }),
  "/v1/create_invoice": JSON.stringify({
    success: true,
    data: {
      paymentId: "inv_1",
      baseAmount: 25,
      baseCurrency: "USD",
      invoiceUrl: "https://pay.example.test/i/inv_1",
      expiresAt: EXPIRES_AT,
    },
  }),
  "/v1/create_payment": JSON.stringify({
    success: true,
    data: {
      paymentId: "pay_2",
      amount: "0.00038462",
      currency: "BTC",
      address: "bc1qexampleaddress",
      invoiceUrl: "https://pay.example.test/i/pay_2",
      qrCode: "data:image/png;base64,AAAA",
      expiresAt: EXPIRES_AT,
    },
  }),
}

let server: http.Server
let baseUrl: string
/** Every request the server read, as "METHOD path". */
let seen: string[]
let waits: number[]

/**
 * Answers each connection's first request and destroys the connection at any later one, before answering.
 * Both stand for one service: the client's kept-alive socket is the one reset.
 */
beforeAll(async () => {
  const served = new WeakMap<object, number>()
  server = http.createServer((req, res) => {
    req.resume()
    req.on("end", () => {
      seen.push(`${req.method} ${req.url}`)
      const count = (served.get(req.socket) ?? 0) + 1
      served.set(req.socket, count)
      if (count > 1) return req.socket.destroy()
      res.writeHead(200, { "content-type": "application/json" }).end(ANSWERS[req.url ?? ""] ?? "{}")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})
beforeEach(() => {
  seen = []
  waits = []
})

function client(overrides: Partial<ConstructorParameters<typeof CryptoApiClient>[0]> = {}): CryptoApiClient {
  return new CryptoApiClient({
    baseUrl,
    apiKey: KEY,
    timeoutMs: 1000,
    sleep: async (ms) => void waits.push(ms),
    ...overrides,
  })
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("the call succeeded")
    },
    (error: unknown) => error
  )
}

describe("CryptoApiClient on a kept-alive connection the service reset before answering", () => {
  it("sends a status read once more and answers it", async () => {
    const api = client()
    await api.getStatus("pay_1")
    // the same kept-alive connection, reset at the second read: sent again by the transport, not retried
    expect(await api.getStatus("pay_1")).toMatchObject({ paymentId: "pay_1", status: "PENDING" })
    expect(seen).toEqual(Array(3).fill("GET /v1/invoice/pay_1/status"))
    expect(waits).toEqual([])
  })

  it.each<[string, (api: CryptoApiClient) => Promise<unknown>]>([
    ["/v1/create_invoice", (api) => api.createInvoice({ amount: 25, amountCurrency: "USD", orderId: "payses_1" })],
    [
      "/v1/create_payment",
      (api) => api.createPayment({ amount: 25, amountCurrency: "USD", currency: "BTC", orderId: "payses_1" }),
    ],
  ])("sends POST %s once, and rejects with outcome_unknown", async (path, create) => {
    const api = client()
    await api.getStatus("pay_1")
    const error = await caught(create(api))

    expect(error).toBeInstanceOf(CryptoApiError)
    expect(error).toMatchObject({ kind: "outcome_unknown", transient: true, info: { method: "POST", path } })
    expect((error as CryptoApiError).info.maybeProcessed).toBe(true)
    expect(seen.filter((line) => line === `POST ${path}`)).toHaveLength(1)
    // neither the transport nor the retry policy sent it again
    expect(waits).toEqual([])
    expect(`${(error as Error).message} ${inspect(error, { depth: 10 })}`).not.toContain(KEY)
  })

  it("repeats a create whose connection was refused: not a byte of it was sent", async () => {
    const closed = http.createServer()
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))

    const error = await caught(
      client({ baseUrl: `http://127.0.0.1:${port}`, retry: { retries: 2 } }).createPayment({
        amount: 25,
        amountCurrency: "USD",
        currency: "BTC",
      })
    )
    expect(error).toMatchObject({ kind: "network", info: { maybeProcessed: false } })
    expect(waits).toHaveLength(2)
  })
})

describe("a session whose create was reset before any answer", () => {
  /** The provider as Medusa builds it, on the real client; a ledger that only records what it is asked to open. */
  function provider() {
    const api = client()
    const opened: OpenedPayment[] = []
    const ledger = {
      open: async (payment: OpenedPayment) => void opened.push(payment),
      savedPolicy: async () => undefined,
    } as unknown as CoreLedger & PolicySource
    const logger = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger
    const service = new CryptoPaymentProviderService(
      { logger, cryptoClient: api, cryptoLedger: ledger, cryptoSettings: ledger },
      { apiKey: KEY, baseUrl, backendUrl: "https://shop.example.test" }
    )
    return { api, service, opened }
  }

  it.each<[string, string | undefined]>([
    ["/v1/create_invoice", undefined],
    ["/v1/create_payment", "BTC"],
  ])("POST %s: the customer is asked to try again, nothing is recorded or leaked", async (path, coin) => {
    const { api, service, opened } = provider()
    await api.getStatus("pay_1")
    const error = await caught(
      service.initiatePayment({
        amount: 25,
        currency_code: "usd",
        data: { session_id: "payses_1", ...(coin ? { currency: coin } : {}) },
      })
    )

    expect(error).toBeInstanceOf(MedusaError)
    expect(error).toMatchObject({ type: MedusaError.Types.UNEXPECTED_STATE, code: "crypto.service_unreachable" })
    expect((error as MedusaError).message).toBe(
      `Could not start the crypto ${coin ? "payment" : "invoice"}: the crypto payment service is not reachable right now. Please try again in a moment.`
    )
    const text = `${(error as Error).message} ${inspect(error, { depth: 10 })} ${JSON.stringify(error)}`
    expect(text).not.toContain(KEY)
    expect(text).not.toContain("ECONNRESET")
    expect(seen.filter((line) => line === `POST ${path}`)).toHaveLength(1)
    expect(opened).toEqual([])
  })
})

describe("CryptoApiClient's idle connections", () => {
  it("closes a kept-alive connection it left idle before the service would, so a create never meets one closing", async () => {
    const closed: number[] = []
    const patient = http.createServer((req, res) => {
      req.resume()
      req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(ANSWERS[req.url ?? ""]))
    })
    // a service that would keep the connection for 10 s: ours is closed after 300 ms idle
    patient.keepAliveTimeout = 10_000
    patient.on("connection", (socket) => socket.on("close", () => closed.push(Date.now())))
    await new Promise<void>((resolve) => patient.listen(0, "127.0.0.1", resolve))
    try {
      const started = Date.now()
      const api = client({
        baseUrl: `http://127.0.0.1:${(patient.address() as AddressInfo).port}`,
        idleConnectionMs: 300,
      })
      await api.createInvoice({ amount: 25, amountCurrency: "USD" })
      await waitFor(
        async () => closed.length,
        (n) => n > 0,
        { timeoutMs: 3_000, what: "the idle connection closed by the client" }
      )
      expect(closed[0] - started).toBeLessThan(3_000)
      // the next create opens a connection of its own and is answered
      await expect(api.createInvoice({ amount: 25, amountCurrency: "USD" })).resolves.toMatchObject({
        paymentId: "inv_1",
      })
    } finally {
      patient.closeAllConnections()
      await new Promise((resolve) => patient.close(resolve))
    }
  })
})
