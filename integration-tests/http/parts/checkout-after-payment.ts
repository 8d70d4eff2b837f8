import type { CryptoSuite } from "../../helpers/runner"
import type { SandboxHandle } from "../../helpers/sandbox"
import { Modules, PaymentEvents } from "@medusajs/framework/utils"
import {
  adminOrder,
  completeCart,
  createCryptoCart,
  CryptoStore,
  failing,
  ordersOfCart,
  startCryptoSession,
} from "../../helpers/checkout"
import { waitFor } from "../../helpers/wait"
import { notifyFromService } from "../../helpers/reconciliation"

/** Checkout with placeOrder after_payment: the order is placed once the payment is captured. */
export function checkoutAfterPaymentTests(
  { api, getContainer }: CryptoSuite,
  sandbox: SandboxHandle,
  fileShop: () => CryptoStore
) {
  let shop: CryptoStore

  beforeEach(async () => {
    shop = fileShop()
  })

  describe("placeOrder: after_payment", () => {
    it("refuses to complete the cart before the payment is confirmed, and the cart stays usable", async () => {
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
      await sandbox.control().pay(session.data.paymentId)
      await sandbox.control().confirm(session.data.paymentId, 1)

      const res = await failing(api.post(`/store/carts/${cart.id}/complete`, {}, shop.store.storeHeaders))
      expect(res.status).toBe(400)
      expect(res.data.message).toBe(
        "Your crypto payment is not confirmed yet (1 of 3 confirmations). The order is placed as soon as the payment is confirmed."
      )

      const { data } = await api.get(`/store/carts/${cart.id}`, shop.store.storeHeaders)
      expect(data.cart.completed_at).toBeNull()
      await api.post(`/store/carts/${cart.id}`, { email: "grace@crypto.test" }, shop.store.storeHeaders)
    })

    it("tells an underpaying customer how much arrived", async () => {
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id, { currency: "LTC" })
      await sandbox.control().pay(session.data.paymentId, { amount: "0.1" })
      const res = await failing(api.post(`/store/carts/${cart.id}/complete`, {}, shop.store.storeHeaders))
      expect(res.data.message).toContain(`received 0.10000000 of ${session.data.amount.toFixed(8)} LTC`)
    })

    it("creates a paid order once the payment is confirmed", async () => {
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id, { currency: "USDT_BEP20" })
      await sandbox.control().pay(session.data.paymentId)
      await sandbox.control().confirm(session.data.paymentId)
      const completed = await completeCart(api, shop, cart.id)
      expect(completed.type).toBe("order")
      const order = await adminOrder(api, shop, completed.order.id)
      expect(order.payment_status).toBe("captured")
      expect(order.payment_collections[0].payments).toHaveLength(1)
    })

    it("turns the cart into a paid order when the webhook reports the payment complete, with no storefront action", async () => {
      const captured: string[] = []
      getContainer()
        .resolve(Modules.EVENT_BUS)
        .subscribe(PaymentEvents.CAPTURED, async (event) => {
          captured.push((event.data as { id: string }).id)
        })
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
      await sandbox.control().pay(session.data.paymentId)
      await sandbox.control().confirm(session.data.paymentId)
      await sandbox.sandbox().webhooks.idle()
      const [orderId] = await waitFor(
        () => ordersOfCart(getContainer(), cart.id),
        (ids) => ids.length > 0,
        { what: "the order" }
      )
      const order = await adminOrder(api, shop, orderId)
      expect(order.payment_status).toBe("captured")
      expect(await ordersOfCart(getContainer(), cart.id)).toHaveLength(1)
      // one payment, one capture, recorded once on the order, and Medusa's payment.captured once
      const [payment] = order.payment_collections[0].payments
      expect(order.payment_collections[0].payments).toHaveLength(1)
      expect(payment.captures).toHaveLength(1)
      const transactions = await getContainer()
        .resolve(Modules.ORDER)
        .listOrderTransactions({ order_id: orderId, reference: "capture" })
      expect(transactions.map((t) => t.reference_id)).toEqual([payment.captures[0].id])
      await waitFor(
        async () => captured,
        (ids) => ids.includes(payment.id),
        { what: "payment.captured for the webhook's capture" }
      )
      // the service notifies again: nothing more
      expect((await notifyFromService(sandbox.control(), session.data.paymentId)).status).toBe(200)
      expect(captured.filter((id) => id === payment.id)).toHaveLength(1)
      expect((await adminOrder(api, shop, orderId)).payment_collections[0].payments[0].captures).toHaveLength(1)
    })

    it("makes no order for an expired payment and closes its session", async () => {
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id)
      await sandbox.control().expire(session.data.paymentId)
      await sandbox.sandbox().webhooks.idle()
      const [delivery] = (await sandbox.control().webhooks()).deliveries
      expect(delivery).toMatchObject({ event: "payment.expired", state: "delivered" })
      const [closed] = await getContainer().resolve(Modules.PAYMENT).listPaymentSessions({ id: session.id })
      expect(closed.status).toBe("canceled")
      expect(await ordersOfCart(getContainer(), cart.id)).toHaveLength(0)
    })
  })
}
