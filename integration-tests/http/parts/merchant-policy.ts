import type { CryptoSuite } from "../../helpers/runner"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { SANDBOX_API_KEY, type SandboxHandle } from "../../helpers/sandbox"
import { adminOrder, completeCart, createCryptoCart, CryptoStore, startCryptoSession } from "../../helpers/checkout"
import { CRYPTO_PAYMENT_MODULE, CryptoPaymentModuleService } from "../../../src/modules/crypto-payment"
import { holdReconciliationInEachTest, notifyFromService, readByJob as readJob } from "../../helpers/reconciliation"
import { bootCheck } from "../../../src/modules/crypto-payment/boot-check"
import { fromUnits, toUnits } from "../../../src/lib/domain/decimal"
import { waitFor } from "../../helpers/wait"
import { pluginLog } from "../../../src/lib/runtime/log"
import { ledgerRowOf } from "../../helpers/ledger"

/** A configured webhookSecret, for the file these tests run in: the health's "Keys" line is then green (amber when derived from the API key). */
export const MERCHANT_POLICY_WEBHOOK_SECRET = "merchant-policy-spec-webhook-secret"
const PROVIDER = "pp_crypto_crypto"

/**
 * The merchant's policy and the setup's health (issue 22): an underpayment tolerance, what late
 * money does to an awaiting order, both saved from the admin, and the setup checks.
 */
export function merchantPolicyTests(
  { api, getContainer }: CryptoSuite,
  sandbox: SandboxHandle,
  fileShop: () => CryptoStore
) {
  let shop: CryptoStore
  // the job stays out of the way: each test reads when it means to
  holdReconciliationInEachTest(getContainer)

  beforeEach(async () => {
    shop = fileShop()
    await sandbox.control().setWebhooks({ enabled: false })
  })

  afterEach(async () => {
    // every test starts from medusa-config's policy
    await api
      .post("/admin/crypto/settings", { underpayment_tolerance_percent: null, late_payments: null }, shop.admin)
      .catch(() => undefined)
  })

  const cryptoPayment = (): CryptoPaymentModuleService => getContainer().resolve(CRYPTO_PAYMENT_MODULE)
  const row = (paymentId: string) => ledgerRowOf(getContainer(), paymentId)
  const notify = (paymentId: string) => notifyFromService(sandbox.control(), paymentId)
  const adminPayment = async (paymentId: string) =>
    (await api.get(`/admin/crypto/payments/${paymentId}`, shop.admin)).data.payment
  const saveSettings = (body: Record<string, unknown>) =>
    api.post("/admin/crypto/settings", body, { ...shop.admin, validateStatus: () => true })
  const readByJob = (paymentId: string) => readJob(getContainer(), paymentId)

  /** An order placed awaiting its BTC payment. */
  const awaitingOrder = async () => {
    const cart = await createCryptoCart(api, shop)
    const { session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
    const { order } = await completeCart(api, shop, cart.id)
    expect((await adminOrder(api, shop, order.id)).payment_status).toBe("awaiting")
    return { order, paymentId: session.data.paymentId as string }
  }

  /** The customer sends `share` of the amount (exact in satoshi, rounded down), it confirms, then the invoice expires. */
  const payShortThenExpire = async (paymentId: string, share: bigint, per: bigint) => {
    const required = toUnits((await sandbox.control().payment(paymentId)).requiredAmount, 8)
    const amount = fromUnits((required * share) / per, 8)
    await sandbox.control().pay(paymentId, { amount })
    await sandbox.control().confirm(paymentId)
    await sandbox.control().expire(paymentId)
    return { required: fromUnits(required, 8), amount, shortfall: fromUnits(required - (required * share) / per, 8) }
  }

  describe("underpayment tolerance", () => {
    it("a payment 0.5 % short is canceled with no tolerance (medusa-config's default 0)", async () => {
      const { order, paymentId } = await awaitingOrder()
      await payShortThenExpire(paymentId, 995n, 1000n)
      expect((await notify(paymentId)).data).toMatchObject({ status: "EXPIRED", applied: "cancel_order" })
      expect((await adminOrder(api, shop, order.id)).status).toBe("canceled")
      expect((await adminPayment(paymentId)).flags).toEqual(expect.arrayContaining(["underpaid"]))
    })

    it.each(["webhook", "the job alone"])(
      "a payment 0.5 % short is captured with a 1 % tolerance saved in the admin, by %s, and flagged accepted_short",
      async (path) => {
        expect((await saveSettings({ underpayment_tolerance_percent: 1 })).status).toBe(200)
        const { order, paymentId } = await awaitingOrder()
        const { amount, shortfall } = await payShortThenExpire(paymentId, 995n, 1000n)
        if (path === "webhook") expect((await notify(paymentId)).data).toMatchObject({ applied: "capture" })
        else await readByJob(paymentId)
        expect(await row(paymentId)).toMatchObject({ applied: "capture", settled: true, accepted_short: true })
        const paid = await adminOrder(api, shop, order.id)
        expect(paid.payment_status).toBe("captured")
        expect(paid.status).not.toBe("canceled")
        const view = await adminPayment(paymentId)
        expect(view.flags).toContain("accepted_short")
        expect(view.flags).not.toContain("underpaid")
        expect(view.flags).not.toContain("needs_attention")
        expect(view.amount_received).toBe(amount)
        expect(view.accepted_short).toMatchObject({ coin: "BTC", shortfall, base_currency: "USD" })
        expect(Number(view.accepted_short.shortfall_base)).toBeGreaterThan(0)
        expect(view.settled_by).toBe(path === "webhook" ? "webhook" : "reconcile")
      }
    )

    it("one satoshi past the tolerance is not accepted: the order is canceled", async () => {
      expect((await saveSettings({ underpayment_tolerance_percent: 0.5 })).status).toBe(200)
      const { order, paymentId } = await awaitingOrder()
      const required = toUnits((await sandbox.control().payment(paymentId)).requiredAmount, 8)
      // 0.5 % of the required satoshi, rounded down, is what may be missing; one more is too much
      const allowed = (required * 50n) / 10_000n
      await sandbox.control().pay(paymentId, { amount: fromUnits(required - allowed - 1n, 8) })
      await sandbox.control().confirm(paymentId)
      await sandbox.control().expire(paymentId)
      expect((await notify(paymentId)).data).toMatchObject({ applied: "cancel_order" })
      expect((await adminOrder(api, shop, order.id)).status).toBe("canceled")
    })
  })

  describe("late payments", () => {
    it('"fulfil": the expired order stays awaiting, and a late payment inside the window is an ordinary capture', async () => {
      expect((await saveSettings({ late_payments: "fulfil" })).status).toBe(200)
      const { order, paymentId } = await awaitingOrder()
      await sandbox.control().expire(paymentId)
      expect((await notify(paymentId)).data).toMatchObject({ status: "EXPIRED" })
      const kept = await row(paymentId)
      expect(kept).toMatchObject({ applied: null, settled: false })
      // read again no later than the window's end, to cancel then
      expect(new Date(kept.next_check_at!).getTime()).toBeLessThanOrEqual(new Date(kept.watch_until!).getTime() + 1000)
      const waiting = await adminOrder(api, shop, order.id)
      expect(waiting.status).not.toBe("canceled")
      expect(waiting.payment_status).toBe("awaiting")

      await sandbox.control().pay(paymentId)
      await sandbox.control().confirm(paymentId)
      expect((await notify(paymentId)).data).toMatchObject({ status: "COMPLETED", applied: "capture" })
      expect((await adminOrder(api, shop, order.id)).payment_status).toBe("captured")
      const view = await adminPayment(paymentId)
      expect(view.flags).not.toContain("paid_late")
      expect(view.refund.records).toEqual([])
    })

    it('"fulfil": once the window has ended the order is canceled', async () => {
      expect((await saveSettings({ late_payments: "fulfil" })).status).toBe(200)
      const { order, paymentId } = await awaitingOrder()
      await sandbox.control().expire(paymentId)
      await readByJob(paymentId)
      expect((await adminOrder(api, shop, order.id)).status).not.toBe("canceled")
      await cryptoPayment().updateCryptoPayments({
        id: (await row(paymentId)).id,
        watch_until: new Date(Date.now() - 1000),
      })
      await readByJob(paymentId)
      expect(await row(paymentId)).toMatchObject({ applied: "cancel_order", settled: true })
      expect((await adminOrder(api, shop, order.id)).status).toBe("canceled")
    })

    it('"flag" (the default): the expired order is canceled and a late payment flagged', async () => {
      const { order, paymentId } = await awaitingOrder()
      await sandbox.control().expire(paymentId)
      expect((await notify(paymentId)).data).toMatchObject({ applied: "cancel_order" })
      expect((await adminOrder(api, shop, order.id)).status).toBe("canceled")
    })
  })

  describe("settings route", () => {
    it("shows medusa-config's defaults, saves what the admin sets (it wins), logs who changed what, and goes back with null", async () => {
      const before = (await api.get("/admin/crypto/settings", shop.admin)).data
      expect(before.settings).toEqual([
        expect.objectContaining({
          provider_id: PROVIDER,
          underpayment_tolerance_percent: 0,
          late_payments: "flag",
          late_window_hours: 24,
          defaults: { underpayment_tolerance_percent: 0, late_payments: "flag" },
        }),
      ])

      const saved = await saveSettings({ underpayment_tolerance_percent: 0.75, late_payments: "fulfil" })
      expect(saved.status).toBe(200)
      expect(saved.data.setting).toMatchObject({
        underpayment_tolerance_percent: 0.75,
        late_payments: "fulfil",
        saved: { underpayment_tolerance_percent: 0.75, late_payments: "fulfil" },
        defaults: { underpayment_tolerance_percent: 0, late_payments: "flag" },
      })
      const after = (await api.get(`/admin/crypto/settings?provider_id=${PROVIDER}`, shop.admin)).data
      expect(after.changes.slice(0, 2)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            field: "underpayment_tolerance_percent",
            from: null,
            to: "0.75",
            actor_email: "admin@crypto.test",
          }),
          expect.objectContaining({
            field: "late_payments",
            from: null,
            to: "fulfil",
            actor_email: "admin@crypto.test",
          }),
        ])
      )
      expect(after.settings[0].updated_by).toBe(after.changes[0].actor_id)

      // saving the same again changes nothing and logs nothing
      await saveSettings({ late_payments: "fulfil" })
      expect((await api.get("/admin/crypto/settings", shop.admin)).data.changes).toHaveLength(after.changes.length)

      const reset = await saveSettings({ underpayment_tolerance_percent: null })
      expect(reset.data.setting).toMatchObject({ underpayment_tolerance_percent: 0, late_payments: "fulfil" })
    })

    it.each<[string, Record<string, unknown>, number]>([
      ["a tolerance above 5 %", { underpayment_tolerance_percent: 6 }, 400],
      ["a tolerance with three decimals", { underpayment_tolerance_percent: 0.125 }, 400],
      ["an unknown late-payment policy", { late_payments: "keep" }, 400],
      ["nothing to change", {}, 400],
      ["an unknown field", { tolerance: 1 }, 400],
      ["a provider that is not registered", { provider_id: "pp_crypto_other", late_payments: "flag" }, 404],
    ])("refuses %s with a clear %p and changes nothing", async (_name, body, status) => {
      const answer = await saveSettings(body)
      expect(answer.status).toBe(status)
      expect(typeof answer.data.message).toBe("string")
      expect((await api.get("/admin/crypto/settings", shop.admin)).data.settings[0].saved).toBeNull()
    })

    it("is for admins only", async () => {
      const anonymous = await api.get("/admin/crypto/settings", { validateStatus: () => true })
      expect(anonymous.status).toBe(401)
    })
  })

  describe("setup health", () => {
    const health = async () => (await api.get("/admin/crypto/health", shop.admin)).data
    const line = (body: { checks: Array<{ id: string }> }, id: string) => body.checks.find((c) => c.id === id)

    it("is green for a healthy setup with webhooks arriving, naming the webhook URL without its token", async () => {
      await sandbox.control().setWebhooks({ enabled: true })
      const { paymentId } = await awaitingOrder()
      await sandbox.control().pay(paymentId)
      await sandbox.control().confirm(paymentId)
      await waitFor(
        () => row(paymentId),
        (r) => r.settled,
        { what: "the webhook to settle the payment" }
      )
      const body = await health()
      expect(line(body, "api_key")).toMatchObject({ level: "green", provider_id: PROVIDER })
      expect(line(body, "webhook_url")).toMatchObject({ level: "green" })
      expect(line(body, "webhook_url")!).toHaveProperty("detail", expect.stringContaining("/hooks/crypto/<token>"))
      expect(line(body, "webhooks")).toMatchObject({ level: "green" })
      expect(line(body, "migrations")).toMatchObject({ level: "green" })
      expect(line(body, "locking")).toMatchObject({ level: "green" })
      expect(line(body, "clock")).toMatchObject({ level: "green" })
      expect(line(body, "webhook_secret")).toMatchObject({
        level: "green",
        detail: expect.stringContaining("the configured webhookSecret"),
      })
      expect(body.level).toBe("green")
      expect(JSON.stringify(body)).not.toContain(SANDBOX_API_KEY)
    })

    it("is amber when webhooks do not arrive: the payments were settled by the job", async () => {
      const { paymentId } = await awaitingOrder()
      await sandbox.control().pay(paymentId)
      await sandbox.control().confirm(paymentId)
      await readByJob(paymentId)
      const body = await health()
      expect(line(body, "webhooks")).toMatchObject({ level: "amber", action: expect.stringContaining("backendUrl") })
      expect(line(body, "webhooks")!).toHaveProperty("detail", expect.stringContaining("0 of 1 payment settled"))
      expect(body.level).toBe("amber")
    })

    it("is red when the service refuses the API key, and never shows the key", async () => {
      await sandbox.control().addFault({ kind: "error", status: 401, path: "/v1/merchant/balance", times: 5 })
      const body = await health()
      expect(line(body, "api_key")).toMatchObject({ level: "red", action: expect.stringContaining("apiKey") })
      expect(body.level).toBe("red")
      expect(JSON.stringify(body)).not.toContain(SANDBOX_API_KEY)
    })

    it("is red when per-process locking meets a second process on the database", async () => {
      await cryptoPayment().createCryptoProcesses([
        // running for a while: it has refreshed its row since it started
        {
          host: "other-host",
          pid: 4242,
          worker_mode: "shared",
          locking: "in-memory",
          seen_at: new Date(),
          created_at: new Date(Date.now() - 120_000),
        } as never,
      ])
      try {
        const body = await health()
        expect(line(body, "locking")).toMatchObject({
          level: "red",
          action: expect.stringContaining("locking-redis"),
        })
        expect(line(body, "locking")!).toHaveProperty("detail", expect.stringContaining("2 Medusa processes"))
      } finally {
        const others = await cryptoPayment().listCryptoProcesses({ host: "other-host" })
        await cryptoPayment().deleteCryptoProcesses(others.map((p) => p.id))
      }
    })

    it("the boot check logs one warn line per red item, without the key", async () => {
      const warned: string[] = []
      const log = pluginLog({
        ...console,
        warn: (line: string) => warned.push(line),
        info() {},
        debug() {},
        error() {},
      } as never)
      const config = {
        projectConfig: { workerMode: "shared" },
        modules: {
          payment: {
            resolve: "@medusajs/medusa/payment",
            options: {
              providers: [
                {
                  resolve: "./src/providers/crypto",
                  id: "crypto",
                  options: { apiKey: "wrong_key_for_the_test", baseUrl: sandbox.sandbox().url },
                },
              ],
            },
          },
        },
      }
      const checks = await bootCheck(getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION), config, log)
      const red = checks.filter((c) => c.level === "red")
      expect(red.map((c) => c.id)).toEqual(["api_key"])
      expect(warned).toHaveLength(1)
      expect(warned[0]).toContain("API key")
      expect(warned.join("\n")).not.toContain("wrong_key_for_the_test")
    })
  })
}
