import type { CryptoSuite } from "../../helpers/runner"
import type { SandboxHandle } from "../../helpers/sandbox"
import {
  adminOrder,
  completeCart,
  createCryptoCart,
  CryptoStore,
  failing,
  paidCryptoOrder,
  startCryptoSession,
} from "../../helpers/checkout"
import { waitFor } from "../../helpers/wait"

// refunds: "manual" (the default); reconciliation slowed down so the tests drive every read

export function adminApiTests({ api }: CryptoSuite, sandbox: SandboxHandle, fileShop: () => CryptoStore) {
  let shop: CryptoStore

  beforeEach(async () => {
    shop = fileShop()
    await sandbox.control().setWebhooks({ enabled: false })
  })

  /** An order paid in BTC: placed awaiting payment, paid, confirmed and captured by the webhook. */
  const paidOrder = async () => {
    const { order, paymentId } = await paidCryptoOrder(api, shop, sandbox.control())
    return { order: await adminOrder(api, shop, order.id), paymentId }
  }

  describe("authentication", () => {
    it.each([
      "/admin/crypto/payments",
      "/admin/crypto/payments/pay_x",
      "/admin/crypto/balances",
      "/admin/crypto/balances/BTC",
    ])("answers 401 to %s without an admin", async (path) => {
      const res = await failing(api.get(path))
      expect(res.status).toBe(401)
    })
  })

  describe("payments", () => {
    it("lists the ledger newest first, filtered by order, status and flag, with Medusa's list shape", async () => {
      const { order, paymentId } = await paidOrder()
      const cart = await createCryptoCart(api, shop)
      const { session: open } = await startCryptoSession(api, shop, cart.id, { currency: "ETH" })

      const all = (await api.get("/admin/crypto/payments", shop.admin)).data
      expect(all).toMatchObject({ limit: 20, next_cursor: null, prev_cursor: null })
      expect(all).not.toHaveProperty("count")
      expect(all.payments.map((p: { id: string }) => p.id)).toEqual([open.data.paymentId, paymentId])

      const byOrder = (await api.get(`/admin/crypto/payments?order_id=${order.id}`, shop.admin)).data
      expect(byOrder.payments.map((p: { id: string }) => p.id)).toEqual([paymentId])
      const completed = (await api.get("/admin/crypto/payments?status=COMPLETED&limit=1", shop.admin)).data
      expect(completed).toMatchObject({ limit: 1, payments: [{ id: paymentId }] })
      const flagged = (await api.get("/admin/crypto/payments?flag=paid_late", shop.admin)).data
      expect(flagged).toMatchObject({ payments: [], next_cursor: null })

      const bad = await failing(api.get("/admin/crypto/payments?flag=rich", shop.admin))
      expect(bad.status).toBe(400)
    })

    it("shows one payment with exact amounts, confirmations, its order and cart, and its timeline; 404 for a stranger", async () => {
      const { order, paymentId } = await paidOrder()
      const { payment } = (await api.get(`/admin/crypto/payments/${paymentId}`, shop.admin)).data
      expect(payment).toMatchObject({
        id: paymentId,
        kind: "payment",
        coin: "BTC",
        status: "COMPLETED",
        outcome: "paid",
        confirmations: 3,
        required_confirmations: 3,
        order_id: order.id,
        cart_id: expect.stringMatching(/^cart_/),
        base_amount: "25.00",
        base_currency: "USD",
        flags: [],
        applied: "capture",
        settled: true,
        refund: { owed: false, amount: null },
      })
      expect(payment.amount_received).toBe(payment.amount_required)
      expect(payment.amount_required).toMatch(/^0\.\d{8}$/)
      expect(payment.address).toMatch(/^bc1q/)
      expect(payment.timeline.map((e: { source: string }) => e.source)).toEqual(["checkout", "webhook"])

      const stranger = await failing(api.get("/admin/crypto/payments/pay_000000000000000000000000", shop.admin))
      expect(stranger.status).toBe(404)
    })

    it("re-checks a payment now through the webhook workflow and answers its new state", async () => {
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id, { currency: "LTC" })
      const { order } = await completeCart(api, shop, cart.id)
      await sandbox.control().pay(session.data.paymentId)
      await sandbox.control().confirm(session.data.paymentId)

      const { payment } = (await api.post(`/admin/crypto/payments/${session.data.paymentId}/reconcile`, {}, shop.admin))
        .data
      expect(payment).toMatchObject({ status: "COMPLETED", applied: "capture", settled: true, order_id: order.id })
      expect(payment.timeline.at(-1)).toMatchObject({ source: "admin", applied: "capture" })
      expect((await adminOrder(api, shop, order.id)).payment_status).toBe("captured")
    })
  })

  describe("balances", () => {
    it("shows the balances per coin with limits, and one coin with reset times", async () => {
      await paidOrder()
      const all = (await api.get("/admin/crypto/balances", shop.admin)).data
      expect(all).toMatchObject({ merchant_id: expect.any(String) })
      const btc = all.balances.find((b: { currency: string }) => b.currency === "BTC")
      expect(btc).toMatchObject({
        available: expect.any(Number),
        pending: expect.any(Number),
        total_earned: expect.any(Number),
        total_withdrawn: expect.any(Number),
      })
      expect(btc.limits.daily).toMatchObject({
        limit: expect.any(Number),
        used: expect.any(Number),
        remaining: expect.any(Number),
        reset_at: null,
      })

      const { balance } = (await api.get("/admin/crypto/balances/BTC", shop.admin)).data
      expect(balance.currency).toBe("BTC")
      expect(Date.parse(balance.limits.daily.reset_at)).toBeGreaterThan(Date.now())
      expect(Date.parse(balance.limits.monthly.reset_at)).toBeGreaterThan(Date.now())
    })

    it("answers 400 naming the coins for a bad currency, and a clear message for the service's 429 and 401", async () => {
      const bad = await failing(api.get("/admin/crypto/balances/DOGE", shop.admin))
      expect(bad.status).toBe(400)
      expect(bad.data.message).toBe("Unknown coin: currency must be one of BTC, ETH, LTC, USDT_ERC20, USDT_BEP20.")

      await sandbox.control().addFault({ kind: "rate_limit", path: "/v1/merchant/balance", retryAfter: 120, times: 10 })
      const limited = await failing(api.get("/admin/crypto/balances", shop.admin))
      expect(limited.status).toBe(503)
      expect(limited.data.message).toMatch(/rate-limiting this shop. Try again in 120 s/)
      await sandbox.control().clearFaults()

      await sandbox.control().addFault({ kind: "error", status: 401, path: "/v1/merchant/balance", times: 10 })
      const refused = await failing(api.get("/admin/crypto/balances/ETH", shop.admin))
      expect(refused.status).toBe(502)
      expect(refused.data.message).toMatch(/refused the API key/)
      expect(JSON.stringify(refused.data)).not.toContain(process.env.CRYPTO_API_KEY!)
    })
  })

  describe("refunds (manual)", () => {
    it("records a full refund through Medusa's admin route, shows the coins owed, then marks them sent", async () => {
      const { order, paymentId } = await paidOrder()
      const medusaPayment = order.payment_collections[0].payments[0]
      await api.post(`/admin/payments/${medusaPayment.id}/refund`, { amount: 25 }, shop.admin)

      const owed = (await api.get(`/admin/crypto/payments/${paymentId}`, shop.admin)).data.payment
      expect(owed.flags).toContain("refund_owed")
      expect(owed.refund).toMatchObject({
        owed: true,
        amount: owed.amount_received,
        base_amount: "25.00",
        sent_at: null,
      })
      expect((await api.get("/admin/crypto/payments?flag=refund_owed", shop.admin)).data.payments).toHaveLength(1)

      const seen = owed.refund.records.map((r: { id: string; coin_amount: string | null }) => ({
        id: r.id,
        coin_amount: r.coin_amount,
      }))
      const sent = (
        await api.post(
          `/admin/crypto/payments/${paymentId}/refund-sent`,
          { owed: seen, reference: "0xabc123" },
          shop.admin
        )
      ).data.payment
      expect(sent.refund).toMatchObject({ owed: false, reference: "0xabc123", sent_at: expect.any(String) })
      expect(sent.flags).not.toContain("refund_owed")
      // the same records again: no longer owed; the body naming no records: a 400 saying what to send
      expect(
        (await failing(api.post(`/admin/crypto/payments/${paymentId}/refund-sent`, { owed: seen }, shop.admin))).status
      ).toBe(409)
      const unnamed = await failing(api.post(`/admin/crypto/payments/${paymentId}/refund-sent`, {}, shop.admin))
      expect(unnamed.status).toBe(400)
      expect(unnamed.data.message).toContain("Send owed: [{ id, coin_amount }]")
    })

    it("cancels a paid order through the admin and records the refund owed", async () => {
      const { order, paymentId } = await paidOrder()
      await api.post(`/admin/orders/${order.id}/cancel`, {}, shop.admin)
      const canceled = await waitFor(
        () => adminOrder(api, shop, order.id),
        (o) => o.status === "canceled",
        { what: "the order to be canceled" }
      )
      expect(canceled.status).toBe("canceled")
      const { payment } = (await api.get(`/admin/crypto/payments/${paymentId}`, shop.admin)).data
      expect(payment.refund).toMatchObject({ owed: true, base_amount: "25.00" })
    })
  })
}
