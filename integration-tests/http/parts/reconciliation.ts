import type { CryptoSuite } from "../../helpers/runner"
import type { SandboxHandle } from "../../helpers/sandbox"
import { adminOrder, completeCart, createCryptoCart, CryptoStore, startCryptoSession } from "../../helpers/checkout"
import { createStockedProduct, reservedQuantity } from "../../helpers/store"
import { waitFor } from "../../helpers/wait"
import { CRYPTO_PAYMENT_MODULE, CryptoPaymentModuleService } from "../../../src/modules/crypto-payment"

/** The reconciliation job alone settles payments: webhooks are switched off in every test here. */
export function reconciliationTests(
  { api, getContainer }: CryptoSuite,
  sandbox: SandboxHandle,
  fileShop: () => CryptoStore
) {
  let shop: CryptoStore

  beforeEach(async () => {
    shop = fileShop()
    await sandbox.control().setWebhooks({ enabled: false })
  })

  const record = async (sessionId: string) => {
    const service: CryptoPaymentModuleService = getContainer().resolve(CRYPTO_PAYMENT_MODULE)
    const [found] = await service.listCryptoPayments({ session_id: sessionId })
    return found
  }

  it("captures a paid order whose webhook never came, by the scheduled job alone", async () => {
    const cart = await createCryptoCart(api, shop)
    const { session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
    const { order } = await completeCart(api, shop, cart.id)
    await sandbox.control().pay(session.data.paymentId)
    await sandbox.control().confirm(session.data.paymentId)

    const paid = await waitFor(
      () => adminOrder(api, shop, order.id),
      (o) => o.payment_status === "captured",
      {
        timeoutMs: 40_000,
        what: "the job to capture the order",
      }
    )
    expect(paid.payment_collections[0].payments).toHaveLength(1)
    // the effect comes first, the record right after it
    const settled = await waitFor(
      () => record(session.id),
      (r) => r.settled,
      { what: "the record of the capture" }
    )
    expect(settled).toMatchObject({ outcome: "paid", applied: "capture", settled: true })
    expect((await sandbox.control().webhooks()).deliveries).toHaveLength(0)
  })

  it("cancels an expired awaiting order and gives its reserved inventory back", async () => {
    const stocked = await createStockedProduct(api, shop.admin, shop.store.salesChannel.id)
    const cart = await createCryptoCart(api, { ...shop, variantId: stocked.variantId }, 2)
    const { session } = await startCryptoSession(api, shop, cart.id)
    const { order } = await completeCart(api, shop, cart.id)
    expect(await reservedQuantity(api, shop.admin, stocked.inventoryItemId)).toBe(2)

    await sandbox.control().expire(session.data.paymentId)
    const canceled = await waitFor(
      () => adminOrder(api, shop, order.id),
      (o) => o.status === "canceled",
      {
        timeoutMs: 40_000,
        what: "the job to cancel the order",
      }
    )
    expect(canceled.status).toBe("canceled")
    // canceled; an invoice that expired before a coin was chosen has no address, so nothing can arrive
    // late: it leaves the due index (a payment with a coin is read for the late window: the next test)
    const recorded = await waitFor(
      () => record(session.id),
      (r) => r.applied === "cancel_order",
      { what: "the record of the cancel" }
    )
    expect(recorded).toMatchObject({ status: "EXPIRED", applied: "cancel_order", settled: true, next_check_at: null })
    // the session is closed by the step after the order's cancel, and the record is written after both
    const closed = await adminOrder(api, shop, order.id)
    expect(closed.payment_collections[0].payment_sessions[0].status).toBe("canceled")
    expect(await reservedQuantity(api, shop.admin, stocked.inventoryItemId)).toBe(0)
  })

  it("flags a payment that completes after its order was canceled, and does not revive the order", async () => {
    const cart = await createCryptoCart(api, shop)
    const { session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
    const { order } = await completeCart(api, shop, cart.id)
    await sandbox.control().expire(session.data.paymentId)
    await waitFor(
      () => adminOrder(api, shop, order.id),
      (o) => o.status === "canceled",
      { timeoutMs: 40_000, what: "cancel" }
    )

    // the customer pays late; the service delivers the news by webhook
    await sandbox.control().setWebhooks({ enabled: true })
    await sandbox.control().pay(session.data.paymentId)
    await sandbox.control().confirm(session.data.paymentId)
    await sandbox.sandbox().webhooks.idle()

    const late = await waitFor(
      () => record(session.id),
      (r) => r.paid_late,
      { what: "the paid-late flag" }
    )
    expect(late).toMatchObject({ status: "COMPLETED", outcome: "paid", paid_late: true })
    expect(late.attention).toMatch(/^Paid late: .* BTC arrived after the order was canceled/)
    const after = await adminOrder(api, shop, order.id)
    expect(after.status).toBe("canceled")
    expect(after.payment_collections[0].payments).toHaveLength(0)
  })

  it("never completes an underpaid payment and shows received vs required", async () => {
    const cart = await createCryptoCart(api, shop)
    const { session } = await startCryptoSession(api, shop, cart.id, { currency: "LTC" })
    const { order } = await completeCart(api, shop, cart.id)
    await sandbox.control().pay(session.data.paymentId, { mode: "partial" })
    await sandbox.control().confirm(session.data.paymentId, 50)

    const seen = await waitFor(
      () => record(session.id),
      (r) => !!r?.underpaid,
      { timeoutMs: 40_000, what: "the underpayment" }
    )
    expect(Number(seen.received_amount)).toBeLessThan(Number(seen.required_amount))
    expect(seen.attention).toMatch(/^Underpaid so far: /)
    expect((await adminOrder(api, shop, order.id)).payment_status).toBe("awaiting")
  })

  it("backs off on a burst of 429 and still reaches the final state", async () => {
    const cart = await createCryptoCart(api, shop)
    const { session } = await startCryptoSession(api, shop, cart.id, { currency: "ETH" })
    const { order } = await completeCart(api, shop, cart.id)
    await sandbox.control().clearRequests()
    // more 429s than one read retries (1 + 3): a tick must give up, wait, and come back
    await sandbox.control().addFault({ kind: "rate_limit", path: "/status", retryAfter: 1, times: 6 })
    await sandbox.control().pay(session.data.paymentId)
    await sandbox.control().confirm(session.data.paymentId)

    const paid = await waitFor(
      () => adminOrder(api, shop, order.id),
      (o) => o.payment_status === "captured",
      {
        timeoutMs: 60_000,
        what: "capture after the 429 burst",
      }
    )
    expect(paid.payment_status).toBe("captured")

    const reads = await sandbox.control().requests("/status")
    const statuses = reads.map((r) => r.status)
    expect(statuses.slice(0, 7)).toEqual([429, 429, 429, 429, 429, 429, 200])
    const at = reads.map((r) => new Date(r.at).getTime())
    // within a tick, Retry-After (1 s) is honoured between reads
    for (const i of [1, 2, 3]) expect(at[i] - at[i - 1]).toBeGreaterThanOrEqual(900)
    // after the tick gave up, the payment waits a whole interval (5 s) before the next read
    expect(at[4] - at[3]).toBeGreaterThanOrEqual(4500)
    expect(
      await waitFor(
        () => record(session.id),
        (r) => r.settled,
        { what: "the record of the capture" }
      )
    ).toMatchObject({ settled: true, check_failures: 0 })
  })

  it("cancels the session of an expired payment with no order (after_payment-like carts)", async () => {
    const cart = await createCryptoCart(api, shop)
    const { session } = await startCryptoSession(api, shop, cart.id)
    await sandbox.control().fail(session.data.paymentId)
    const closed = await waitFor(
      () => record(session.id),
      (r) => r?.settled === true,
      { timeoutMs: 40_000, what: "the session to close" }
    )
    expect(closed).toMatchObject({ status: "FAILED", applied: "cancel_session" })
  })
}
