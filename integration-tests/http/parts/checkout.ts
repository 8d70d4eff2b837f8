import type { CryptoSuite } from "../../helpers/runner"
import { ContainerRegistrationKeys, Modules, PaymentActions } from "@medusajs/framework/utils"
import { processPaymentWorkflow } from "@medusajs/core-flows"
import { SANDBOX_API_KEY, type SandboxHandle } from "../../helpers/sandbox"
import { createProduct, createRegion, CRYPTO_PROVIDER_ID } from "../../helpers/store"
import {
  addCryptoSession,
  adminOrder,
  completeCart,
  createCryptoCart,
  CryptoStore,
  failing,
  startCryptoSession,
} from "../../helpers/checkout"

/** Checkout with placeOrder before_payment (the default) and mode invoice (the default). */
export function checkoutTests({ api, getContainer }: CryptoSuite, sandbox: SandboxHandle, fileShop: () => CryptoStore) {
  let shop: CryptoStore

  beforeEach(async () => {
    shop = fileShop()
  })

  describe("invoice mode", () => {
    it("creates exactly one invoice for the cart total, in USD, with the webhook URL, and keeps only public data", async () => {
      const cart = await createCryptoCart(api, shop, 2)
      const { session } = await startCryptoSession(api, shop, cart.id)

      expect(session.data).toMatchObject({
        session_id: session.id,
        kind: "invoice",
        paymentId: expect.stringMatching(/^inv_/),
        invoiceUrl: expect.stringContaining("/pay/"),
        expiresAt: expect.any(String),
        status: "PENDING",
        baseAmount: "50.00",
        baseCurrency: "USD",
      })
      const text = JSON.stringify(session.data)
      expect(text).not.toContain(SANDBOX_API_KEY)
      expect(text).not.toContain("/hooks/crypto/")

      const creates = await sandbox.control().requests("/v1/create_")
      expect(creates).toHaveLength(1)
      expect(creates[0].path).toBe("/v1/create_invoice")
      expect(creates[0].body).toEqual({
        amount: 50,
        amountCurrency: "USD",
        orderId: session.id,
        webhookUrl: expect.stringMatching(
          new RegExp(`^http://localhost:\\d+/hooks/crypto/${session.id}\\.[A-Za-z0-9_-]{43}$`)
        ),
      })
      expect(creates[0].headers["x-api-key"]).toBe("[redacted]")
    })
  })

  describe("payment mode", () => {
    it("creates a single-coin payment when the storefront names a coin, with address and QR in the session", async () => {
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id, { currency: "ETH" })
      expect(session.data).toMatchObject({
        kind: "payment",
        paymentId: expect.stringMatching(/^pay_/),
        currency: "ETH",
        address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
        amount: expect.any(Number),
      })
      // the service's payload as it wrote it (the sandbox writes addresses in lowercase); the address in EIP-55
      expect(session.data.qrCode).toBe(`eth:${session.data.address.toLowerCase()}?amount=${session.data.amount}`)
      const [create] = await sandbox.control().requests("/v1/create_payment")
      expect(create.body).toMatchObject({ amount: 25, amountCurrency: "USD", currency: "ETH", orderId: session.id })
    })

    it("writes the session's data in the statement that writes its ledger row, and Medusa rewrites nothing", async () => {
      const cart = await createCryptoCart(api, shop)
      const { session, collectionId } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
      const db = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
      const {
        rows: [stored],
      } = await db.raw(
        `select s."data", s."xmin"::text as "session_tx", p."xmin"::text as "ledger_tx", p."payment_collection_id"
           from "payment_session" s join "crypto_payment" p on p."session_id" = s."id" where s."id" = ?`,
        [session.id]
      )
      // what the storefront got is what the database holds, and the ledger row agrees
      expect(stored.data).toEqual(session.data)
      expect(stored.data).toMatchObject({ currency: "BTC", paymentId: expect.stringMatching(/^pay_/) })
      expect(stored.payment_collection_id).toBe(collectionId)
      // one transaction wrote both, and no later write of Medusa's replaced the session's row
      expect(stored.session_tx).toBe(stored.ledger_tx)
    })

    it("answers 400 naming the allowed coins for an unknown coin, and keeps no session", async () => {
      const cart = await createCryptoCart(api, shop)
      const {
        data: { payment_collection: collection },
      } = await api.post("/store/payment-collections", { cart_id: cart.id }, shop.store.storeHeaders)
      const res = await failing(
        api.post(
          `/store/payment-collections/${collection.id}/payment-sessions`,
          { provider_id: CRYPTO_PROVIDER_ID, data: { currency: "DOGE" } },
          shop.store.storeHeaders
        )
      )
      expect(res.status).toBe(400)
      expect(res.data.message).toContain("BTC, ETH, LTC, USDT_ERC20, USDT_BEP20")
      expect(await sandbox.control().requests("/v1/create_")).toHaveLength(0)
      const payment = getContainer().resolve(Modules.PAYMENT)
      expect(await payment.listPaymentSessions({ payment_collection_id: collection.id })).toHaveLength(0)
    })
  })

  describe("placeOrder: before_payment", () => {
    it("places the order awaiting payment, then captures it once the service reports COMPLETED", async () => {
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })

      const completed = await completeCart(api, shop, cart.id)
      expect(completed.type).toBe("order")
      let order = await adminOrder(api, shop, completed.order.id)
      expect(order.payment_status).toBe("awaiting")

      await sandbox.control().pay(session.data.paymentId)
      await sandbox.control().confirm(session.data.paymentId)

      await processPaymentWorkflow(getContainer()).run({
        input: { action: PaymentActions.SUCCESSFUL, data: { session_id: session.id, amount: 25 } },
      })
      order = await adminOrder(api, shop, completed.order.id)
      expect(order.payment_status).toBe("captured")
      const payments = order.payment_collections[0].payments
      expect(payments).toHaveLength(1)
      const sessionAfter = order.payment_collections[0].payment_sessions[0]
      expect(sessionAfter.data).toMatchObject({ status: "COMPLETED", confirmations: 3, requiredConfirmations: 3 })
    })

    it("creates a captured order at once when the payment is already complete", async () => {
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id)
      await sandbox.control().select(session.data.paymentId, "LTC")
      await sandbox.control().pay(session.data.paymentId)
      await sandbox.control().confirm(session.data.paymentId)
      const completed = await completeCart(api, shop, cart.id)
      expect((await adminOrder(api, shop, completed.order.id)).payment_status).toBe("captured")
    })

    it("reads the status again after a 429 and still completes", async () => {
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
      await sandbox.control().pay(session.data.paymentId)
      await sandbox.control().confirm(session.data.paymentId)
      await sandbox.control().addFault({ kind: "rate_limit", path: "/status", retryAfter: 0, times: 2 })
      const completed = await completeCart(api, shop, cart.id)
      expect((await adminOrder(api, shop, completed.order.id)).payment_status).toBe("captured")
      const reads = await sandbox.control().requests("/status")
      expect(reads.slice(0, 3).map((r) => r.status)).toEqual([429, 429, 200])
    })
  })

  describe("when the payment ends unpaid", () => {
    it.each([
      ["expired", "expire", /expired before the full amount arrived/],
      ["failed", "fail", /failed at the payment service/],
    ] as const)(
      "refuses completion when the payment %s, and a new session can be started",
      async (_, action, message) => {
        // before any webhook closes the session, completion itself must explain
        await sandbox.control().setWebhooks({ enabled: false })
        const cart = await createCryptoCart(api, shop)
        const { session, collectionId } = await startCryptoSession(api, shop, cart.id)
        await sandbox.control()[action](session.data.paymentId)

        const res = await failing(api.post(`/store/carts/${cart.id}/complete`, {}, shop.store.storeHeaders))
        expect(res.status).toBe(400)
        expect(res.data.message).toMatch(message)

        const fresh = await addCryptoSession(api, shop, collectionId)
        expect(fresh.data.paymentId).not.toBe(session.data.paymentId)
        expect(await sandbox.control().requests("/v1/create_invoice")).toHaveLength(2)
      }
    )
  })

  describe("when the cart changes", () => {
    it("drops the session when the total changes, and a new session invoices the new total", async () => {
      const cart = await createCryptoCart(api, shop)
      const { session, collectionId } = await startCryptoSession(api, shop, cart.id)
      const lineId = (await api.get(`/store/carts/${cart.id}`, shop.store.storeHeaders)).data.cart.items[0].id
      await api.post(`/store/carts/${cart.id}/line-items/${lineId}`, { quantity: 3 }, shop.store.storeHeaders)

      const payment = getContainer().resolve(Modules.PAYMENT)
      expect(await payment.listPaymentSessions({ id: session.id })).toHaveLength(0)

      const again = await addCryptoSession(api, shop, collectionId)
      expect(again.data.baseAmount).toBe("75.00")
      const creates = await sandbox.control().requests("/v1/create_invoice")
      expect(creates.map((r) => (r.body as { amount: number }).amount)).toEqual([25, 75])
    })

    it("updatePayment creates a new invoice for a new amount and calls nothing for the same amount", async () => {
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id)
      const payment = getContainer().resolve(Modules.PAYMENT)

      const same = await payment.updatePaymentSession({
        id: session.id,
        amount: 25,
        currency_code: "usd",
        data: session.data,
      })
      expect(same.data?.paymentId).toBe(session.data.paymentId)
      expect(await sandbox.control().requests("/v1/create_invoice")).toHaveLength(1)

      const changed = await payment.updatePaymentSession({
        id: session.id,
        amount: 30,
        currency_code: "usd",
        data: session.data,
      })
      expect(changed.data?.paymentId).not.toBe(session.data.paymentId)
      expect(changed.data?.baseAmount).toBe("30.00")
      const creates = await sandbox.control().requests("/v1/create_invoice")
      expect(creates.map((r) => (r.body as { amount: number }).amount)).toEqual([25, 30])
    })
  })

  describe("errors the storefront must understand", () => {
    it("refuses a cart in a currency no rate prices, naming it, and creates nothing", async () => {
      // the ECB publishes no rate for the Argentine peso (EUR carts are priced: parts/store-currencies.ts)
      const region = await createRegion(api, shop.admin, { currency: "ars", countries: ["de"], name: "Pesos" })
      const { variantId } = await createProduct(api, shop.admin, shop.store.salesChannel.id, { ars: 25000 })
      const pesos: CryptoStore = { ...shop, region, variantId }
      const cart = await createCryptoCart(api, pesos)
      const res = await failing(startCryptoSession(api, pesos, cart.id))
      expect(res.status).toBe(400)
      expect(res.data).toMatchObject({ code: "crypto.currency_not_priced" })
      expect(res.data.message).toContain("no exchange rate from ARS to USD")
      expect((await sandbox.control().requests()).filter((r) => /create_/.test(r.path))).toEqual([])
    })

    it("gives a clear error and leaves no session when the service answers 500 on create", async () => {
      const cart = await createCryptoCart(api, shop)
      await sandbox.control().addFault({ kind: "error", path: "/v1/create_invoice" })
      const {
        data: { payment_collection: collection },
      } = await api.post("/store/payment-collections", { cart_id: cart.id }, shop.store.storeHeaders)
      const res = await failing(
        api.post(
          `/store/payment-collections/${collection.id}/payment-sessions`,
          { provider_id: CRYPTO_PROVIDER_ID },
          shop.store.storeHeaders
        )
      )
      expect(res.status).toBe(500)
      expect(res.data.message).toMatch(/crypto payment service had a problem\. Please try again/)
      expect(JSON.stringify(res.data)).not.toContain("Internal server error")
      const payment = getContainer().resolve(Modules.PAYMENT)
      expect(await payment.listPaymentSessions({ payment_collection_id: collection.id })).toHaveLength(0)
      // a POST that reached the service is not repeated blindly
      expect(await sandbox.control().requests("/v1/create_invoice")).toHaveLength(1)
    })

    it("records a partial refund as the same share of the coins owed (refunds: manual, the default)", async () => {
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
      await sandbox.control().pay(session.data.paymentId)
      await sandbox.control().confirm(session.data.paymentId)
      const completed = await completeCart(api, shop, cart.id)
      const order = await adminOrder(api, shop, completed.order.id)
      expect(order.payment_status).toBe("captured")
      await api.post(`/admin/payments/${order.payment_collections[0].payments[0].id}/refund`, { amount: 5 }, shop.admin)

      const { payment } = (await api.get(`/admin/crypto/payments/${session.data.paymentId}`, shop.admin)).data
      // 5 of 25 dollars: a fifth of the coins sent, rounded down to the coin's precision
      const sent = BigInt(session.data.amount.toFixed(8).replace(".", ""))
      const fifth = (sent / 5n).toString().padStart(9, "0")
      expect(payment.refund).toMatchObject({
        owed: true,
        base_amount: "5.00",
        amount: `${fifth.slice(0, -8)}.${fifth.slice(-8)}`,
      })
    })
  })
}
