import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { cryptoCore, cryptoCores, forgetCores } from "../cores"

const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined }
const OPTIONS = {
  apiKey: "sk_unit_cores",
  baseUrl: "https://pay.example.test",
  backendUrl: "https://shop.example.test",
}
const cryptoModule = { default: { services: [{ identifier: "crypto" }] } }

/** A route's scope: the configuration's crypto entries, and the providers the payment module has, enabled or not. */
function scope(ids: Array<string | undefined>, providers: Array<{ id: string; is_enabled: boolean }>) {
  const asked: unknown[] = []
  const payments = {
    listPaymentProviders: async (filters: { is_enabled?: boolean }) => {
      asked.push(filters)
      return providers.filter((p) => filters.is_enabled === undefined || p.is_enabled === filters.is_enabled)
    },
  }
  const config = {
    modules: {
      payment: {
        resolve: "@medusajs/medusa/payment",
        options: { providers: ids.map((id) => ({ resolve: cryptoModule, ...(id ? { id } : {}), options: OPTIONS })) },
      },
    },
  }
  const registered: Record<string, unknown> = {
    [ContainerRegistrationKeys.CONFIG_MODULE]: config,
    [Modules.PAYMENT]: payments,
    [ContainerRegistrationKeys.LOGGER]: logger,
    [ContainerRegistrationKeys.PG_CONNECTION]: {},
  }
  return { scope: { resolve: (key: string) => registered[key] } as unknown as MedusaContainer, asked }
}

afterEach(() => forgetCores())

describe("the shop's crypto cores for a route or the job", () => {
  it("are the configuration's registrations, read against the payment module's enabled providers only", async () => {
    const { scope: s, asked } = scope(
      ["crypto", undefined],
      [
        { id: "pp_crypto_crypto", is_enabled: true },
        { id: "pp_crypto", is_enabled: true },
        // renamed or removed from medusa-config.ts: Medusa keeps its row (2.21 even leaves it enabled)
        { id: "pp_crypto_old", is_enabled: true },
        { id: "pp_crypto_older", is_enabled: false },
        { id: "pp_system_default", is_enabled: true },
      ]
    )
    expect((await cryptoCores(s)).map((c) => c.providerId)).toEqual(["pp_crypto_crypto", "pp_crypto"])
    expect(asked).toEqual([{ is_enabled: true }])
    expect((await cryptoCore(s, "pp_crypto")).providerId).toBe("pp_crypto")
    // a row of a provider no longer registered is read by the first
    expect((await cryptoCore(s, "pp_crypto_old")).providerId).toBe("pp_crypto_crypto")
  })

  it("read the enabled providers once, though each resolution of the payment module is a new proxy (as in Medusa)", async () => {
    const { scope: s, asked } = scope(["crypto"], [{ id: "pp_crypto_crypto", is_enabled: true }])
    const proxying = {
      resolve: (key: string) => (key === Modules.PAYMENT ? new Proxy(s.resolve(key), {}) : s.resolve(key)),
    } as unknown as MedusaContainer
    await cryptoCores(proxying)
    await cryptoCores(proxying)
    expect(asked).toEqual([{ is_enabled: true }])
  })

  it("stop loudly when the payment module does not know a registration by the id computed for it", async () => {
    const { scope: s } = scope(["crypto"], [{ id: "pp_crypto_other", is_enabled: true }])
    await expect(cryptoCores(s)).rejects.toThrow(
      "the payment module has no enabled provider pp_crypto_crypto of medusa-config.ts (it has pp_crypto_other)"
    )
  })

  it("say so when none is registered", async () => {
    const { scope: s } = scope([], [])
    expect(await cryptoCores(s)).toEqual([])
    await expect(cryptoCore(s)).rejects.toMatchObject({ type: MedusaError.Types.NOT_FOUND })
  })
})
