import type { CryptoSuite } from "../../helpers/runner"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import axios from "axios"
import type { SandboxHandle } from "../../helpers/sandbox"
import {
  addCryptoSession,
  adminOrder,
  completeCart,
  createCryptoCart,
  CryptoStore,
  startCryptoSession,
  payInFull as payAndConfirm,
} from "../../helpers/checkout"
import { waitFor } from "../../helpers/wait"
import { CRYPTO_PAYMENT_MODULE, CryptoPaymentModuleService } from "../../../src/modules/crypto-payment"
import { runDuePayments } from "../../../src/jobs/_due-payments-runner"
import { holdReconciliation as holdTicks, paymentDecidedInEachTest } from "../../helpers/reconciliation"
import { ledgerRowOf } from "../../helpers/ledger"

/** The job's reads per tick (reconcileBatchSize) in the file these tests run in. */
export const BUDGET = 25

/** The ledger against Medusa: effects first and the record after, replaced sessions, the job's due reads. */
export function ledgerTests({ api, getContainer }: CryptoSuite, sandbox: SandboxHandle, fileShop: () => CryptoStore) {
  let shop: CryptoStore
  let warnings: string[]
  let infos: string[]
  let debugs: string[]
  // what a test wants to happen once a decision is made (the workflow's paymentDecided hook)
  const decided = paymentDecidedInEachTest()

  beforeEach(async () => {
    shop = fileShop()
    await sandbox.control().setWebhooks({ enabled: false })
    warnings = []
    infos = []
    debugs = []
    const logger = getContainer().resolve(ContainerRegistrationKeys.LOGGER)
    jest.spyOn(logger, "warn").mockImplementation((message: string) => {
      warnings.push(message)
    })
    jest.spyOn(logger, "info").mockImplementation((message: string) => {
      infos.push(message)
    })
    jest.spyOn(logger, "debug").mockImplementation((message: string) => {
      debugs.push(message)
    })
  })

  /** Releases of the tick lock the tests hold: a failing test must not keep the job stopped for the next ones. */
  const held: Array<() => Promise<unknown>> = []
  afterEach(async () => {
    jest.restoreAllMocks()
    for (const release of held.splice(0)) await release().catch(() => undefined)
  })

  const cryptoPayment = (): CryptoPaymentModuleService => getContainer().resolve(CRYPTO_PAYMENT_MODULE)
  const row = (paymentId: string) => ledgerRowOf(getContainer(), paymentId)
  const webhookUrlOf = async (paymentId: string) => (await sandbox.control().payment(paymentId)).webhookUrl!
  const notify = async (paymentId: string) =>
    axios.post(await webhookUrlOf(paymentId), { paymentId }, { validateStatus: () => true })
  const payInFull = (paymentId: string, coin?: string) => payAndConfirm(sandbox.control(), paymentId, coin)

  /** Keeps the scheduled job from ticking (it skips while another holds the tick lock). */
  const holdReconciliation = async () => {
    const release = await holdTicks(getContainer())
    held.push(release)
    return release
  }

  describe("effects first, then the record", () => {
    it("answers 5xx when the capture must read again and is rate-limited after the decision, and reconciliation captures once the service answers", async () => {
      const release = await holdReconciliation()
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
      const { order } = await completeCart(api, shop, cart.id)
      const paymentId = session.data.paymentId
      await payInFull(paymentId)
      // the decision is made on a good read, kept in the ledger for the capture to reuse; here the
      // ledger has lost it (as when keeping it failed), so the capture reads, and the service rate-limits it
      decided.handler = async () => {
        decided.handler = undefined
        await cryptoPayment().updateCryptoPayments({ id: (await row(paymentId)).id, last_read: null })
        await sandbox.control().addFault({ kind: "rate_limit", path: "/status", retryAfter: 1, times: 8 })
      }

      const res = await notify(paymentId)
      expect(res.status).toBe(503)
      expect((await adminOrder(api, shop, order.id)).payment_status).toBe("awaiting")
      expect(await row(paymentId)).toMatchObject({ settled: false, applied: null })

      await sandbox.control().clearFaults()
      await release()
      const paid = await waitFor(
        () => adminOrder(api, shop, order.id),
        (o) => o.payment_status === "captured",
        { timeoutMs: 30_000, what: "reconciliation to capture" }
      )
      expect(paid.payment_collections[0].payments[0].captures).toHaveLength(1)
      expect(
        await waitFor(
          () => row(paymentId),
          (r) => r.settled,
          { what: "the record of the capture" }
        )
      ).toMatchObject({ settled: true, applied: "capture", order_id: order.id })
    })

    it("recovers on the next tick when the process dies between the decision and the capture", async () => {
      const release = await holdReconciliation()
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id, { currency: "LTC" })
      const { order } = await completeCart(api, shop, cart.id)
      const paymentId = session.data.paymentId
      await payInFull(paymentId)
      decided.handler = async ({ decision }) => {
        decided.handler = undefined
        if (decision.action === "capture") throw new Error("process killed (injected)")
      }

      expect((await notify(paymentId)).status).toBe(503)
      expect(await row(paymentId)).toMatchObject({ settled: false, applied: null })
      await release()
      await waitFor(
        () => row(paymentId),
        (r) => r.settled,
        { timeoutMs: 30_000, what: "the next tick to capture" }
      )
      expect((await adminOrder(api, shop, order.id)).payment_status).toBe("captured")
      expect(await row(paymentId)).toMatchObject({ applied: "capture", capture_session_id: session.id })
    })
  })

  describe("replaced sessions", () => {
    it("captures the order with the first coin's payment when the customer paid that one, and flags the second as paid twice", async () => {
      const release = await holdReconciliation()
      const cart = await createCryptoCart(api, shop)
      const { session: first, collectionId } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
      const second = await addCryptoSession(api, shop, collectionId, { currency: "ETH" })
      const { order } = await completeCart(api, shop, cart.id)
      expect(await getContainer().resolve(Modules.PAYMENT).listPaymentSessions({ id: first.id })).toHaveLength(0)

      // the customer scanned the first QR code
      await payInFull(first.data.paymentId)
      const res = await notify(first.data.paymentId)
      expect(res.status).toBe(200)
      expect(res.data).toMatchObject({ status: "COMPLETED", applied: "capture" })
      const paid = await adminOrder(api, shop, order.id)
      expect(paid.payment_status).toBe("captured")
      expect(await row(first.data.paymentId)).toMatchObject({
        replaced_session: true,
        capture_session_id: second.id,
        order_id: order.id,
        applied: "capture",
        settled: true,
      })
      expect(warnings.filter((w) => w.includes(first.data.paymentId) && w.includes(order.id))).toHaveLength(1)

      // and then paid the second one too
      await payInFull(second.data.paymentId)
      expect((await notify(second.data.paymentId)).data).toMatchObject({ applied: "none" })
      expect(await row(second.data.paymentId)).toMatchObject({
        paid_twice: true,
        needs_attention: true,
        applied: null,
        settled: true,
      })
      expect((await row(second.data.paymentId)).attention).toMatch(/^Paid twice: /)
      expect((await adminOrder(api, shop, order.id)).payment_collections[0].payments).toHaveLength(1)
      expect((await cryptoPayment().listAndCountCryptoPayments({ paid_twice: true }))[1]).toBe(1)
      expect(
        (await cryptoPayment().listCryptoPayments({ order_id: order.id })).map((r) => r.payment_id).sort()
      ).toEqual([first.data.paymentId, second.data.paymentId].sort())
      await release()
    })

    it("flags an old, smaller invoice paid after the cart total grew as underpaid, and leaves the order awaiting", async () => {
      const release = await holdReconciliation()
      const cart = await createCryptoCart(api, shop)
      const { session: first, collectionId } = await startCryptoSession(api, shop, cart.id)
      const lineId = (await api.get(`/store/carts/${cart.id}`, shop.store.storeHeaders)).data.cart.items[0].id
      await api.post(`/store/carts/${cart.id}/line-items/${lineId}`, { quantity: 2 }, shop.store.storeHeaders)
      await addCryptoSession(api, shop, collectionId)
      const { order } = await completeCart(api, shop, cart.id)

      await payInFull(first.data.paymentId, "BTC")
      expect((await notify(first.data.paymentId)).data).toMatchObject({ status: "COMPLETED", applied: "none" })
      expect((await adminOrder(api, shop, order.id)).payment_status).toBe("awaiting")
      const flagged = await row(first.data.paymentId)
      expect(flagged).toMatchObject({
        underpaid: true,
        replaced_session: true,
        needs_attention: true,
        base_amount: "25.00",
        settled: true,
      })
      expect(flagged.attention).toMatch(/does not cover order /)
      expect(
        warnings.filter((w) => w.includes(first.data.paymentId) && w.includes(order.id)).length
      ).toBeGreaterThanOrEqual(1)
      await release()
    })
  })

  it("flags a payment made after its order was canceled for expiry as paid late, once", async () => {
    const release = await holdReconciliation()
    const cart = await createCryptoCart(api, shop)
    const { session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
    const { order } = await completeCart(api, shop, cart.id)
    const paymentId = session.data.paymentId
    await sandbox.control().expire(paymentId)
    expect((await notify(paymentId)).data).toMatchObject({ status: "EXPIRED", applied: "cancel_order" })

    await payInFull(paymentId)
    for (let i = 0; i < 3; i++) expect((await notify(paymentId)).status).toBe(200)
    expect((await adminOrder(api, shop, order.id)).status).toBe("canceled")
    expect(await row(paymentId)).toMatchObject({ paid_late: true, needs_attention: true, status: "COMPLETED" })
    expect(warnings.filter((w) => /paid late/.test(w) && w.includes(paymentId))).toHaveLength(1)
    await release()
  })

  it("captures normally a session whose storefront data imitates the plugin's keys, and never before it is paid", async () => {
    const release = await holdReconciliation()
    const cart = await createCryptoCart(api, shop)
    const forged = { paymentId: "pay_forged", status: "COMPLETED", receivedAmount: 1, currency: null }
    const { session } = await startCryptoSession(api, shop, cart.id, forged)
    const paymentId = session.data.paymentId
    expect(paymentId).not.toBe("pay_forged")
    const { order } = await completeCart(api, shop, cart.id)
    expect((await adminOrder(api, shop, order.id)).payment_status).toBe("awaiting")
    expect((await notify(paymentId)).data).toMatchObject({ status: "PENDING", applied: "none" })
    expect((await adminOrder(api, shop, order.id)).payment_status).toBe("awaiting")

    await payInFull(paymentId, "USDT_BEP20")
    expect((await notify(paymentId)).data).toMatchObject({ status: "COMPLETED", applied: "capture" })
    expect((await adminOrder(api, shop, order.id)).payment_status).toBe("captured")
    await release()
  })

  it("spends no service read on 40 anonymous requests for payment ids the shop never created", async () => {
    const release = await holdReconciliation()
    const cart = await createCryptoCart(api, shop)
    const { session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
    await sandbox.control().clearRequests()
    const unknown = Array.from({ length: 20 }, (_, i) => `pay_${String(i).padStart(24, "0")}`)
    const base = `http://localhost:${process.env.PORT}`
    const answers = await Promise.all([
      ...unknown.map((paymentId) =>
        axios.post(
          `${base}/hooks/payment/crypto_crypto`,
          { paymentId, orderId: session.id },
          { validateStatus: () => true }
        )
      ),
      ...unknown.slice(0, 10).map((paymentId) =>
        axios.get(`${base}/store/crypto/payments/${paymentId}`, {
          ...shop.store.storeHeaders,
          validateStatus: () => true,
        })
      ),
      ...unknown
        .slice(10)
        .map((paymentId) =>
          axios.post(
            `${base}/hooks/crypto/${session.id}.forged${paymentId}`,
            { paymentId },
            { validateStatus: () => true }
          )
        ),
    ])
    expect(answers.map((a) => a.status).sort()).toEqual(
      [...Array(20).fill(200), ...Array(10).fill(401), ...Array(10).fill(404)].sort()
    )
    // Medusa handles the core route's notices 5 s later, in the order they came: one for a payment
    // of the shop, sent after them, marks the moment they have been handled
    await axios.post(`${base}/hooks/payment/crypto_crypto`, { paymentId: session.data.paymentId })
    await waitFor(
      async () => debugs,
      (lines) => lines.some((l) => l.includes(`notification for ${session.data.paymentId}`)),
      { what: "the core route's notices to be handled" }
    )
    expect(await sandbox.control().requests("/status")).toHaveLength(0)
    // the payment of the shop was only queued for the next tick
    expect(new Date((await row(session.data.paymentId)).next_check_at!).getTime()).toBeLessThanOrEqual(Date.now())
    await release()
  })

  it("reads exactly the budget per tick from 10,000 open payments, through the due index", async () => {
    const release = await holdReconciliation()
    const db = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    await db.raw(`insert into crypto_payment (id, payment_id, session_id, kind, base_amount, base_currency, next_check_at, watch_until)
        select 'cryptopay_bulk' || n, 'pay_bulk' || lpad(n::text, 20, '0'), 'payses_bulk' || n, 'invoice', '25.00', 'USD',
               now() - (n || ' seconds')::interval, now() + interval '1 day'
        from generate_series(1, 10000) as n`)
    await db.raw("analyze crypto_payment")
    const plan = (
      await db.raw(
        `explain select * from crypto_payment where deleted_at is null and settled = false and next_check_at <= now() order by next_check_at asc limit ${BUDGET}`
      )
    ).rows
      .map((r: { "QUERY PLAN": string }) => r["QUERY PLAN"])
      .join("\n")
    expect(plan).toMatch(/Index Scan using "?IDX_crypto_payment_settled_next_check_at"?/)

    // the first tick of a process learns the budget from the provider's first answer
    await runDuePayments(getContainer())
    await sandbox.control().clearRequests()
    const report = await runDuePayments(getContainer())
    expect(report).toMatchObject({ loaded: BUDGET, checked: BUDGET })
    const reads = await sandbox.control().requests("/status")
    expect(reads).toHaveLength(BUDGET)
    // oldest due first: the rows inserted furthest in the past
    expect(reads[0].path).toBe(`/v1/invoice/pay_bulk${String(10000 - BUDGET).padStart(20, "0")}/status`)
    // a payment the service does not know is flagged and read again later, not every tick
    const missing = await row(`pay_bulk${String(10000).padStart(20, "0")}`)
    expect(missing).toMatchObject({ needs_attention: true, settled: false })
    expect(new Date(missing.next_check_at!).getTime()).toBeGreaterThan(Date.now())
    await db.raw("delete from crypto_payment where id like 'cryptopay_bulk%'")
    await release()
  })
}
