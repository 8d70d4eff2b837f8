import { bootLine, worstLevel } from "../checks"
import { lockingOf, workerModeOf } from "../configuration"
import { apiKeyCheck, providerIdCheck, ProviderCheckInput, webhookUrlCheck } from "../provider-checks"
import { lockingCheck, RunningProcess, workerModeCheck } from "../../../modules/crypto-payment/setup-health"
import { CryptoApiError } from "../../crypto-api/errors"

const locking = (resolve?: string) => ({
  modules: resolve
    ? { locking: { resolve: "@medusajs/medusa/locking", options: { providers: [{ resolve, id: "l" }] } } }
    : {},
})
const proc = (worker_mode = "shared", host = "a"): RunningProcess => ({ host, pid: 1, worker_mode, locking: "x" })

describe("configuration", () => {
  it.each([
    [undefined, "in-process"],
    ["@medusajs/medusa/locking-redis", "redis"],
    ["@medusajs/medusa/locking-postgres", "postgres"],
    ["./my-locking", "other"],
  ])("locking provider %p is %p", (resolve, kind) => {
    expect(lockingOf(locking(resolve)).kind).toBe(kind)
  })

  it("reads modules written as a list too, and the worker mode (shared by default)", () => {
    expect(
      lockingOf({
        modules: [
          {
            resolve: "@medusajs/medusa/locking",
            options: { providers: [{ resolve: "@medusajs/medusa/locking-redis" }] },
          },
        ],
      }).kind
    ).toBe("redis")
    expect(workerModeOf({})).toBe("shared")
    expect(workerModeOf({ projectConfig: { workerMode: "worker" } })).toBe("worker")
  })
})

describe("locking and worker mode against the processes on the database", () => {
  it.each<[string, string | undefined, string, RunningProcess[], string]>([
    ["redis", "@medusajs/medusa/locking-redis", "shared", [proc(), proc("shared", "b")], "green"],
    ["postgres: core's cart lock race", "@medusajs/medusa/locking-postgres", "shared", [proc()], "amber"],
    ["in-process, one process", undefined, "shared", [proc()], "green"],
    ["in-process, two processes seen", undefined, "shared", [proc(), proc("shared", "b")], "red"],
    ["in-process, a server (another process runs the worker)", undefined, "server", [proc("server")], "red"],
    ["another provider, one process", "./my-locking", "shared", [proc()], "amber"],
  ])("%s", (_name, resolve, workerMode, processes, level) => {
    const check = lockingCheck({ ...locking(resolve), projectConfig: { workerMode } }, processes)
    expect(check.level).toBe(level)
    if (level !== "green") expect(check.action).toBeTruthy()
  })

  it("a server with no worker seen is amber: nothing reconciles", () => {
    expect(workerModeCheck({ projectConfig: { workerMode: "server" } }, [proc("server")]).level).toBe("amber")
    expect(
      workerModeCheck({ projectConfig: { workerMode: "server" } }, [proc("server"), proc("worker", "b")]).level
    ).toBe("green")
    expect(workerModeCheck({}, [proc()]).level).toBe("green")
  })
})

describe("a provider's own checks", () => {
  const input = (over: Partial<ProviderCheckInput> = {}): ProviderCheckInput => ({
    providerId: "pp_crypto_crypto",
    baseUrl: "https://pay.example.test",
    backendUrl: "https://shop.example.test",
    reconcileIntervalSeconds: 60,
    client: { getBalances: async () => ({ merchantId: "m_1", businessName: "Shop", balances: {} }) as never },
    ...over,
  })

  it("API key: green when a balances read works, red when refused or unreachable, never naming the key", async () => {
    expect((await apiKeyCheck(input())).level).toBe("green")
    const refused = await apiKeyCheck(
      input({
        client: {
          getBalances: async () => {
            throw new CryptoApiError("http", "HTTP 401", { method: "GET", path: "/v1/merchant/balance", status: 401 })
          },
        },
      })
    )
    expect(refused).toMatchObject({ level: "red", action: expect.stringContaining("apiKey") })
    const down = await apiKeyCheck(
      input({
        client: {
          getBalances: async () => {
            throw new CryptoApiError("network", "connection refused", { method: "GET", path: "/v1/merchant/balance" })
          },
        },
      })
    )
    expect(down).toMatchObject({ level: "red", detail: expect.stringContaining("pay.example.test") })
  })

  it.each<[string, Partial<ProviderCheckInput>, string]>([
    ["a public https backend", {}, "green"],
    ["no backendUrl: the job only", { backendUrl: undefined }, "amber"],
    ["a local backend with a remote service", { backendUrl: "http://localhost:9000" }, "amber"],
    [
      "a local backend with a local service (the sandbox)",
      { backendUrl: "http://localhost:9000", baseUrl: "http://127.0.0.1:4010" },
      "green",
    ],
    ["a public backend over plain http", { backendUrl: "http://shop.example.test" }, "amber"],
  ])("webhook URL: %s", (_name, over, level) => {
    const check = webhookUrlCheck(input(over))
    expect(check.level).toBe(level)
    if (over.backendUrl !== undefined || !("backendUrl" in over))
      expect(check.detail).toContain("/hooks/crypto/<token>")
  })

  it.each([
    ["pp_crypto_crypto", "green"],
    ["pp_crypto_pp_crypto", "amber"],
    ["pp_crypto_pp_", "amber"],
    ["pp_crypto_shop_eu", "green"],
  ])("provider id %p is %p", (providerId, level) => {
    expect(providerIdCheck(input({ providerId })).level).toBe(level)
  })
})

describe("levels", () => {
  it("the worst line decides, and a boot line names the check and what to do", () => {
    expect(worstLevel([])).toBe("green")
    expect(worstLevel([{ level: "green" }, { level: "amber" }])).toBe("amber")
    expect(worstLevel([{ level: "red" }, { level: "amber" }])).toBe("red")
    expect(
      bootLine({
        id: "api_key",
        provider_id: "pp_crypto_crypto",
        label: "API key",
        level: "red",
        detail: "Refused.",
        action: "Fix it.",
      })
    ).toBe("setup check failed — API key (pp_crypto_crypto): Refused. Fix it.")
  })
})
