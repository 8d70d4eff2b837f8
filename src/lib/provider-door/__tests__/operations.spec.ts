import { PaymentActions } from "@medusajs/framework/utils"
import { packAnswer, packOperation, PaymentReport, unpackAnswer, unpackOperation } from "../operations"

const policy = {
  reconcileIntervalSeconds: 60,
  reconcileBatchSize: 20,
  lateWindowHours: 24,
  lockSeconds: 360,
  quoteDriftAlertPercent: 2,
}
const report: PaymentReport = {
  paymentId: "pay_1",
  sessionId: "payses_1",
  policy,
  readAt: "2026-11-25T10:00:00.000Z",
  assessment: {
    outcome: "paid",
    status: "COMPLETED",
    received: "1",
    confirmations: 3,
    underpaid: false,
    overpaid: false,
  },
}

describe("the door's operations", () => {
  it("recognises its own branded operations, checked, and nothing an HTTP body can carry", () => {
    const packed = packOperation({ op: "report", paymentId: "pay_1", freshness: "shared" })
    expect(unpackOperation(packed.data)).toEqual({ op: "report", paymentId: "pay_1", freshness: "shared" })
    expect(unpackOperation(packOperation({ op: "balances", currency: "BTC" }).data)).toEqual({
      op: "balances",
      currency: "BTC",
    })
    // the brand is a registered symbol: JSON (an HTTP body) cannot carry it
    expect(unpackOperation(JSON.parse(JSON.stringify(packed.data)))).toBeUndefined()
    expect(
      unpackOperation({ op: "report", paymentId: "pay_1", "Symbol(medusa-payment-crypto.operation)": true })
    ).toBeUndefined()
    expect(unpackOperation(undefined)).toBeUndefined()
  })

  it.each<[string, Record<string, unknown>]>([
    ["an unknown operation", { op: "refund", paymentId: "pay_1" }],
    ["an unknown freshness", { op: "report", paymentId: "pay_1", freshness: "stale" }],
    ["a missing payment id", { op: "report", freshness: "fresh" }],
    ["an unknown coin", { op: "balances", currency: "DOGE" }],
    ["a region without a currency", { op: "health", providerId: "pp_crypto_crypto", regions: [{ name: "EU" }] }],
    ["an unknown rates action", { op: "rates", providerId: "pp_crypto_crypto", action: "drop" }],
  ])("refuses a branded operation with %s, never taking it for a public notification", (_, fields) => {
    const branded = packOperation({ op: "balances" }).data as Record<string | symbol, unknown>
    const symbol = Object.getOwnPropertySymbols(branded)[0]
    expect(() => unpackOperation({ ...fields, [symbol]: true })).toThrow(
      expect.objectContaining({ type: "invalid_data", message: expect.stringContaining("refused an operation") })
    )
  })

  it("carries a webhook's token only inside the branded operation", () => {
    const packed = packOperation({ op: "webhook", token: "tok", body: { paymentId: "pay_1" } })
    expect(packed.headers).toEqual({})
    expect(unpackOperation(packed.data)).toEqual({ op: "webhook", token: "tok", body: { paymentId: "pay_1" } })
  })

  it("carries an answer back in an action that never makes core capture, checked on the way out", () => {
    const result = packAnswer("report", report)
    expect(result.action).toBe(PaymentActions.NOT_SUPPORTED)
    expect(result.data).toMatchObject({ session_id: "", amount: "0" })
    expect(unpackAnswer("report", result)).toEqual(report)
    expect(unpackAnswer("webhook", packAnswer("webhook", null))).toBeNull()
    const { assessment: _, ...unknownToService } = report
    expect(unpackAnswer("report", packAnswer("report", unknownToService))).toEqual(unknownToService)
  })

  it.each<[string, () => unknown]>([
    ["no answer at all (a bare NOT_SUPPORTED)", () => unpackAnswer("report", { action: PaymentActions.NOT_SUPPORTED })],
    ["the answer to another operation", () => unpackAnswer("report", packAnswer("remainder", null))],
    [
      "a report without its policy",
      () => unpackAnswer("report", packAnswer("report", { ...report, policy: undefined } as never)),
    ],
    ["a health answer without checks", () => unpackAnswer("health", packAnswer("health", {} as never))],
  ])("refuses %s", (_, read) => {
    expect(read).toThrow("The crypto provider crypto gave no")
  })
})
