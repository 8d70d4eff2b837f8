import type { CryptoSuite } from "../../helpers/runner"
import type { SandboxHandle } from "../../helpers/sandbox"
import {
  addItemByOrderEdit,
  paidCryptoOrder,
  addCryptoSession,
  adminOrder,
  completeCart,
  createCryptoCart,
  CryptoStore,
  failing,
  ordersOfCart,
  startCryptoSession,
} from "../../helpers/checkout"
import { createCart, createStockedProduct } from "../../helpers/store"
import { CRYPTO_PAYMENT_MODULE, CryptoPaymentModuleService } from "../../../src/modules/crypto-payment"
import { holdReconciliationInEachTest, notifyFromService, readByJob } from "../../helpers/reconciliation"
import { runDuePayments } from "../../../src/jobs/_due-payments-runner"
import { waitFor } from "../../helpers/wait"
import { ledgerRowOf } from "../../helpers/ledger"

/**
 * Every coin accounted for, part two (issue 32): paths where the service leaves the happy path and
 * the spec allows it (EXPIRED kept while coins arrive, 18 decimals, a remainder on unconfirmed coins,
 * late coins and the customer's next attempt, a capture with no order, a read that fails at the
 * window's end, session churn, a cancel with another payment confirming). Each test is named after
 * the item of the issue it holds.
 */
export function everyCoinTests(
  { api, getContainer }: CryptoSuite,
  sandbox: SandboxHandle,
  fileShop: () => CryptoStore
) {
  let shop: CryptoStore
  holdReconciliationInEachTest(getContainer)

  beforeEach(async () => {
    shop = fileShop()
    await sandbox.control().setWebhooks({ enabled: false })
  })

  afterEach(async () => {
    await api
      .post("/admin/crypto/settings", { underpayment_tolerance_percent: null, late_payments: null }, shop.admin)
      .catch(() => undefined)
  })

  const cryptoPayment = (): CryptoPaymentModuleService => getContainer().resolve(CRYPTO_PAYMENT_MODULE)
  const row = (paymentId: string) => ledgerRowOf(getContainer(), paymentId)
  const notify = (paymentId: string) => notifyFromService(sandbox.control(), paymentId)
  const adminPayment = async (paymentId: string) =>
    (await api.get(`/admin/crypto/payments/${paymentId}`, shop.admin)).data.payment
  const storeStatus = async (paymentId: string) =>
    (await api.get(`/store/crypto/payments/${paymentId}`, shop.store.storeHeaders)).data.payment
  const owedOf = async (paymentId: string) =>
    (await cryptoPayment().ledger.listOwed([paymentId])).filter((r) => !r.sent_at)
  const fulfil = () => api.post("/admin/crypto/settings", { late_payments: "fulfil" }, shop.admin)

  /** An order placed awaiting its BTC payment. */
  const awaitingOrder = async () => {
    const cart = await createCryptoCart(api, shop)
    const { session, collectionId } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
    const { order } = await completeCart(api, shop, cart.id)
    expect((await adminOrder(api, shop, order.id)).payment_status).toBe("awaiting")
    return { order, paymentId: session.data.paymentId as string, session, collectionId, cart }
  }

  /** A paid order edited to add an item: its new collection for the outstanding amount, with a BTC session. */
  const orderCollectionSession = async () => {
    const { order } = await paidCryptoOrder(api, shop, sandbox.control())
    await addItemByOrderEdit(api, shop, order.id)
    const outstanding = (await adminOrder(api, shop, order.id)).payment_collections.find(
      (c: { status: string }) => c.status === "not_paid"
    )
    const edit = await addCryptoSession(api, shop, outstanding.id, { currency: "BTC" })
    return { order, outstanding, session: edit, paymentId: edit.data.paymentId as string }
  }

  it("1. a remainder on unconfirmed coins is refused until the first payment's coins are confirmed", async () => {
    const { paymentId } = await orderCollectionSession()
    await sandbox.control().pay(paymentId, { mode: "partial" })
    await sandbox.control().confirm(paymentId, 1)
    await sandbox.control().expire(paymentId)
    expect((await notify(paymentId)).data).toMatchObject({ status: "EXPIRED", applied: "cancel_session" })
    const refused = await failing(api.post(`/admin/crypto/payments/${paymentId}/remainder`, {}, shop.admin))
    expect(refused.status).toBe(400)
    expect(refused.data.message).toContain("not confirmed yet (1 of 3 confirmations)")
    expect(await cryptoPayment().listCryptoPayments({ remainder_of: paymentId })).toEqual([])
    // confirmed now: the remainder is asked, the first payment read afresh
    await sandbox.control().confirm(paymentId)
    await sandbox.control().clearRequests()
    const asked = (await api.post(`/admin/crypto/payments/${paymentId}/remainder`, {}, shop.admin)).data.payment
    expect(asked).toMatchObject({ kind: "payment", coin: "BTC", status: "PENDING" })
    expect((await sandbox.control().requests("/status")).some((r) => r.path.includes(paymentId))).toBe(true)
  })

  it("2. late coins that also pay the next attempt: owed as late, they never capture the customer's new session", async () => {
    // no order yet (the customer did not complete): the session closes at expiry, the coins come after
    const cart = await createCryptoCart(api, shop)
    const { session, collectionId } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
    const first = session.data.paymentId as string
    await sandbox.control().expire(first)
    expect((await notify(first)).data).toMatchObject({ applied: "cancel_session" })
    await sandbox.control().pay(first)
    await sandbox.control().confirm(first)
    await notify(first)
    expect((await adminPayment(first)).flags).toEqual(expect.arrayContaining(["paid_late", "refund_owed"]))
    expect(await owedOf(first)).toEqual([expect.objectContaining({ kind: "late" })])
    // the customer starts again on the same cart: a new session; the late coins are read again
    const next = await addCryptoSession(api, shop, collectionId, { currency: "BTC" })
    expect((await notify(first)).data).toMatchObject({ applied: "none" })
    expect(await ordersOfCart(getContainer(), cart.id)).toEqual([])
    expect(await row(first)).toMatchObject({ applied: "cancel_session", paid_late: true, capture_session_id: null })
    expect(await owedOf(first)).toEqual([expect.objectContaining({ kind: "late" })])
    expect(await row(next.data.paymentId)).toMatchObject({ applied: null })
  })

  describe("3. EXPIRED with money (a service that keeps EXPIRED while coins arrive)", () => {
    beforeEach(() => sandbox.control().configure({ expiredStays: true }))

    it("under flag: the awaiting order canceled, the payment paid_late with a late owed record", async () => {
      const { order, paymentId } = await awaitingOrder()
      await sandbox.control().expire(paymentId)
      await sandbox.control().pay(paymentId)
      await sandbox.control().confirm(paymentId)
      expect((await sandbox.control().payment(paymentId)).status).toBe("EXPIRED")
      expect((await notify(paymentId)).data).toMatchObject({ status: "EXPIRED", applied: "cancel_order" })
      expect((await adminOrder(api, shop, order.id)).status).toBe("canceled")
      expect((await adminPayment(paymentId)).flags).toEqual(expect.arrayContaining(["paid_late", "refund_owed"]))
      const [owed] = await owedOf(paymentId)
      expect(owed).toMatchObject({ kind: "late", coin_amount: (await row(paymentId)).received_amount })
      expect((await storeStatus(paymentId)).verdict).toBe("needs_attention")
    })

    it("under fulfil inside the window: captured, the order paid", async () => {
      await fulfil()
      const { order, paymentId } = await awaitingOrder()
      await sandbox.control().expire(paymentId)
      expect((await notify(paymentId)).data).toMatchObject({ applied: "none" })
      // held, and the customer is told to keep waiting: a capture can still happen
      expect(await storeStatus(paymentId)).toMatchObject({ verdict: "expired", final: false })
      await sandbox.control().pay(paymentId, { mode: "over" })
      await sandbox.control().confirm(paymentId)
      expect((await notify(paymentId)).data).toMatchObject({ status: "EXPIRED", applied: "capture" })
      expect((await adminOrder(api, shop, order.id)).payment_status).toBe("captured")
      // the excess is owed as on COMPLETED
      expect(await owedOf(paymentId)).toEqual([expect.objectContaining({ kind: "excess" })])
      // pollers share a view for a second: the next one says paid
      const paid = await waitFor(
        () => storeStatus(paymentId),
        (v) => v.verdict === "paid",
        { what: "paid" }
      )
      expect(paid).toMatchObject({ verdict: "paid", final: true })
    })

    it("short with coins on a canceled order: owed as late", async () => {
      const { order, paymentId } = await awaitingOrder()
      await sandbox.control().pay(paymentId, { mode: "partial" })
      await sandbox.control().confirm(paymentId)
      await sandbox.control().expire(paymentId)
      expect((await notify(paymentId)).data).toMatchObject({ applied: "cancel_order" })
      expect((await adminOrder(api, shop, order.id)).status).toBe("canceled")
      const received = (await row(paymentId)).received_amount
      expect(await owedOf(paymentId)).toEqual([expect.objectContaining({ kind: "late", coin_amount: received })])
    })
  })

  it("4. wei precision: an exact payment written with 18 decimals captures the order", async () => {
    await sandbox.control().configure({ decimals: "native" })
    const cart = await createCryptoCart(api, shop)
    const { session } = await startCryptoSession(api, shop, cart.id, { currency: "ETH" })
    const paymentId = session.data.paymentId as string
    const due = (await sandbox.control().payment(paymentId)).requiredAmount
    expect(due).toMatch(/^\d+\.\d{18}$/)
    expect(due).toMatch(/[1-9]$/)
    // the storefront gets the exact amount to send, as decimal text
    expect(session.data.cryptoAmount).toBe(due)
    expect((await row(paymentId)).crypto_amount).toBe(due)
    const { order } = await completeCart(api, shop, cart.id)
    await sandbox.control().pay(paymentId, { amount: due })
    await sandbox.control().confirm(paymentId)
    expect((await notify(paymentId)).data).toMatchObject({ status: "COMPLETED", applied: "capture" })
    expect((await adminOrder(api, shop, order.id)).payment_status).toBe("captured")
    expect(await row(paymentId)).toMatchObject({ received_amount: due, required_amount: due, underpaid: false })
    expect(await storeStatus(paymentId)).toMatchObject({ requiredAmount: due, receivedAmount: due, verdict: "paid" })
  })

  it("4b. an amount written at more places than its chain has: the wallet pays it rounded up, the rest is rounding, never owed", async () => {
    await sandbox.control().configure({ decimals: "native" })
    const cart = await createCryptoCart(api, shop)
    const { session } = await startCryptoSession(api, shop, cart.id)
    const paymentId = session.data.paymentId as string
    const { order } = await completeCart(api, shop, cart.id)
    // the service re-quotes the invoice at coin choice, to 18 places: USDT on Ethereum counts 6
    await sandbox.control().reprice(paymentId, 0.0012345)
    const due = (await sandbox.control().select(paymentId, "USDT_ERC20")).requiredAmount!
    const [whole, fraction] = due.split(".")
    expect(fraction.slice(6)).toMatch(/[1-9]/)
    await notify(paymentId)
    const chainUnits = BigInt(whole + fraction.slice(0, 6)) + 1n
    const view = await storeStatus(paymentId)
    expect(view.walletUri).toBe(
      `ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=${view.address}&uint256=${chainUnits}`
    )

    // the wallet sends what the URI asks: a little more than the service wrote
    const units = chainUnits.toString().padStart(7, "0")
    const sent = `${units.slice(0, -6)}.${units.slice(-6)}`
    await sandbox.control().pay(paymentId, { amount: sent })
    await sandbox.control().confirm(paymentId)
    expect((await notify(paymentId)).data).toMatchObject({ status: "COMPLETED", applied: "capture" })
    expect((await adminOrder(api, shop, order.id)).payment_status).toBe("captured")
    const paid = await row(paymentId)
    expect(paid).toMatchObject({ overpaid: false, refund_owed: false })
    expect(await owedOf(paymentId)).toEqual([])
    const entries = (paid.timeline as { entries: Array<{ rounding?: string }> }).entries
    const rounding = entries.find((entry) => entry.rounding)?.rounding
    // exactly what the wallet sent beyond the service's amount, in the service's units
    const scale = (amount: string) => BigInt(amount.split(".")[0] + (amount.split(".")[1] ?? "").padEnd(18, "0"))
    expect(rounding && (scale(sent) - scale(due)).toString()).toBe(rounding && scale(rounding).toString())
    expect(rounding).toBeDefined()
    // the store's view shares reads for a moment: the capture shows on the next one
    const shown = await waitFor(
      () => storeStatus(paymentId),
      (v) => v.verdict !== "awaiting",
      { what: "the paid view" }
    )
    expect(shown).toMatchObject({ verdict: "paid", overpaid: false, walletUri: null })
  })

  it("5. a short payment that completes after its remainder paid owes only what both sent beyond the amount", async () => {
    const { paymentId: short } = await orderCollectionSession()
    await sandbox.control().pay(short, { mode: "partial" })
    await sandbox.control().confirm(short)
    await sandbox.control().expire(short)
    await notify(short)
    const remainder = (await api.post(`/admin/crypto/payments/${short}/remainder`, {}, shop.admin)).data.payment.id
    await sandbox.control().pay(remainder)
    await sandbox.control().confirm(remainder)
    expect((await notify(remainder)).data).toMatchObject({ applied: "capture" })
    // the remainder's row keeps its own coins (the decision judged the pair)
    const remainderCoins = (await row(remainder)).received_amount!
    expect(BigInt(remainderCoins.replace(".", ""))).toBe(
      BigInt((await sandbox.control().payment(remainder)).currentBalance.replace(".", ""))
    )
    // the customer also sends the rest to the first address: that payment now completes on its own
    await sandbox.control().pay(short)
    await sandbox.control().confirm(short)
    expect((await sandbox.control().payment(short)).status).toBe("COMPLETED")
    await notify(short)
    const owed = await owedOf(short)
    expect(owed).toEqual([expect.objectContaining({ kind: "excess", coin_amount: remainderCoins })])
    expect((await row(short)).paid_twice).toBe(false)
  })

  it("7. captured with no order: flagged, the coins owed, the store verdict says so", async () => {
    const stocked = await createStockedProduct(api, shop.admin, shop.store.salesChannel.id, { stocked: 1 })
    const cartOf = () => createCart(api, shop.store, shop.region.id, stocked.variantId, 1, "us")
    // the customer pays without completing the cart; meanwhile someone buys the last unit
    const mine = await cartOf()
    const { session } = await startCryptoSession(api, shop, mine.id, { currency: "BTC" })
    const paymentId = session.data.paymentId as string
    const theirs = await cartOf()
    const { session: other } = await startCryptoSession(api, shop, theirs.id, { currency: "BTC" })
    await sandbox.control().pay(other.data.paymentId)
    await sandbox.control().confirm(other.data.paymentId)
    const { order: theirOrder } = await completeCart(api, shop, theirs.id)
    expect((await adminOrder(api, shop, theirOrder.id)).payment_status).toBe("captured")

    await sandbox.control().pay(paymentId)
    await sandbox.control().confirm(paymentId)
    const answer = await notify(paymentId)
    expect(answer.status).toBe(200)
    expect(await ordersOfCart(getContainer(), mine.id)).toEqual([])
    expect(await row(paymentId)).toMatchObject({
      captured_no_order: true,
      needs_attention: true,
      refund_owed: true,
      order_id: null,
    })
    expect((await row(paymentId)).attention).toContain("Captured, no order")
    const owed = await cryptoPayment().ledger.listOwed([paymentId])
    expect(owed.length).toBe(1)
    expect(await storeStatus(paymentId)).toMatchObject({ verdict: "needs_attention" })
    // read again: nothing captured a second time, still flagged
    await readByJob(getContainer(), paymentId)
    expect(await row(paymentId)).toMatchObject({ captured_no_order: true, needs_attention: true })
    expect((await cryptoPayment().ledger.listOwed([paymentId])).length).toBe(1)
  })

  it("8. one failed read at the window's end does not stop the reads that decide a held order", async () => {
    await fulfil()
    const { order, paymentId } = await awaitingOrder()
    await sandbox.control().expire(paymentId)
    expect((await notify(paymentId)).data).toMatchObject({ applied: "none" })
    // the window has ended; the read that would cancel the held order meets a 429
    const current = await row(paymentId)
    await cryptoPayment().updateCryptoPayments({ id: current.id, watch_until: new Date(Date.now() - 1000) })
    await sandbox.control().addFault({ path: `/v1/invoice/${paymentId}/status`, kind: "error", times: 20 })
    await readByJob(getContainer(), paymentId)
    const failed = await row(paymentId)
    expect(failed.check_failures).toBe(1)
    expect(failed.settled).toBe(false)
    expect(failed.next_check_at).not.toBeNull()
    // the service answers again: the next read cancels the held order
    await sandbox.control().clearFaults()
    await runDuePayments(getContainer(), new Date(Date.now() + 3_600_000))
    expect((await adminOrder(api, shop, order.id)).status).toBe("canceled")
    expect(await row(paymentId)).toMatchObject({ applied: "cancel_order", settled: true })
  })

  describe("10. session churn", () => {
    it("answers 429 with Retry-After past a few crypto sessions a minute on one cart, creating nothing", async () => {
      const cart = await createCryptoCart(api, shop)
      const { collectionId } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
      for (let i = 1; i < 6; i++) await addCryptoSession(api, shop, collectionId, { currency: "BTC" })
      const before = (await cryptoPayment().listCryptoPayments({ payment_collection_id: collectionId })).length
      const creates = (await sandbox.control().requests("/v1/create_payment")).length
      const refused = await api.post(
        `/store/payment-collections/${collectionId}/payment-sessions`,
        { provider_id: "pp_crypto_crypto", data: { currency: "BTC" } },
        { ...shop.store.storeHeaders, validateStatus: () => true }
      )
      expect(refused.status).toBe(429)
      expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1)
      expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(60)
      expect(refused.data).toMatchObject({ code: "crypto.too_many_sessions" })
      expect((await cryptoPayment().listCryptoPayments({ payment_collection_id: collectionId })).length).toBe(before)
      expect((await sandbox.control().requests("/v1/create_payment")).length).toBe(creates)
    })

    it("an invoice that expired before a coin was chosen leaves the due index", async () => {
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id)
      const invoice = session.data.paymentId as string
      await sandbox.control().expire(invoice)
      await readByJob(getContainer(), invoice)
      expect(await row(invoice)).toMatchObject({ settled: true, next_check_at: null, applied: "cancel_session" })
    })
  })

  it("11. a cancel waits while another payment of the collection confirms the full amount", async () => {
    // the customer starts in BTC, switches to ETH (the BTC payment is replaced), the order awaits the ETH one
    const cart = await createCryptoCart(api, shop)
    const { session, collectionId } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
    const replacedId = session.data.paymentId as string
    const current = (await addCryptoSession(api, shop, collectionId, { currency: "ETH" })).data.paymentId as string
    const { order } = await completeCart(api, shop, cart.id)
    // then pays the BTC address in full after all; its coins are confirming
    await sandbox.control().pay(replacedId)
    await sandbox.control().confirm(replacedId, 1)
    await readByJob(getContainer(), replacedId)
    // the ETH payment expires: the order is not canceled while the BTC one confirms
    await sandbox.control().expire(current)
    expect((await notify(current)).data).toMatchObject({ status: "EXPIRED", applied: "none" })
    expect((await adminOrder(api, shop, order.id)).status).not.toBe("canceled")
    expect(await row(current)).toMatchObject({ settled: false })
    // confirmed: the BTC payment captures the order it was replaced on
    await sandbox.control().confirm(replacedId)
    expect((await notify(replacedId)).data).toMatchObject({ applied: "capture" })
    expect((await adminOrder(api, shop, order.id)).payment_status).toBe("captured")
  })
}
