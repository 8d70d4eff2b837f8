import type { Logger } from "@medusajs/framework/types"
import CryptoPaymentProviderService from "../../../../providers/crypto/service"
import { forgetCores } from "../cores"
import { coreOf } from "../registry"
import { PaymentCore } from "../payment-core"

const logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
} as unknown as Logger
const OPTIONS = {
  apiKey: "sk_unit_registry",
  baseUrl: "https://pay.example.test",
  backendUrl: "https://shop.example.test",
}

afterEach(() => forgetCores())

describe("one payment core per provider registration and process", () => {
  it("gives whoever asks the same core for the same registration", () => {
    const first = coreOf({ providerId: "pp_crypto_crypto", options: OPTIONS }, { logger })
    // the test runner and a route each load the configuration: equal options, another object
    const again = coreOf({ providerId: "pp_crypto_crypto", options: { ...OPTIONS } }, { logger })
    expect(again).toBe(first)
    expect(first.providerId).toBe("pp_crypto_crypto")
  })

  it("builds another core for another provider id, or for changed options", () => {
    const first = coreOf({ providerId: "pp_crypto_crypto", options: OPTIONS }, { logger })
    expect(coreOf({ providerId: "pp_crypto_second", options: OPTIONS }, { logger })).not.toBe(first)
    expect(coreOf({ providerId: "pp_crypto_crypto", options: { ...OPTIONS, mode: "payment" } }, { logger })).not.toBe(
      first
    )
  })

  it("is emptied on shutdown, and takes a builder for tests", () => {
    const first = coreOf({ providerId: "pp_crypto_crypto", options: OPTIONS }, { logger })
    const built: string[] = []
    forgetCores((setup) => {
      built.push(setup.providerId)
      return new PaymentCore(setup)
    })
    const next = coreOf({ providerId: "pp_crypto_crypto", options: OPTIONS }, { logger })
    expect(next).not.toBe(first)
    expect(built).toEqual(["pp_crypto_crypto"])
  })

  it("stops on options the provider would refuse, naming the field (never the key)", () => {
    expect(() => coreOf({ providerId: "pp_crypto_crypto", options: { ...OPTIONS, baseUrl: 42 } }, { logger })).toThrow(
      /baseUrl/
    )
  })

  it("shares the provider's core with the routes: the provider finds its id by its entry in the configuration", () => {
    const options = { ...OPTIONS }
    const configModule = {
      modules: { payment: { resolve: "@medusajs/medusa/payment", options: { providers: [{ id: "main", options }] } } },
    }
    const provider = new CryptoPaymentProviderService({ logger, configModule } as never, options)
    expect(provider.core.providerId).toBe("pp_crypto_main")
    expect(coreOf({ providerId: "pp_crypto_main", options: { ...options } }, { logger })).toBe(provider.core)
  })
})
