import { ProviderSecrets, SECRETS_REFRESH_MS } from "../secrets"
import { open, seal, secretsKeyFrom } from "../../../../lib/domain/secret-box"
import { signingKeyOf } from "../../../../lib/domain/webhook-token"
import { apiKeyStateOf } from "../../../../lib/domain/api-key-state"
import type { SecretName, StoredSecret } from "../../secret-store"

const PROVIDER = "pp_crypto_crypto"
const secretsKey = secretsKeyFrom("s".repeat(40))!

/** The crypto_secret table, in memory, with what was asked of it. */
function memoryStore(watched = true) {
  const rows = new Map<SecretName, StoredSecret>()
  const calls = {
    reads: 0,
    replaced: [] as Array<{ lastFour: string; actor: string | null }>,
    acknowledgements: [] as unknown[],
    watchedAsks: 0,
  }
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
    replace: async (
      _: string,
      name: SecretName,
      sealed: string,
      lastFour: string,
      actor: string | null,
      expected: string | null,
      acknowledgements?: unknown
    ) => {
      if ((rows.get(name)?.sealed ?? null) !== expected) return null
      calls.acknowledgements.push(acknowledgements)
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

/** An API key change by user_1, confirmed with `currentLastFour`. */
const change = (apiKey: string, currentLastFour: string | null) => ({ apiKey, currentLastFour, actorId: "user_1" })

describe("a provider's secrets", () => {
  it("acknowledges a key an admin saved signed in with the save, after the state it replaces; one saved otherwise waits", async () => {
    const store = memoryStore()
    const s = secrets({}, store)
    const first = await s.keyState()
    expect(first).toEqual(
      apiKeyStateOf({ source: "option", inUse: "sk_config_key_1111", config: "sk_config_key_1111" })
    )

    await s.saveApiKey({ ...change("sk_new_key_2222", "1111"), byAdmin: true }, async () => {})
    const saved = await s.keyState()
    expect(saved).toEqual(apiKeyStateOf({ source: "admin", inUse: "sk_new_key_2222", config: "sk_config_key_1111" }))
    await s.saveApiKey(change("sk_next_key_3333", "2222"), async () => {})
    expect(store.calls.acknowledgements).toEqual([
      {
        before: { providerId: PROVIDER, subject: "api_key", ...first, how: "first_sight", actorId: null },
        saved: { providerId: PROVIDER, subject: "api_key", ...saved, how: "saved", actorId: "user_1" },
      },
      {
        before: { providerId: PROVIDER, subject: "api_key", ...saved, how: "first_sight", actorId: null },
        saved: undefined,
      },
    ])
    expect(JSON.stringify(store.calls.acknowledgements)).not.toMatch(/sk_(config|new|next)_key/)
  })

  it("without CRYPTO_SECRETS_KEY: medusa-config's API key, webhook key derived from it, nothing stored", async () => {
    const store = memoryStore()
    const s = secrets({}, store, null)
    expect(await s.apiKey()).toBe("sk_config_key_1111")
    expect((await s.mintingKey()).equals(signingKeyOf("sk_config_key_1111"))).toBe(true)
    expect(store.rows.size).toBe(0)
    expect(await s.state()).toMatchObject({ canStore: false, webhookSecret: { source: "api_key", accepted: 0 } })
    await expect(s.saveApiKey(change("sk_new_key_2222", "1111"), async () => {})).rejects.toThrow(
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
      s.saveApiKey(change("sk_refused_3333", "1111"), async () => {
        throw new Error("refused")
      })
    ).rejects.toThrow("refused")
    expect(store.rows.has("api_key")).toBe(false)
    expect(await s.apiKey()).toBe("sk_config_key_1111")

    expect(await s.saveApiKey(change("sk_new_key_2222", "1111"), async () => {})).toEqual({
      lastFour: "2222",
      replaced: null,
    })
    expect(store.rows.get("api_key")!.sealed).not.toContain("sk_new_key_2222")
    expect(await s.apiKey()).toBe("sk_new_key_2222")
    expect(await s.state()).toMatchObject({ apiKey: { source: "admin", lastFour: "2222", savedBy: "user_1" } })
    expect(store.calls.replaced).toEqual([{ lastFour: "2222", actor: "user_1" }])
    expect(JSON.stringify(log.info.mock.calls)).not.toContain("sk_new_key_2222")
  })

  it("replaces the key in use only with its last four characters: missing or wrong, nothing is checked, stored or used", async () => {
    const store = memoryStore()
    const s = secrets({ webhookSecret: "a-configured-secret-16+" }, store)
    const check = jest.fn(async () => {})
    await expect(s.saveApiKey(change("sk_new_key_2222", null), check)).rejects.toMatchObject({
      type: "invalid_data",
      code: "crypto.current_key_required",
    })
    await expect(s.saveApiKey(change("sk_new_key_2222", "  "), check)).rejects.toMatchObject({
      code: "crypto.current_key_required",
    })
    for (const wrong of ["2222", "111", "1111 1", "11l1"])
      await expect(s.saveApiKey(change("sk_new_key_2222", wrong), check)).rejects.toMatchObject({
        type: "forbidden",
        code: "crypto.current_key_mismatch",
      })
    expect(check).not.toHaveBeenCalled()
    expect(store.rows.has("api_key")).toBe(false)
    expect(await s.apiKey()).toBe("sk_config_key_1111")
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining("refused for user_1"))
    expect(JSON.stringify(log.warn.mock.calls)).not.toContain("2222")

    // the confirmation is of the key in use: the saved one from then on, not medusa-config's
    await s.saveApiKey(change("sk_new_key_2222", " 1111 "), check)
    await expect(s.saveApiKey(change("sk_next_key_3333", "1111"), check)).rejects.toMatchObject({
      code: "crypto.current_key_mismatch",
    })
    expect(await s.saveApiKey(change("sk_next_key_3333", "2222"), check)).toEqual({
      lastFour: "3333",
      replaced: "2222",
    })
    expect(await s.apiKey()).toBe("sk_next_key_3333")
  })

  it("confirms against the key in use now, not the copy a process kept: another process's save since is refused", async () => {
    const store = memoryStore()
    const clock = { now: 1_000_000 }
    const s = secrets({ webhookSecret: "a-configured-secret-16+" }, store, secretsKey, clock)
    expect(await s.apiKey()).toBe("sk_config_key_1111")
    await secrets({ webhookSecret: "a-configured-secret-16+" }, store).saveApiKey(
      change("sk_other_4444", "1111"),
      async () => {}
    )
    // this process still uses its copy (medusa-config's key), but the change is judged on the stored one
    expect(await s.apiKey()).toBe("sk_config_key_1111")
    await expect(s.saveApiKey(change("sk_mine_5555", "1111"), async () => {})).rejects.toMatchObject({
      code: "crypto.current_key_mismatch",
    })
    expect(await s.apiKey()).toBe("sk_other_4444")
  })

  it("writes nothing when another save lands between the confirmation and the write", async () => {
    const store = memoryStore()
    const s = secrets({ webhookSecret: "a-configured-secret-16+" }, store)
    const other = secrets({ webhookSecret: "a-configured-secret-16+" }, store)
    await expect(
      s.saveApiKey(change("sk_mine_5555", "1111"), () =>
        other
          .saveApiKey({ apiKey: "sk_other_4444", currentLastFour: "1111", actorId: "user_2" }, async () => {})
          .then(() => {})
      )
    ).rejects.toMatchObject({ type: "forbidden", code: "crypto.current_key_mismatch" })
    expect(store.calls.replaced).toEqual([{ lastFour: "4444", actor: "user_2" }])
    expect(await s.apiKey()).toBe("sk_other_4444")
  })

  it("another process's new key is used after SECRETS_REFRESH_MS, read once while the old copy serves", async () => {
    const store = memoryStore()
    const clock = { now: 1_000_000 }
    const s = secrets({ webhookSecret: "a-configured-secret-16+" }, store, secretsKey, clock)
    expect(await s.apiKey()).toBe("sk_config_key_1111")
    await secrets({ webhookSecret: "a-configured-secret-16+" }, store).saveApiKey(
      { apiKey: "sk_other_4444", currentLastFour: "1111", actorId: null },
      async () => {}
    )
    const reads = store.calls.reads
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
