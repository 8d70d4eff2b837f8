import { cryptoRegistrations } from "../registrations"
import CryptoProvider from "../../../../providers/crypto"

/** A provider module as Medusa loads it: a default export with its services. */
const providerModule = (...identifiers: string[]) => ({
  default: { services: identifiers.map((identifier) => ({ identifier })) },
})
const PAYMENT = "@medusajs/medusa/payment"
const STRIPE = providerModule("stripe", "stripe-bancontact")

describe("the crypto providers of the configuration, with the ids Medusa gives them", () => {
  it.each<[string, Record<string, unknown> | unknown[], string[]]>([
    [
      "modules by key, the plugin's provider by its local path and as a module, with and without an id",
      {
        payment: {
          resolve: PAYMENT,
          options: {
            providers: [
              { resolve: "./src/providers/crypto", id: "crypto", options: { apiKey: "a" } },
              { resolve: CryptoProvider, id: "second", options: { apiKey: "b" } },
              { resolve: CryptoProvider, options: { apiKey: "c" } },
              { resolve: STRIPE, id: "stripe", options: {} },
            ],
          },
        },
      },
      ["pp_crypto_crypto", "pp_crypto_second", "pp_crypto"],
    ],
    [
      "modules as a list, found by the payment module's resolve",
      [
        { resolve: "@medusajs/medusa/cache-inmemory" },
        { resolve: PAYMENT, options: { providers: [{ resolve: providerModule("crypto"), id: "x", options: {} }] } },
      ],
      ["pp_crypto_x"],
    ],
    [
      "Modules.PAYMENT's key with another resolve; a provider named like ours but another identifier is not ours",
      {
        payment: {
          resolve: "./my-payment-module",
          options: { providers: [{ resolve: providerModule("crypto-pay"), id: "crypto", options: {} }] },
        },
      },
      [],
    ],
    ["no payment module", { cache: { resolve: "@medusajs/medusa/cache-inmemory" } }, []],
  ])("%s", async (_, modules, ids) => {
    const found = await cryptoRegistrations({ modules })
    expect(found.map((r) => r.providerId)).toEqual(ids)
  })

  it("keeps each registration's options as written", async () => {
    const options = { apiKey: "a", baseUrl: "https://pay.example" }
    const [found] = await cryptoRegistrations({
      modules: {
        payment: {
          resolve: PAYMENT,
          options: { providers: [{ resolve: providerModule("crypto"), id: "c", options }] },
        },
      },
    })
    expect(found).toEqual({ providerId: "pp_crypto_c", options })
  })

  it("says which entry it could not load rather than guess", async () => {
    const config = {
      modules: { payment: { resolve: PAYMENT, options: { providers: [{ resolve: "./no/such/provider", id: "x" }] } } },
    }
    await expect(cryptoRegistrations(config)).rejects.toThrow(
      /"\.\/no\/such\/provider" of medusa-config\.ts cannot be loaded/
    )
  })
})
