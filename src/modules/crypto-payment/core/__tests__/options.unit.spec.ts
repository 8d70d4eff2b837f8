import { MedusaError } from "@medusajs/framework/utils"
import { parseCryptoOptions, sendsKeyInClear } from "../options"
import CryptoPaymentProviderService from "../../../../providers/crypto/service"

const valid = { apiKey: "sk_live_very_secret_value", baseUrl: "https://pay.example.test" }

function bootError(options: Record<string, unknown>): MedusaError {
  try {
    CryptoPaymentProviderService.validateOptions(options)
  } catch (e) {
    return e as MedusaError
  }
  throw new Error("validateOptions accepted the options")
}

describe("provider options", () => {
  it("fills the documented defaults", () => {
    expect(parseCryptoOptions(valid)).toEqual({
      ...valid,
      webhookUrlField: "webhookUrl",
      acceptedWebhookSecrets: [],
      mode: "invoice",
      placeOrder: "before_payment",
      reconcileIntervalSeconds: 60,
      reconcileBatchSize: 20,
      lateWindowHours: 24,
      refunds: "manual",
      requestTimeoutMs: 15000,
      statusCacheSeconds: 30,
      quoteDriftAlertPercent: 2,
      underpaymentTolerancePercent: 0,
      latePayments: "flag",
      exchangeRates: {
        source: "ecb",
        url: "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml",
        maxAgeHours: 144,
        markupPercent: 0,
        refreshMinutes: 60,
      },
    })
  })

  it.each<[string, unknown, string]>([
    ["a rate of zero", { source: "fixed", rates: { EUR: "0" } }, '"exchangeRates.rates.EUR" must be greater than 0'],
    [
      "a rate as a number with more digits than a number keeps",
      { source: "fixed", rates: { EUR: 0.1234567890123456 } },
      '"exchangeRates.rates.EUR" has more digits than a number keeps: write it as a string',
    ],
    [
      "a negative rate as a number",
      { source: "fixed", rates: { EUR: -1.08 } },
      '"exchangeRates.rates.EUR" must be a decimal',
    ],
    ["a markup above 10", { source: "ecb", markupPercent: 11 }, '"exchangeRates.markupPercent" must be at most 10'],
    [
      "a misspelt option",
      { source: "ecb", maxAgehours: 3 },
      '"exchangeRates.maxAgehours" is not an option (did you mean "maxAgeHours"?)',
    ],
    ["an unknown source", { source: "oanda" }, '"exchangeRates.source" must be one of "ecb", "fixed"'],
    ["true", true, '"exchangeRates" must be false or'],
  ])("stops the boot on exchangeRates with %s, naming the field", (_, exchangeRates, fragment) => {
    expect(bootError({ ...valid, exchangeRates }).message).toContain(fragment)
  })

  it("takes a fixed rate written as a number as the decimal written", () => {
    const rates = { EUR: 1.0842, GBP: 1.26, JPY: 0.0066 }
    expect(parseCryptoOptions({ ...valid, exchangeRates: { source: "fixed", rates } }).exchangeRates).toMatchObject({
      rates: { EUR: "1.0842", GBP: "1.26", JPY: "0.0066" },
    })
  })

  it("takes false and fixed rates, codes in any case", () => {
    expect(parseCryptoOptions({ ...valid, exchangeRates: false }).exchangeRates).toBe(false)
    expect(
      parseCryptoOptions({ ...valid, exchangeRates: { source: "fixed", rates: { eur: "1.0842" } } }).exchangeRates
    ).toEqual({
      source: "fixed",
      rates: { EUR: "1.0842" },
      markupPercent: 0,
    })
  })

  it.each([
    ["apiKey", { baseUrl: valid.baseUrl }],
    ["apiKey", { ...valid, apiKey: "   " }],
    ["baseUrl", { apiKey: valid.apiKey }],
    ["baseUrl", { ...valid, baseUrl: "not a url" }],
    ["baseUrl", { ...valid, baseUrl: "ftp://pay.example.test" }],
    ["backendUrl", { ...valid, backendUrl: "localhost:9000" }],
    ["expirationMinutes", { ...valid, expirationMinutes: 4 }],
    ["underpaymentTolerancePercent", { ...valid, underpaymentTolerancePercent: 5.01 }],
    ["underpaymentTolerancePercent", { ...valid, underpaymentTolerancePercent: -1 }],
    ["underpaymentTolerancePercent", { ...valid, underpaymentTolerancePercent: 0.125 }],
    ["latePayments", { ...valid, latePayments: "keep" }],
    ["expirationMinutes", { ...valid, expirationMinutes: 1441 }],
    ["expirationMinutes", { ...valid, expirationMinutes: 30.5 }],
    ["mode", { ...valid, mode: "subscription" }],
    ["placeOrder", { ...valid, placeOrder: "never" }],
    ["defaultCoin", { ...valid, defaultCoin: "DOGE" }],
    ["webhookUrlField", { ...valid, webhookUrlField: "callback url" }],
    ["webhookSecret", { ...valid, webhookSecret: "short" }],
    ["statusCacheSeconds", { ...valid, statusCacheSeconds: -1 }],
    ["statusCacheSeconds", { ...valid, statusCacheSeconds: 601 }],
    ["reconcileIntervalSeconds", { ...valid, reconcileIntervalSeconds: 1 }],
  ])("stops the boot naming %s when it is missing or bad", (field, options) => {
    const error = bootError(options)
    expect(error).toBeInstanceOf(MedusaError)
    expect(error.type).toBe(MedusaError.Types.INVALID_DATA)
    expect(error.message).toContain(`"${field}"`)
  })

  it("accepts the boundaries of expirationMinutes", () => {
    expect(parseCryptoOptions({ ...valid, expirationMinutes: 5 }).expirationMinutes).toBe(5)
    expect(parseCryptoOptions({ ...valid, expirationMinutes: 1440 }).expirationMinutes).toBe(1440)
  })

  it("never repeats a secret value in the boot error", () => {
    const secret = "whsec_do_not_print_me"
    const error = bootError({ ...valid, apiKey: 12345678, webhookSecret: secret.slice(0, 10) })
    expect(error.message).toContain('"apiKey"')
    expect(error.message).toContain('"webhookSecret"')
    expect(error.message).not.toContain("12345678")
    expect(error.message).not.toContain(secret.slice(0, 10))
    expect(bootError({ ...valid, baseUrl: "sk_live_very_secret_value" }).message).not.toContain(
      "sk_live_very_secret_value"
    )
  })

  it("stops the boot on a mistyped option, naming it and the option meant", () => {
    const error = bootError({ ...valid, webhookSecrett: "a-long-enough-secret-value" })
    expect(error.type).toBe(MedusaError.Types.INVALID_DATA)
    expect(error.message).toContain('"webhookSecrett" is not an option (did you mean "webhookSecret"?)')
    expect(error.message).not.toContain("a-long-enough-secret-value")
    expect(bootError({ ...valid, ApiKey: "x" }).message).toContain('(did you mean "apiKey"?)')
    expect(bootError({ ...valid, colour: "blue" }).message).toMatch(
      /"colour" is not an option \(known options: apiKey, baseUrl, /
    )
  })

  it.each([
    ["https://pay.example.test", false],
    ["http://pay.example.test", true],
    ["http://10.0.0.5:4010", true],
    ["http://127.0.0.1:4010", false],
    ["http://localhost:4010", false],
    ["http://[::1]:4010", false],
  ])("knows whether %s sends the API key in clear text (%s)", (baseUrl, clear) => {
    expect(sendsKeyInClear(baseUrl)).toBe(clear)
  })
})
