import type { CryptoSuite } from "../../helpers/runner"
import type { SandboxHandle } from "../../helpers/sandbox"
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

/** The share period of non-final status reads these tests need (statusCacheSeconds). */
export const SERVICE_CALLS_CACHE_SECONDS = 2
const CACHE_SECONDS = SERVICE_CALLS_CACHE_SECONDS

/**
 * How many calls a paid order costs the shop at the service (the sandbox's request log), in one
 * placeOrder mode: the create, then as few status reads as the plugin can manage. Exact counts, no
 * timings. The file's configuration keeps the job out of the way (an hour's interval) so only checkout,
 * webhooks and storefront polls read, and shares a status read for SERVICE_CALLS_CACHE_SECONDS.
 */
export function serviceCallTests(
  placeOrder: "before_payment" | "after_payment",
  { api, getContainer }: CryptoSuite,
  sandbox: SandboxHandle,
  fileShop: () => CryptoStore
) {
  let shop: CryptoStore

  beforeEach(() => {
    shop = fileShop()
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
}
