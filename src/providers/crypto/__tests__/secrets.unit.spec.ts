import { ProviderSecrets, SECRETS_REFRESH_MS } from "../secrets"
import { open, seal, secretsKeyFrom } from "../../../lib/domain/secret-box"
import { signingKeyOf } from "../../../lib/domain/webhook-token"
import type { SecretName, StoredSecret } from "../../../modules/crypto-payment/secret-store"

const PROVIDER = "pp_crypto_crypto"
const secretsKey = secretsKeyFrom("s".repeat(40))!

/** The crypto_secret table, in memory, with what was asked of it. */
function memoryStore(watched = true) {
  const rows = new Map<SecretName, StoredSecret>()
  const calls = { reads: 0, replaced: [] as Array<{ lastFour: string; actor: string | null }>, watchedAsks: 0 }
  const store = {
    rows,
    calls,
    read: async (_: string, name: SecretName) => {
      calls.reads++
      return rows.get(name)
    },
    keepFirst: async (_: string, name: SecretName, sealed: string, savedBy: string) => {
      if (!rows.has(name))
        rows.set(name, { sealed, last_four: null, saved_by: savedBy, created_at: new Date(), updated_at: new Date() })
      return rows.get(name)!
    },
    replace: async (_: string, name: SecretName, sealed: string, lastFour: string, actor: string | null) => {
      const replaced = rows.get(name)?.last_four ?? null
      rows.set(name, { sealed, last_four: lastFour, saved_by: actor, created_at: new Date(), updated_at: new Date() })
      calls.replaced.push({ lastFour, actor })
      return { replaced }
    },
    watchesPaymentsBefore: async () => {
      calls.watchedAsks++
      return watched
    },
  }
  return store
}

const log = { info: jest.fn(), warn: jest.fn(), error: jest.fn(), debug: jest.fn() }

function secrets(
  options: { webhookSecret?: string; acceptedWebhookSecrets?: string[] },
  store = memoryStore(),
  key = secretsKey as typeof secretsKey | null,
  clock = { now: 1_000_000 }
) {
  return new ProviderSecrets({
    options: { apiKey: "sk_config_key_1111", acceptedWebhookSecrets: [], ...options },
    providerId: () => PROVIDER,
    store,
    secretsKey: key,
    log: log as never,
    now: () => clock.now,
  })
}

describe("a provider's secrets", () => {
  it("without CRYPTO_SECRETS_KEY: medusa-config's API key, webhook key derived from it, nothing stored", async () => {
    const store = memoryStore()
    const s = secrets({}, store, null)
    expect(await s.apiKey()).toBe("sk_config_key_1111")
    expect((await s.mintingKey()).equals(signingKeyOf("sk_config_key_1111"))).toBe(true)
    expect(store.rows.size).toBe(0)
    expect(await s.state()).toMatchObject({ canStore: false, webhookSecret: { source: "api_key", accepted: 0 } })
    await expect(s.saveApiKey("sk_new_key_2222", "user_1", async () => {})).rejects.toThrow(
      /can only come from medusa-config\.ts: set CRYPTO_SECRETS_KEY/
    )
  })

  it("with CRYPTO_SECRETS_KEY: generates the webhook secret once, stores it sealed, and still verifies tokens derived from the API key while their payments are watched", async () => {
    const store = memoryStore(true)
    const s = secrets({}, store)
    const minting = await s.mintingKey()
    const row = store.rows.get("webhook_secret")!
    expect(row.saved_by).toBe("plugin")
    const generated = open(secretsKey, { providerId: PROVIDER, name: "webhook_secret" }, row.sealed)!
    expect(generated).toMatch(/^[\w-]{43}$/)
    expect(minting.equals(signingKeyOf(generated))).toBe(true)
    const derived = signingKeyOf("sk_config_key_1111")
    expect((await s.verifyingKeys()).some((k) => k.equals(derived))).toBe(true)
    // a second process finds the one stored
    const again = secrets({}, store)
    expect((await again.mintingKey()).equals(minting)).toBe(true)
    expect(await s.state()).toMatchObject({
      canStore: true,
      webhookSecret: { source: "generated", legacyAccepted: true },
    })
  })

  it("stops accepting tokens derived from the API key once no payment created before the secret is watched", async () => {
    const s = secrets({}, memoryStore(false))
    const derived = signingKeyOf("sk_config_key_1111")
    expect((await s.verifyingKeys()).some((k) => k.equals(derived))).toBe(false)
    expect((await s.verifyingKeys()).length).toBe(1)
  })

  it("mints with a configured webhookSecret and verifies the accepted older ones", async () => {
    const s = secrets(
      { webhookSecret: "the-new-secret-16+", acceptedWebhookSecrets: ["the-old-secret-16+"] },
      memoryStore(false)
    )
    expect((await s.mintingKey()).equals(signingKeyOf("the-new-secret-16+"))).toBe(true)
    const keys = await s.verifyingKeys()
    expect(keys.map((k) => k.toString("hex"))).toEqual(
      [signingKeyOf("the-new-secret-16+"), signingKeyOf("the-old-secret-16+")].map((k) => k.toString("hex"))
    )
    expect(await s.state()).toMatchObject({ webhookSecret: { source: "option", accepted: 1 } })
  })

  it("saves an API key only after its check passes, sealed, and uses it over medusa-config's at once", async () => {
    const store = memoryStore()
    const s = secrets({ webhookSecret: "a-configured-secret-16+" }, store)
    await expect(
      s.saveApiKey("sk_refused_3333", "user_1", async () => {
        throw new Error("refused")
      })
    ).rejects.toThrow("refused")
    expect(store.rows.has("api_key")).toBe(false)
    expect(await s.apiKey()).toBe("sk_config_key_1111")

    expect(await s.saveApiKey("sk_new_key_2222", "user_1", async () => {})).toEqual({
      lastFour: "2222",
      replaced: null,
    })
    expect(store.rows.get("api_key")!.sealed).not.toContain("sk_new_key_2222")
    expect(await s.apiKey()).toBe("sk_new_key_2222")
    expect(await s.state()).toMatchObject({ apiKey: { source: "admin", lastFour: "2222", savedBy: "user_1" } })
    expect(store.calls.replaced).toEqual([{ lastFour: "2222", actor: "user_1" }])
    expect(JSON.stringify(log.info.mock.calls)).not.toContain("sk_new_key_2222")
  })

  it("another process's new key is used after SECRETS_REFRESH_MS, read once while the old copy serves", async () => {
    const store = memoryStore()
    const clock = { now: 1_000_000 }
    const s = secrets({ webhookSecret: "a-configured-secret-16+" }, store, secretsKey, clock)
    expect(await s.apiKey()).toBe("sk_config_key_1111")
    const reads = store.calls.reads
    await secrets({ webhookSecret: "a-configured-secret-16+" }, store).saveApiKey("sk_other_4444", null, async () => {})
    clock.now += SECRETS_REFRESH_MS - 1
    expect(await s.apiKey()).toBe("sk_config_key_1111")
    expect(store.calls.reads).toBe(reads)
    clock.now += 2
    // the stale copy answers while the fresh one is read
    expect(await s.apiKey()).toBe("sk_config_key_1111")
    await new Promise((resolve) => setImmediate(resolve))
    expect(await s.apiKey()).toBe("sk_other_4444")
  })

  it("a stored key that no longer opens (CRYPTO_SECRETS_KEY changed) falls back to medusa-config's and says so", async () => {
    const store = memoryStore()
    store.rows.set("api_key", {
      sealed: seal(secretsKeyFrom("x".repeat(40))!, { providerId: PROVIDER, name: "api_key" }, "sk_lost_5555"),
      last_four: "5555",
      saved_by: "user_1",
      created_at: new Date(),
      updated_at: new Date(),
    })
    const s = secrets({ webhookSecret: "a-configured-secret-16+" }, store)
    expect(await s.apiKey()).toBe("sk_config_key_1111")
    expect(await s.state()).toMatchObject({ apiKey: { source: "option", unreadable: true } })
    expect(log.error).toHaveBeenCalledWith(expect.stringContaining("cannot be opened with CRYPTO_SECRETS_KEY"))
  })
})

describe("a provider's secrets before db:migrate", () => {
  it("uses medusa-config's keys while the table of stored keys is missing, and refuses to guess on any other failure", async () => {
    const missing = Object.assign(new Error('relation "crypto_secret" does not exist'), { code: "42P01" })
    const store = memoryStore()
    store.read = async () => {
      throw missing
    }
    const s = secrets({}, store)
    expect(await s.apiKey()).toBe("sk_config_key_1111")
    expect((await s.mintingKey()).equals(signingKeyOf("sk_config_key_1111"))).toBe(true)

    const down = memoryStore()
    down.read = async () => {
      throw new Error("connection terminated")
    }
    await expect(secrets({}, down).mintingKey()).rejects.toThrow("connection terminated")
  })
})
