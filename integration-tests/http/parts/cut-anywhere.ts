import type { CryptoSuite } from "../../helpers/runner"
import type { SandboxHandle } from "../../helpers/sandbox"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import {
  adminOrder,
  completeCart,
  createCryptoCart,
  CryptoStore,
  ordersOfCart,
  startCryptoSession,
} from "../../helpers/checkout"
import { createCart, createStockedProduct } from "../../helpers/store"
import { CRYPTO_PAYMENT_MODULE, CryptoPaymentModuleService } from "../../../src/modules/crypto-payment"
import { holdReconciliationInEachTest, notifyFromService, readByJob } from "../../helpers/reconciliation"
import { ledgerRowOf } from "../../helpers/ledger"
import { waitFor } from "../../helpers/wait"

/**
 * Every coin accounted for, part four (issue 59): a run cut anywhere ends where an uncut run ends, and a
 * claim that meets an order. "Captured, no order" is read from Medusa's state on every read, never carried
 * from the run that captured.
 */
export function cutAnywhereTests({ api, getContainer }: CryptoSuite, sandbox: SandboxHandle, shop: () => CryptoStore) {
  holdReconciliationInEachTest(getContainer)

  beforeEach(async () => {
    await sandbox.control().setWebhooks({ enabled: false })
  })

  const cryptoPayment = (): CryptoPaymentModuleService => getContainer().resolve(CRYPTO_PAYMENT_MODULE)

  /**
   * The customer pays without completing the cart, and meanwhile someone buys the last unit: the payment
   * notified makes no order. Answers the payment, its cart and the product's stock.
   */
  async function paidWhileSoldOut() {
    const stocked = await createStockedProduct(api, shop().admin, shop().store.salesChannel.id, { stocked: 1 })
    const cartOf = () => createCart(api, shop().store, shop().region.id, stocked.variantId, 1, "us")
    const mine = await cartOf()
    const { session } = await startCryptoSession(api, shop(), mine.id, { currency: "BTC" })
    const paymentId = session.data.paymentId as string
    const theirs = await cartOf()
    const { session: other } = await startCryptoSession(api, shop(), theirs.id, { currency: "BTC" })
    await sandbox.control().pay(other.data.paymentId)
    await sandbox.control().confirm(other.data.paymentId)
    await completeCart(api, shop(), theirs.id)
    await sandbox.control().pay(paymentId)
    await sandbox.control().confirm(paymentId)
    return { paymentId, cartId: mine.id, stocked }
  }

  /** What the shop's books say of one checkout: the ledger row, what is owed, Medusa's payments and orders. */
  async function endState(paymentId: string, cartId: string) {
    const row = await ledgerRowOf(getContainer(), paymentId)
    const owed = await cryptoPayment().ledger.listOwed([paymentId])
    const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
    const { data: payments } = await query.graph({
      entity: "payment",
      fields: ["captured_at", "canceled_at", "refunds.amount"],
      // a checkout's payment always has its cart's collection
      filters: { payment_collection_id: row.payment_collection_id! },
    })
    return {
      row: {
        captured_no_order: row.captured_no_order,
        needs_attention: row.needs_attention,
        refund_owed: row.refund_owed,
        settled: row.settled,
        status: row.status,
        received_amount: row.received_amount,
        attention: row.attention,
      },
      owed: owed
        .map((r) => ({ kind: r.kind, coin_amount: r.coin_amount, base_amount: r.base_amount, sent: !!r.sent_at }))
        .sort((a, b) => `${a.kind}${a.coin_amount}`.localeCompare(`${b.kind}${b.coin_amount}`)),
      payments: (
        payments as Array<{ captured_at: unknown; canceled_at: unknown; refunds?: Array<{ amount: unknown }> }>
      )
        .map((p) => ({
          captured: !!p.captured_at,
          canceled: !!p.canceled_at,
          refunded: (p.refunds ?? []).reduce((sum, r) => sum + Number(r.amount), 0),
        }))
        .sort((a, b) => Number(b.captured) - Number(a.captured)),
      orders: (await ordersOfCart(getContainer(), cartId)).length,
    }
  }

  it("a run cut between its capture and its record (a database error) ends, read again, where an uncut run ends", async () => {
    const uncut = await paidWhileSoldOut()
    expect((await notifyFromService(sandbox.control(), uncut.paymentId)).status).toBe(200)
    const expected = await endState(uncut.paymentId, uncut.cartId)
    expect(expected.row).toMatchObject({ captured_no_order: true, needs_attention: true })
    expect(expected.orders).toBe(0)
    // every coin owed once: the refund Medusa's compensation recorded, or the claim, never both
    const owedCoins = expected.owed.reduce((sum, r) => sum + Number(r.coin_amount), 0)
    expect(owedCoins).toBeCloseTo(Number(expected.row.received_amount), 8)

    const cut = await paidWhileSoldOut()
    const ledger = cryptoPayment().ledger
    const record = jest
      .spyOn(ledger, "recordRead")
      .mockRejectedValueOnce(new Error("Connection terminated unexpectedly"))
    try {
      // the capture happened in Medusa, the record step never wrote: the webhook is told to retry
      expect((await notifyFromService(sandbox.control(), cut.paymentId)).status).toBe(503)
    } finally {
      record.mockRestore()
    }
    expect((await ledgerRowOf(getContainer(), cut.paymentId)).captured_no_order).toBe(false)
    await readByJob(getContainer(), cut.paymentId)
    const after = await endState(cut.paymentId, cut.cartId)
    expect({ ...after, row: { ...after.row, attention: undefined } }).toEqual({
      ...expected,
      row: { ...expected.row, attention: undefined },
    })
    expect(after.row.attention).toContain("Captured, no order")
    // read again: still the same, nothing owed twice
    await readByJob(getContainer(), cut.paymentId)
    expect(await endState(cut.paymentId, cut.cartId)).toEqual(after)
  })

  /** An order placed awaiting its BTC payment, which expires with a part of the amount received. */
  async function expiredShortOrder() {
    const cart = await createCryptoCart(api, shop())
    const { session } = await startCryptoSession(api, shop(), cart.id, { currency: "BTC" })
    const paymentId = session.data.paymentId as string
    const { order } = await completeCart(api, shop(), cart.id)
    await sandbox.control().pay(paymentId, { amount: "0.0001" })
    await sandbox.control().confirm(paymentId)
    await sandbox.control().expire(paymentId)
    return { paymentId, cartId: cart.id, orderId: order.id as string }
  }

  it("a run cut between its cancel and its record ends, read again, where an uncut run ends", async () => {
    const uncut = await expiredShortOrder()
    expect((await notifyFromService(sandbox.control(), uncut.paymentId)).status).toBe(200)
    const expected = await endState(uncut.paymentId, uncut.cartId)
    expect((await adminOrder(api, shop(), uncut.orderId)).status).toBe("canceled")
    expect(expected.owed).toEqual([expect.objectContaining({ kind: "late" })])
    expect(Number(expected.owed[0].coin_amount)).toBe(0.0001)

    const cut = await expiredShortOrder()
    const record = jest
      .spyOn(cryptoPayment().ledger, "recordRead")
      .mockRejectedValueOnce(new Error("Connection terminated unexpectedly"))
    try {
      expect((await notifyFromService(sandbox.control(), cut.paymentId)).status).toBe(503)
    } finally {
      record.mockRestore()
    }
    // a thrown step compensates the cancel (Medusa restores the order); a killed process would leave it
    // canceled: either way the next read decides from what it finds
    await readByJob(getContainer(), cut.paymentId)
    expect(await endState(cut.paymentId, cut.cartId)).toEqual(expected)
    expect((await adminOrder(api, shop(), cut.orderId)).status).toBe("canceled")
  })

  return { paidWhileSoldOut, endState }
}

/**
 * A claim that meets an order (refunds "disabled": Medusa's compensation cannot refund, so its capture stays
 * and the claim owes every coin): the shop restocks, the storefront completes the cart with the captured
 * session, and the next read withdraws the claim — paid once, owed nothing.
 */
export function claimMeetsOrderTests(suite: CryptoSuite, sandbox: SandboxHandle, shop: () => CryptoStore) {
  const { api, getContainer } = suite
  const { paidWhileSoldOut, endState } = cutAnywhereTests(suite, sandbox, shop)

  it("a no-order claim is withdrawn once the cart becomes an order paid with its capture", async () => {
    const { paymentId, cartId, stocked } = await paidWhileSoldOut()
    expect((await notifyFromService(sandbox.control(), paymentId)).status).toBe(200)
    const claimed = await endState(paymentId, cartId)
    expect(claimed.row).toMatchObject({ captured_no_order: true, refund_owed: true })
    expect(claimed.owed).toEqual([expect.objectContaining({ kind: "late", coin_amount: claimed.row.received_amount })])

    // the shop restocks; the customer's storefront completes the cart: Medusa places it with the capture
    await api.post(
      `/admin/inventory-items/${stocked.inventoryItemId}/location-levels/${stocked.locationId}`,
      { stocked_quantity: 5 },
      shop().admin
    )
    const { order } = await completeCart(api, shop(), cartId)
    expect((await adminOrder(api, shop(), order.id)).payment_status).toBe("captured")

    // the order's placement withdraws the claim at once, on the status the ledger kept (no read of the service)
    const reads = (await sandbox.control().requests(`/v1/invoice/${paymentId}/status`)).length
    await waitFor(
      async () => (await ledgerRowOf(getContainer(), paymentId)).captured_no_order,
      (flagged) => !flagged,
      { what: "the claim withdrawn once its cart became an order" }
    )
    expect((await sandbox.control().requests(`/v1/invoice/${paymentId}/status`)).length).toBe(reads)
    const met = await endState(paymentId, cartId)
    expect(met.orders).toBe(1)
    expect(met.owed).toEqual([])
    expect(met.row).toMatchObject({ captured_no_order: false, needs_attention: false, refund_owed: false })
    const row = await ledgerRowOf(getContainer(), paymentId)
    expect(row.order_id).toBe(order.id)
    // the job's next read finds nothing more to do
    await readByJob(getContainer(), paymentId)
    expect(await endState(paymentId, cartId)).toEqual(met)
    expect(JSON.stringify(row.timeline)).toContain(`Order ${order.id} was placed with this capture`)
    const status = (await api.get(`/store/crypto/payments/${paymentId}`, shop().store.storeHeaders)).data.payment
    expect(status).toMatchObject({ verdict: "paid" })
  })
}
