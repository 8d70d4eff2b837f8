import { invoiceSchema, paymentSchema, statusRecordSchema } from "../schemas"

describe("response schemas", () => {
  const record = {
    paymentId: "inv_1",
    status: "PENDING",
    currentBalance: "0",
    confirmations: 0,
    requiredAmount: "25.00",
    expiresAt: "2026-01-01T00:00:00Z",
    createdAt: "2026-01-01T00:00:00Z",
  }

  it("reads a status record before a coin is chosen, with currency/address absent or null", () => {
    expect(statusRecordSchema.parse(record).currency).toBeUndefined()
    expect(statusRecordSchema.parse({ ...record, currency: null, address: null }).currency).toBeNull()
  })

  it("keeps decimals as exact strings, whether sent as strings or numbers", () => {
    expect(statusRecordSchema.parse({ ...record, currentBalance: 0.00000012 }).currentBalance).toBe("0.00000012")
    expect(statusRecordSchema.parse({ ...record, requiredAmount: " 0.5 " }).requiredAmount).toBe("0.5")
  })

  it.each([
    ["an unknown status", { status: "PAID" }],
    ["a negative balance", { currentBalance: "-1" }],
    ["a balance that is not a number", { currentBalance: "lots" }],
    ["no paymentId", { paymentId: "" }],
    ["fractional confirmations", { confirmations: 1.5 }],
  ])("rejects %s", (_, change) => {
    expect(statusRecordSchema.safeParse({ ...record, ...change }).success).toBe(false)
  })

  it("lets extra fields through (the service may add some) but demands the ones we use", () => {
    expect(statusRecordSchema.parse({ ...record, network: "mainnet" })).toMatchObject({ network: "mainnet" })
    expect(
      paymentSchema.safeParse({
        paymentId: "p",
        amount: 1,
        currency: "BTC",
        invoiceUrl: "https://x/p",
        qrCode: "btc:a",
        expiresAt: "t",
      }).success
    ).toBe(false)
    expect(
      invoiceSchema.safeParse({
        paymentId: "i",
        baseAmount: 1,
        baseCurrency: "USD",
        invoiceUrl: "not a url",
        expiresAt: "t",
      }).success
    ).toBe(false)
  })
})

describe("6. the service's payment page is only ever a web page", () => {
  const invoice = {
    paymentId: "i",
    baseAmount: 1,
    baseCurrency: "USD",
    expiresAt: "2026-11-27T12:00:00Z",
  }
  it.each(["javascript:alert(document.cookie)", "data:text/html,<script>alert(1)</script>", "ftp://x.test/p"])(
    "refuses %s as invoiceUrl",
    (invoiceUrl) => {
      expect(invoiceSchema.safeParse({ ...invoice, invoiceUrl }).success).toBe(false)
      expect(
        paymentSchema.safeParse({
          paymentId: "p",
          amount: "0.1",
          currency: "BTC",
          address: "bc1q",
          qrCode: "btc:bc1q?amount=0.1",
          expiresAt: "2026-11-27T12:00:00Z",
          invoiceUrl,
        }).success
      ).toBe(false)
    }
  )

  it("takes http and https", () => {
    for (const invoiceUrl of ["https://pay.example/i/1", "http://localhost:4010/pay/i"])
      expect(invoiceSchema.safeParse({ ...invoice, invoiceUrl }).success).toBe(true)
  })
})
