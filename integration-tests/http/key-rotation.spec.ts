import { cryptoIntegrationRunner } from "../helpers/runner"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { SANDBOX_API_KEY, useSandbox } from "../helpers/sandbox"
import {
  adminOrder,
  completeCart,
  createCryptoCart,
  CryptoStore,
  failing,
  shopForFile,
  startCryptoSession,
} from "../helpers/checkout"
import { readByJob } from "../helpers/reconciliation"
import { signingKeyOf, signWebhookToken, verifyWebhookToken } from "../../src/lib/domain/webhook-token"
import { open, secretsKeyFrom } from "../../src/lib/domain/secret-box"
import { apiKeyStateOf } from "../../src/lib/domain/api-key-state"
import type { HealthCheck } from "../../src/lib/setup-health/checks"

jest.setTimeout(120_000)

const OLD_SECRET = "whsec_before_the_rotation_0001"
const NEW_SECRET = "whsec_after_the_rotation_00002"
const DROPPED_SECRET = "whsec_dropped_after_late_window"
const SECRETS_KEY = "rotation-spec-secrets-key-of-at-least-32-characters"
const NEW_API_KEY = "sk_rotated_at_the_dashboard_7Q9Z"
const OLD_CONFIG_KEY = "sk_in_medusa_config_before_OLD4"

// the second step of the rotation in docs/operations.md: the new secret mints, the old one is still accepted
const sandbox = useSandbox({
  CRYPTO_RECONCILE_INTERVAL_SECONDS: "3600",
  CRYPTO_WEBHOOK_SECRET: NEW_SECRET,
  CRYPTO_ACCEPTED_WEBHOOK_SECRETS: OLD_SECRET,
  CRYPTO_SECRETS_KEY: SECRETS_KEY,
})

cryptoIntegrationRunner({
  testSuite: ({ api, getContainer }) => {
    const fileShop = shopForFile({ api, getContainer })
    let shop: CryptoStore

    beforeEach(async () => {
      shop = fileShop()
    })

    /** An order awaiting payment whose BTC payment the service completed, its webhook not sent. */
    const paidAwaitingOrder = async () => {
      await sandbox.control().setWebhooks({ enabled: false })
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
      const { order } = await completeCart(api, shop, cart.id)
      await sandbox.control().pay(session.data.paymentId)
      await sandbox.control().confirm(session.data.paymentId)
      return { sessionId: session.id as string, paymentId: session.data.paymentId as string, orderId: order.id }
    }
    /** What the service would call for this session had its URL been minted with `secret`. */
    const webhookWith = async (sessionId: string, secret: string): Promise<number> => {
      const token = signWebhookToken(sessionId, signingKeyOf(secret))
      try {
        return (await api.post(`/hooks/crypto/${token}`, {})).status
      } catch (error) {
        const status = (error as { response?: { status: number } }).response?.status
        if (status === undefined) throw error
        return status
      }
    }

    describe("webhook secrets", () => {
      it("mints new URLs with the new secret, and an open payment's URL from the old one still captures with 200", async () => {
        const { sessionId, paymentId, orderId } = await paidAwaitingOrder()
        const handed = (await sandbox.control().payment(paymentId)).webhookUrl!
        const token = handed.split("/").pop()!
        expect(verifyWebhookToken(token, signingKeyOf(NEW_SECRET))).toBe(sessionId)
        expect(verifyWebhookToken(token, signingKeyOf(OLD_SECRET))).toBeNull()

        expect(await webhookWith(sessionId, OLD_SECRET)).toBe(200)
        expect((await adminOrder(api, shop, orderId)).payment_status).toBe("captured")
      })

      it("refuses a URL minted with a secret no longer accepted (401, nothing changes), and the job still settles the payment", async () => {
        const { sessionId, paymentId, orderId } = await paidAwaitingOrder()
        expect(await webhookWith(sessionId, DROPPED_SECRET)).toBe(401)
        expect((await adminOrder(api, shop, orderId)).payment_status).toBe("awaiting")

        await readByJob(getContainer(), paymentId)
        expect((await adminOrder(api, shop, orderId)).payment_status).toBe("captured")
      })

      it("says on the health that older secrets are still accepted, and what to do", async () => {
        const { checks } = (await api.get("/admin/crypto/health", shop.admin)).data
        expect(checks.find((c: { id: string }) => c.id === "webhook_secret")).toMatchObject({
          level: "amber",
          detail: expect.stringContaining("1 older webhook secret is still accepted"),
          action: expect.stringContaining("acceptedWebhookSecrets"),
        })
        const { settings } = (await api.get("/admin/crypto/settings", shop.admin)).data
        expect(settings[0].secrets).toEqual({
          can_store: true,
          api_key: {
            source: "option",
            last_four: SANDBOX_API_KEY.slice(-4),
            saved_by: null,
            saved_at: null,
            unreadable: false,
          },
          webhook_secret: { source: "option", accepted: 1, legacy_accepted: expect.any(Boolean) },
        })
      })
    })

    describe("the API key, saved from the admin", () => {
      const API_KEY_ROUTE = "/admin/crypto/settings/api-key"

      afterEach(() => jest.restoreAllMocks())
      /** The last four characters of the key in use before any change: medusa-config's. */
      const CONFIG_LAST_FOUR = SANDBOX_API_KEY.slice(-4)

      /** The key in use is still medusa-config's: nothing stored, nothing logged, nothing on the health. */
      const expectKeyUnchanged = async () => {
        const db = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
        expect((await db.raw(`select 1 from crypto_secret where name = 'api_key'`)).rows).toEqual([])
        const { settings, changes } = (await api.get("/admin/crypto/settings", shop.admin)).data
        expect(settings[0].secrets.api_key).toMatchObject({ source: "option", last_four: CONFIG_LAST_FOUR })
        expect(changes.filter((c: { field: string }) => c.field === "api_key")).toEqual([])
        const { checks } = (await api.get("/admin/crypto/health", shop.admin)).data
        expect(checks.find((c: { id: string }) => c.id === "api_key_change")).toBeUndefined()
      }

      it("is not replaced without the last four characters of the key in use (400), with wrong ones (403), nor from anything but JSON (415)", async () => {
        // the service would take the new key: only the confirmation and the content type stand in the way
        await sandbox.control().configure({ apiKeys: [SANDBOX_API_KEY, NEW_API_KEY] })

        const missing = await failing(api.post(API_KEY_ROUTE, { api_key: NEW_API_KEY }, shop.admin))
        expect(missing.status).toBe(400)
        expect(missing.data).toMatchObject({ type: "invalid_data", code: "crypto.current_key_required" })

        // every line logged at any level while a wrong confirmation is refused
        const logger = getContainer().resolve(ContainerRegistrationKeys.LOGGER)
        const lines: string[] = []
        for (const level of ["debug", "info", "warn", "error"] as const)
          jest.spyOn(logger, level).mockImplementation((...args: unknown[]) => void lines.push(String(args[0])))
        for (const wrong of ["0000", CONFIG_LAST_FOUR.toUpperCase(), NEW_API_KEY.slice(-4)]) {
          lines.length = 0
          const refused = await failing(
            api.post(API_KEY_ROUTE, { api_key: NEW_API_KEY, current_key_last4: wrong }, shop.admin)
          )
          // once, with who asked (Medusa's error handler would log the answer's message again)
          expect(lines.filter((line) => /last four/i.test(line))).toEqual([
            expect.stringMatching(/API key change of pp_crypto_\w+ refused for user_\w+: the last four/),
          ])
          expect(refused.status).toBe(403)
          expect(refused.data).toMatchObject({ code: "crypto.current_key_mismatch" })
          expect(refused.data.message).toMatch(/not the last four characters of the API key in use/)
          expect(refused.data.message).not.toContain(CONFIG_LAST_FOUR)
        }
        // the whole key is never asked for, nor taken
        const whole = await failing(
          api.post(API_KEY_ROUTE, { api_key: NEW_API_KEY, current_key_last4: SANDBOX_API_KEY }, shop.admin)
        )
        expect(whole.status).toBe(400)

        // what a browser sends cross-site without a preflight, with the right confirmation: refused before it is read
        const form = await failing(
          api.post(
            API_KEY_ROUTE,
            new URLSearchParams({ api_key: NEW_API_KEY, current_key_last4: CONFIG_LAST_FOUR }),
            shop.admin
          )
        )
        expect(form.status).toBe(415)
        expect(form.data).toMatchObject({ type: "invalid_data", code: "crypto.json_required" })
        const plain = await failing(
          api.post(API_KEY_ROUTE, JSON.stringify({ api_key: NEW_API_KEY, current_key_last4: CONFIG_LAST_FOUR }), {
            headers: { ...shop.admin.headers, "content-type": "text/plain" },
          })
        )
        expect(plain.status).toBe(415)
        // a bodiless POST without a content type (fetch sends none), here and on another admin route
        for (const path of [API_KEY_ROUTE, "/admin/crypto/payments/not_a_payment/reconcile"]) {
          const bare = await fetch(`${api.defaults.baseURL}${path}`, { method: "POST", headers: shop.admin.headers })
          expect(bare.status).toBe(415)
          expect(await bare.json()).toMatchObject({ type: "invalid_data", code: "crypto.json_required" })
        }

        await expectKeyUnchanged()
      })

      it("warns when the key changed outside the admin until an admin acknowledges it: once, the state shown only, who and when kept", async () => {
        const db = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
        const line = async () =>
          ((await api.get("/admin/crypto/health", shop.admin)).data.checks as HealthCheck[]).find(
            (c) => c.id === "api_key_change"
          )
        // the first look records the key in use as first seen: nothing to say
        expect(await line()).toBeUndefined()
        const [first] = (await db.raw(`select * from crypto_acknowledgement where subject = 'api_key'`)).rows
        expect(first).toMatchObject({ provider_id: "pp_crypto_crypto", how: "first_sight", actor_id: null })
        expect(first.facts).toEqual({
          source: "option",
          in_use: `…${CONFIG_LAST_FOUR}`,
          config: `…${CONFIG_LAST_FOUR}`,
        })
        expect(JSON.stringify(first)).not.toContain(SANDBOX_API_KEY)

        // medusa-config.ts had another key when the state was last acknowledged: the environment changed it since
        const before = apiKeyStateOf({ source: "option", inUse: OLD_CONFIG_KEY, config: OLD_CONFIG_KEY })
        await db.raw(
          `insert into crypto_acknowledgement (id, provider_id, subject, value, facts, how, actor_id)
           values ('cryptoack_before', 'pp_crypto_crypto', 'api_key', ?, ?::jsonb, 'acknowledged', null)`,
          [before.value, JSON.stringify(before.facts)]
        )
        const waiting = await line()
        expect(waiting).toMatchObject({
          level: "amber",
          detail: `The API key in medusa-config.ts changed outside the admin (now …${CONFIG_LAST_FOUR}, was …OLD4).`,
          action: expect.stringMatching(/acknowledge it/),
          acknowledge: { subject: "api_key", value: first.value },
        })
        const ACK = "/admin/crypto/health/acknowledge"
        const acknowledged = () => db.raw(`select * from crypto_acknowledgement where how = 'acknowledged'`)

        // a state the line did not show is not acknowledged; JSON only, as every change
        const stale = await failing(api.post(ACK, { subject: "api_key", value: before.value }, shop.admin))
        expect(stale.status).toBe(409)
        expect(stale.data).toMatchObject({
          code: "crypto.changed_since_read",
          message: expect.stringMatching(/changed again since/),
        })
        const form = await failing(
          api.post(ACK, new URLSearchParams({ subject: "api_key", value: first.value }), shop.admin)
        )
        expect(form.status).toBe(415)
        expect((await acknowledged()).rows).toHaveLength(1)

        // a person's act: a secret API key (automation, which may have made the change) cannot acknowledge it
        const { token } = (await api.post("/admin/api-keys", { title: "automation", type: "secret" }, shop.admin)).data
          .api_key
        const bySecretKey = await failing(
          api.post(ACK, waiting!.acknowledge!, {
            headers: { authorization: `Basic ${Buffer.from(`${token}:`).toString("base64")}` },
          })
        )
        expect(bySecretKey.status).toBe(403)
        expect(bySecretKey.data.message).toMatch(/signed in to the dashboard/)
        expect((await acknowledged()).rows).toHaveLength(1)

        const done = await api.post(ACK, waiting!.acknowledge!, shop.admin)
        expect(done.data.acknowledgement).toMatchObject({
          provider_id: "pp_crypto_crypto",
          subject: "api_key",
          value: first.value,
          how: "acknowledged",
          actor_id: expect.stringMatching(/^user_/),
        })
        // once: the same state again answers the standing acknowledgement
        const again = await api.post(ACK, { provider_id: "pp_crypto_crypto", ...waiting!.acknowledge! }, shop.admin)
        expect(again.data.acknowledgement).toEqual(done.data.acknowledgement)
        expect((await acknowledged()).rows).toHaveLength(2)

        // green now, for the notice days: who acknowledged it and when, in the detail and as fields
        expect(await line()).toMatchObject({
          level: "green",
          detail: `API key in use: …${CONFIG_LAST_FOUR} from medusa-config.ts; acknowledged by admin@crypto.test at ${done.data.acknowledgement.created_at}.`,
          acknowledged: { by: "admin@crypto.test", at: done.data.acknowledgement.created_at, how: "acknowledged" },
        })
      })

      // last in the file: the provider keeps the key it read for 30 s, and the test puts the original back
      it("is checked with the service first, stored sealed, used at once over medusa-config's, and logged by its last four", async () => {
        const refused = await failing(
          api.post(API_KEY_ROUTE, { api_key: NEW_API_KEY, current_key_last4: CONFIG_LAST_FOUR }, shop.admin)
        )
        expect(refused.status).toBe(400)
        expect(refused.data.message).toMatch(/refused this API key \(HTTP 401\), so it was not saved/)

        // the merchant makes a new key at the dashboard and revokes the old one
        await sandbox.control().configure({ apiKeys: [NEW_API_KEY] })
        const saved = await api.post(
          API_KEY_ROUTE,
          { api_key: NEW_API_KEY, current_key_last4: CONFIG_LAST_FOUR },
          shop.admin
        )
        expect(saved.data.setting.secrets.api_key).toMatchObject({ source: "admin", last_four: "7Q9Z" })
        expect(JSON.stringify(saved.data)).not.toContain(NEW_API_KEY)

        const db = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
        const [row] = (await db.raw(`select * from crypto_secret where name = 'api_key'`)).rows
        expect(row.sealed).not.toContain(NEW_API_KEY)
        expect(open(secretsKeyFrom(SECRETS_KEY)!, { providerId: row.provider_id, name: "api_key" }, row.sealed)).toBe(
          NEW_API_KEY
        )
        const { changes } = (await api.get("/admin/crypto/settings", shop.admin)).data
        expect(changes[0]).toMatchObject({ field: "api_key", from: null, to: "…7Q9Z", actor_email: expect.any(String) })

        // a checkout works although the service now refuses medusa-config's key
        const cart = await createCryptoCart(api, shop)
        const { session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
        expect(session.data.paymentId).toBeTruthy()
        const { checks } = (await api.get("/admin/crypto/health", shop.admin)).data
        expect(checks.find((c: { id: string }) => c.id === "api_key")).toMatchObject({ level: "green" })
        // on the health for days: when, by whom, from and to which key; green, acknowledged by the admin's save
        const change = checks.find((c: { id: string }) => c.id === "api_key_change")
        expect(change).toMatchObject({
          level: "green",
          detail: expect.stringMatching(
            /^API key changed from the admin at \S+ by admin@crypto\.test \(now …7Q9Z, was medusa-config's\); acknowledged by admin@crypto\.test, who saved it\.$/
          ),
          at: changes[0].created_at,
          acknowledged: { by: "admin@crypto.test", at: expect.any(String), how: "saved" },
        })
        expect(change.acknowledge).toBeUndefined()

        // back to the sandbox's own key, so the process holds no key the next file's service refuses
        await sandbox.control().configure({ apiKeys: null })
        await api.post(API_KEY_ROUTE, { api_key: SANDBOX_API_KEY, current_key_last4: "7Q9Z" }, shop.admin)
      })
    })
  },
})
