import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { SANDBOX_API_KEY, useSandbox } from "../helpers/sandbox"
import {
  adminOrder,
  completeCart,
  createCryptoCart,
  CryptoStore,
  failing,
  setupCryptoStore,
  startCryptoSession,
} from "../helpers/checkout"
import { readByJob } from "../helpers/reconciliation"
import { signingKeyOf, signWebhookToken, verifyWebhookToken } from "../../src/lib/domain/webhook-token"
import { open, secretsKeyFrom } from "../../src/lib/domain/secret-box"

jest.setTimeout(120_000)

const OLD_SECRET = "whsec_before_the_rotation_0001"
const NEW_SECRET = "whsec_after_the_rotation_00002"
const DROPPED_SECRET = "whsec_dropped_after_late_window"
const SECRETS_KEY = "rotation-spec-secrets-key-of-at-least-32-characters"
const NEW_API_KEY = "sk_rotated_at_the_dashboard_7Q9Z"

// the second step of README's rotation: the new secret mints, the old one is still accepted
const sandbox = useSandbox({
  CRYPTO_RECONCILE_INTERVAL_SECONDS: "3600",
  CRYPTO_WEBHOOK_SECRET: NEW_SECRET,
  CRYPTO_ACCEPTED_WEBHOOK_SECRETS: OLD_SECRET,
  CRYPTO_SECRETS_KEY: SECRETS_KEY,
})

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let shop: CryptoStore

    beforeEach(async () => {
      shop = await setupCryptoStore(api, getContainer())
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
      // last in the file: the provider keeps the key it read for 30 s, and the test puts the original back
      it("is checked with the service first, stored sealed, used at once over medusa-config's, and logged by its last four", async () => {
        const refused = await failing(api.post("/admin/crypto/settings/api-key", { api_key: NEW_API_KEY }, shop.admin))
        expect(refused.status).toBe(400)
        expect(refused.data.message).toMatch(/refused this API key \(HTTP 401\), so it was not saved/)

        // the merchant makes a new key at the dashboard and revokes the old one
        await sandbox.control().configure({ apiKeys: [NEW_API_KEY] })
        const saved = await api.post("/admin/crypto/settings/api-key", { api_key: NEW_API_KEY }, shop.admin)
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

        // back to the sandbox's own key, so the process holds no key the next file's service refuses
        await sandbox.control().configure({ apiKeys: null })
        await api.post("/admin/crypto/settings/api-key", { api_key: SANDBOX_API_KEY }, shop.admin)
      })
    })
  },
})
