import { cryptoIntegrationRunner } from "./runner"
import { useSandbox } from "./sandbox"
import {
  adminOrder,
  completeCart,
  createCryptoCart,
  CryptoStore,
  failing,
  ordersOfCart,
  setupCryptoStore,
  startCryptoSession,
} from "./checkout"
import { waitFor } from "./wait"

/** The share period of non-final status reads in these tests (statusCacheSeconds). */
const CACHE_SECONDS = 2

/**
 * How many calls a paid order costs the shop at the service (the sandbox's request log), in one
 * placeOrder mode: the create, then as few status reads as the plugin can manage. Exact counts, no
 * timings. The job is kept out of the way (an hour's interval) so only checkout, webhooks and
 * storefront polls read.
 */
export function serviceCallSuite(placeOrder: "before_payment" | "after_payment") {
  const sandbox = useSandbox({
    CRYPTO_PLACE_ORDER: placeOrder,
    CRYPTO_RECONCILE_INTERVAL_SECONDS: "3600",
    CRYPTO_STATUS_CACHE_SECONDS: String(CACHE_SECONDS),
  })

  cryptoIntegrationRunner({
    testSuite: ({ api, getContainer }) => {
      let shop: CryptoStore

      beforeEach(async () => {
        shop = await setupCryptoStore(api, getContainer())
      })

      const calls = async () => {
        const requests = await sandbox.control().requests("/v1/")
        return {
          create: requests.filter((r) => r.path.includes("/create_")).length,
          status: requests.filter((r) => r.path.endsWith("/status")).length,
          all: requests.length,
        }
      }
      const poll = (paymentId: string): Promise<{ data: { payment: { status: string } } }> =>
        api.get(`/store/crypto/payments/${paymentId}`, shop.store.storeHeaders)
      const capturedOrderOf = async (cartId: string) => {
        const [orderId] = await waitFor(
          () => ordersOfCart(getContainer(), cartId),
          (ids) => ids.length === 1,
          { what: "the order" }
        )
        return waitFor(
          () => adminOrder(api, shop, orderId),
          (o) => o.payment_status === "captured",
          { what: "the capture" }
        )
      }
      /** The customer pays in full; the service notifies the store once (COMPLETED). */
      const payInFull = async (paymentId: string) => {
        await sandbox.control().pay(paymentId)
        await sandbox.control().confirm(paymentId)
        await sandbox.sandbox().webhooks.idle()
      }

      it(`${placeOrder}: webhook before the storefront completes — the create and one status read`, async () => {
        const cart = await createCryptoCart(api, shop)
        const { session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
        await payInFull(session.data.paymentId)
        const order = await capturedOrderOf(cart.id)
        // then the storefront: its completion and its status poll reuse the final status
        const completed = await completeCart(api, shop, cart.id)
        expect(completed.order.id).toBe(order.id)
        expect((await poll(session.data.paymentId)).data.payment.status).toBe("COMPLETED")
        expect(await calls()).toEqual({ create: 1, status: 1, all: 2 })
      })

      it(`${placeOrder}: storefront completes before the webhook — at most one read more`, async () => {
        const cart = await createCryptoCart(api, shop)
        const { session } = await startCryptoSession(api, shop, cart.id, { currency: "ETH" })
        if (placeOrder === "before_payment") {
          expect((await completeCart(api, shop, cart.id)).type).toBe("order")
        } else {
          expect((await failing(completeCart(api, shop, cart.id))).status).toBe(400)
        }
        await payInFull(session.data.paymentId)
        const order = await capturedOrderOf(cart.id)
        if (placeOrder === "after_payment") expect((await completeCart(api, shop, cart.id)).order.id).toBe(order.id)
        expect((await poll(session.data.paymentId)).data.payment.status).toBe("COMPLETED")
        const counted = await calls()
        expect(counted).toEqual({ create: 1, status: 2, all: 3 })
      })

      it(`${placeOrder}: 100 pollers share one read per ${CACHE_SECONDS} s, see the webhook's news without another, and none once final`, async () => {
        const cart = await createCryptoCart(api, shop)
        const { session } = await startCryptoSession(api, shop, cart.id, { currency: "LTC" })
        const paymentId = session.data.paymentId
        await sandbox.control().pay(paymentId)
        await sandbox.control().clearRequests()
        // 100 storefront tabs, each polling as fast as it gets answers, for a little over two periods
        const started = Date.now()
        let answers = 0
        await Promise.all(
          Array.from({ length: 100 }, async () => {
            while (Date.now() - started < CACHE_SECONDS * 2500) {
              expect((await poll(paymentId)).data.payment.status).toBe("PENDING")
              answers++
            }
          })
        )
        const periods = Math.ceil((Date.now() - started) / (CACHE_SECONDS * 1000))
        const reads = (await calls()).status
        expect(answers).toBeGreaterThan(100)
        expect(reads).toBeGreaterThanOrEqual(1)
        expect(reads).toBeLessThanOrEqual(periods)

        // the webhook's read is what the pollers see next: no read of their own
        await sandbox.control().confirm(paymentId)
        await sandbox.sandbox().webhooks.idle()
        await capturedOrderOf(cart.id)
        const afterWebhook = (await calls()).status
        await waitFor(
          () => poll(paymentId),
          (r) => r.data.payment.status === "COMPLETED",
          { what: "the pollers to see COMPLETED" }
        )
        await Promise.all(Array.from({ length: 100 }, () => poll(paymentId)))
        expect((await calls()).status).toBe(afterWebhook)
      })
    },
  })
}
