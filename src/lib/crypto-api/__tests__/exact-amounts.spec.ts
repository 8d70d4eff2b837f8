import http from "node:http"
import type { AddressInfo } from "node:net"
import { CryptoApiClient, parseJson, requestJson } from "../client"

/**
 * Wei precision (issue 32, item 4): coin amounts cross the wire exactly, both ways. A service may
 * write an ETH amount with 18 decimals as a JSON number, which a JS number cannot hold; and a
 * remainder of 0.0000001 BTC must not be sent as `1e-7`.
 */
let server: http.Server
let url: string
let bodies: string[]
let answer: string

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = ""
    req.on("data", (chunk) => (raw += chunk))
    req.on("end", () => {
      bodies.push(raw)
      res.writeHead(200, { "content-type": "application/json" })
      res.end(answer)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))
beforeEach(() => {
  bodies = []
})

const client = () => new CryptoApiClient({ baseUrl: url, apiKey: "sk_exact_amounts", timeoutMs: 2000 })
const envelope = (data: string) => `{"success":true,"data":${data},"message":"ok","statusCode":200}`

describe("wei precision on the wire", () => {
  it("keeps a create_payment amount written with 18 decimals exactly", async () => {
    answer = envelope(
      `{"paymentId":"pay_w","amount":0.033333333333333333,"currency":"ETH","address":"0xabc","invoiceUrl":"http://pay.test/p","qrCode":"eth:0xabc?amount=0.033333333333333333","expiresAt":"2026-11-25T13:00:00.000Z"}`
    )
    const payment = await client().createPayment({ amount: "100.00", amountCurrency: "USD", currency: "ETH" })
    expect(payment.amount).toBe("0.033333333333333333")
    // through a JS number it would have been 0.03333333333333333 (one digit lost)
    expect(String(JSON.parse(`{"a":0.033333333333333333}`).a)).not.toBe("0.033333333333333333")
  })

  it("keeps an invoice's quotes with 18 decimals exactly, other numbers as numbers", async () => {
    answer = envelope(
      `{"paymentId":"inv_w","baseAmount":100,"baseCurrency":"USD","conversionRates":{"ETH":{"cryptoAmount":0.033333333333333334,"price":3000},"USDT_BEP20":{"cryptoAmount":100.000000000000000001,"price":1}},"invoiceUrl":"http://pay.test/i","expiresAt":"2026-11-25T13:00:00.000Z"}`
    )
    const invoice = await client().createInvoice({ amount: "100.00", amountCurrency: "USD" })
    expect(invoice.conversionRates?.ETH.cryptoAmount).toBe("0.033333333333333334")
    expect(invoice.conversionRates?.USDT_BEP20.cryptoAmount).toBe("100.000000000000000001")
    expect(invoice.conversionRates?.ETH.price).toBe(3000)
    expect(invoice.baseAmount).toBe(100)
  })

  it("keeps status amounts the service wrote as numbers with 18 decimals", async () => {
    answer = `{"paymentId":"pay_s","status":"PENDING","currentBalance":0.033333333333333333,"confirmations":3,"requiredAmount":"0.033333333333333333","currency":"ETH"}`
    const record = await client().getStatus("pay_s")
    expect(record).toMatchObject({ currentBalance: "0.033333333333333333", requiredAmount: "0.033333333333333333" })
  })

  it.each([
    ["0.0000001", "0.0000001"],
    [1e-7, "0.0000001"],
    ["0.000000000000000001", "0.000000000000000001"],
    ["0.033333333333333333", "0.033333333333333333"],
    ["25.00", "25.00"],
  ])("sends the amount %p as the JSON number %s, never with an exponent", async (amount, written) => {
    answer = envelope(
      `{"paymentId":"pay_r","amount":0.0000001,"currency":"BTC","address":"bc1q","invoiceUrl":"http://pay.test/p","qrCode":"btc:bc1q?amount=0.0000001","expiresAt":"2026-11-25T13:00:00.000Z"}`
    )
    await client().createPayment({ amount, amountCurrency: "BTC", currency: "BTC", orderId: "payses_r" })
    expect(bodies[0]).toBe(`{"amount":${written},"amountCurrency":"BTC","currency":"BTC","orderId":"payses_r"}`)
    expect(bodies[0]).not.toMatch(/e-?\d/i)
    expect(JSON.parse(bodies[0]).orderId).toBe("payses_r")
  })

  it("refuses to send an amount that is not a plain positive decimal", async () => {
    for (const amount of ["0", "0.000", "-1", "1e-7", "abc", ""]) {
      await expect(client().createPayment({ amount, amountCurrency: "BTC", currency: "BTC" })).rejects.toMatchObject({
        kind: "invalid_request",
      })
    }
    expect(bodies).toEqual([])
  })

  it("parses and writes JSON helpers as described", () => {
    expect(parseJson(`{"amount":1e-7,"n":2}`)).toEqual({ amount: "1e-7", n: 2 })
    expect(requestJson({ currency: "BTC" })).toBe(`{"currency":"BTC"}`)
    expect(requestJson({ amount: "1.50" })).toBe(`{"amount":1.50}`)
  })
})
