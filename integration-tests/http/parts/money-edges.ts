import type { CryptoSuite } from "../../helpers/runner"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import axios from "axios"
import type { SandboxHandle } from "../../helpers/sandbox"
import {
  addItemByOrderEdit as addItemOnOrder,
  paidCryptoOrder,
  placedCryptoOrder,
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
import { reconcileCryptoPaymentWorkflow } from "../../../src/workflows/reconcile-crypto-payment"
import { runDuePayments } from "../../../src/jobs/_due-payments-runner"
import { holdReconciliationInEachTest, notifyFromService, paymentDecidedInEachTest } from "../../helpers/reconciliation"
import { cryptoCore, inLedger } from "../../../src/modules/crypto-payment/core"
import { ledgerRowOf } from "../../helpers/ledger"

/**
 * The job's interval in the file these tests run in (job-every-20s.spec.ts); its ticks are held, so the
 * tests drive the reads, and a kept COMPLETED read answers notifications for 2 s (statusCacheSeconds).
 */
export const INTERVAL_SECONDS = 20

/**
 * The money around an order after checkout (issue 20): order collections, re-priced invoices,
 * owed records, money after capture, hints, stale claims, one lock per order, the verdict.
 */
export function moneyEdgesTests(
  { api, getContainer }: CryptoSuite,
  sandbox: SandboxHandle,
  fileShop: () => CryptoStore
) {
  let shop: CryptoStore
  // what a test wants to happen once a decision is made (the workflow's paymentDecided hook)
  const decided = paymentDecidedInEachTest()
  // the job stays out of the way: each test reads when it means to
  holdReconciliationInEachTest(getContainer)
  let debugs: string[]

  beforeEach(async () => {
    shop = fileShop()
    await sandbox.control().setWebhooks({ enabled: false })
    debugs = []
    const logger = getContainer().resolve(ContainerRegistrationKeys.LOGGER)
    // what the provider logs about hints (debug; info before), whatever the level
    for (const level of ["debug", "info"] as const)
      jest.spyOn(logger, level).mockImplementation((message: string) => {
        debugs.push(message)
      })
  })

  afterEach(async () => {
    jest.restoreAllMocks()
  })

  const cryptoPayment = (): CryptoPaymentModuleService => getContainer().resolve(CRYPTO_PAYMENT_MODULE)
  const row = (paymentId: string) => ledgerRowOf(getContainer(), paymentId)
  const notify = (paymentId: string) => notifyFromService(sandbox.control(), paymentId)
  const payInFull = (paymentId: string, coin?: string) => payAndConfirm(sandbox.control(), paymentId, coin)
  const adminPayment = async (paymentId: string) =>
    (await api.get(`/admin/crypto/payments/${paymentId}`, shop.admin)).data.payment
  const storeStatus = async (paymentId: string) =>
    (await api.get(`/store/crypto/payments/${paymentId}`, shop.store.storeHeaders)).data.payment
  const statusReads = async (paymentId: string) =>
    (await sandbox.control().requests("/status")).filter((r) => r.path.includes(paymentId)).length

  /** An order paid in BTC through the webhook. */
  const paidOrder = () => paidCryptoOrder(api, shop, sandbox.control())
  const addItemByOrderEdit = (orderId: string) => addItemOnOrder(api, shop, orderId)

  describe("a payment on an order collection (order edit)", () => {
    /** A paid order edited to add an item: the order's new collection for the outstanding amount. */
    const editedOrder = async () => {
      const { order } = await paidOrder()
      await addItemByOrderEdit(order.id)
      const edited = await adminOrder(api, shop, order.id)
      const outstanding = edited.payment_collections.find((c: { status: string }) => c.status === "not_paid")
      expect(outstanding).toBeDefined()
      return { order, outstanding }
    }
    /** The order's payments: captures per collection. */
    const capturesOf = async (orderId: string) =>
      Object.fromEntries(
        (await adminOrder(api, shop, orderId)).payment_collections.map(
          (c: { id: string; payments: Array<{ captures?: unknown[] }> }) => [
            c.id,
            c.payments.reduce((n, p) => n + (p.captures?.length ?? 0), 0),
          ]
        )
      )

    it.each(["webhook", "the job alone"])(
      "is in the ledger with its order from the start, and paid by %s captures that collection only",
      async (path) => {
        const { order, outstanding } = await editedOrder()
        const checkoutId = (await adminOrder(api, shop, order.id)).payment_collections.find(
          (c: { id: string }) => c.id !== outstanding.id
        ).id
        const session = await addCryptoSession(api, shop, outstanding.id, { currency: "BTC" })
        const paymentId = session.data.paymentId
        expect(await row(paymentId)).toMatchObject({ order_id: order.id, payment_collection_id: outstanding.id })
        await payInFull(paymentId)
        if (path === "webhook") {
          expect((await notify(paymentId)).data).toMatchObject({ applied: "capture" })
        } else {
          await cryptoPayment().updateCryptoPayments({
            id: (await row(paymentId)).id,
            next_check_at: new Date(Date.now() - 1000),
          })
          await runDuePayments(getContainer())
        }
        expect(await row(paymentId)).toMatchObject({ applied: "capture", settled: true, order_id: order.id })
        expect(await capturesOf(order.id)).toEqual({ [checkoutId]: 1, [outstanding.id]: 1 })
        expect((await adminOrder(api, shop, order.id)).payment_status).toBe("captured")
      }
    )

    it("keeps the checkout's records for it: money beyond the amount and money after expiry are owed, the order untouched", async () => {
      const { order, outstanding } = await editedOrder()
      const over = (await addCryptoSession(api, shop, outstanding.id, { currency: "BTC" })).data.paymentId
      await sandbox.control().pay(over, { mode: "over" })
      await sandbox.control().confirm(over)
      expect((await notify(over)).data).toMatchObject({ applied: "capture" })
      const overpaid = await adminPayment(over)
      expect(overpaid.flags).toEqual(expect.arrayContaining(["overpaid", "refund_owed"]))
      expect(overpaid.refund.records).toEqual([expect.objectContaining({ kind: "excess" })])

      // a second edit, its payment expires (session closed), then is paid late
      await addItemByOrderEdit(order.id)
      const second = (await adminOrder(api, shop, order.id)).payment_collections.find(
        (c: { status: string }) => c.status === "not_paid"
      )
      const late = (await addCryptoSession(api, shop, second.id, { currency: "BTC" })).data.paymentId
      await sandbox.control().expire(late)
      expect((await notify(late)).data).toMatchObject({ applied: "cancel_session" })
      await payInFull(late)
      expect((await notify(late)).status).toBe(200)
      const flagged = await adminPayment(late)
      expect(flagged.flags).toEqual(expect.arrayContaining(["paid_late", "needs_attention", "refund_owed"]))
      expect(flagged.refund.records).toEqual([expect.objectContaining({ kind: "late" })])
      expect((await adminOrder(api, shop, order.id)).status).not.toBe("canceled")
    })

    it("completes a short payment with its remainder: the collection is captured in full, nothing owed back", async () => {
      const { order, outstanding } = await editedOrder()
      const session = await addCryptoSession(api, shop, outstanding.id, { currency: "BTC" })
      const short = session.data.paymentId
      await sandbox.control().pay(short, { mode: "partial" })
      await sandbox.control().confirm(short)
      await sandbox.control().expire(short)
      expect((await notify(short)).data).toMatchObject({ status: "EXPIRED", applied: "cancel_session" })
      const first = await adminPayment(short)
      expect(first.flags).toContain("underpaid")

      const asked = (await api.post(`/admin/crypto/payments/${short}/remainder`, {}, shop.admin)).data.payment
      const missing = (
        BigInt(first.amount_required.replace(".", "")) - BigInt(first.amount_received.replace(".", ""))
      ).toString()
      expect(asked).toMatchObject({ kind: "payment", coin: "BTC", status: "PENDING", session_id: session.id })
      expect(asked.amount_required.replace(".", "").replace(/^0+/, "")).toBe(missing)
      expect(asked.address).toBeTruthy()
      // asked again while it is open: the same remainder
      expect((await api.post(`/admin/crypto/payments/${short}/remainder`, {}, shop.admin)).data.payment.id).toBe(
        asked.id
      )
      // the session is open again, showing the remainder
      const reopened = (await adminOrder(api, shop, order.id)).payment_collections
        .find((c: { id: string }) => c.id === outstanding.id)
        .payment_sessions.find((s: { id: string }) => s.id === session.id)
      expect(reopened).toMatchObject({ status: "pending", data: { paymentId: asked.id } })

      await payInFull(asked.id)
      expect((await notify(asked.id)).data).toMatchObject({ applied: "capture" })
      expect(await capturesOf(order.id)).toMatchObject({ [outstanding.id]: 1 })
      expect((await adminOrder(api, shop, order.id)).payment_status).toBe("captured")
      expect(await row(short)).toMatchObject({ needs_attention: false, settled: true })
      expect((await adminPayment(short)).refund.records).toEqual([])
      const again = await api
        .post(`/admin/crypto/payments/${short}/remainder`, {}, shop.admin)
        .catch((e: { response: { status: number } }) => e.response)
      expect(again.status).toBe(400)
    })

    it("closes only its own session when it expires unpaid: the paid order is neither canceled nor refunded", async () => {
      const { order, outstanding } = await editedOrder()

      // the customer opens the payment link: a crypto session on the order's new collection
      const session = await addCryptoSession(api, shop, outstanding.id, { currency: "BTC" })
      const paymentId = session.data.paymentId
      expect(session.data.amount).toBeGreaterThan(0)
      await sandbox.control().expire(paymentId)
      expect((await notify(paymentId)).data).toMatchObject({ status: "EXPIRED", applied: "cancel_session" })

      const after = await adminOrder(api, shop, order.id)
      expect(after.status).not.toBe("canceled")
      expect(["refunded", "partially_refunded", "canceled"]).not.toContain(after.payment_status)
      const checkout = after.payment_collections.find((c: { id: string }) => c.id !== outstanding.id)
      expect(checkout.payments[0].captures).toHaveLength(1)
      expect(checkout.payments[0].canceled_at ?? null).toBeNull()
      expect(await row(paymentId)).toMatchObject({ applied: "cancel_session", order_id: order.id })
      const closed = after.payment_collections
        .find((c: { id: string }) => c.id === outstanding.id)
        .payment_sessions.find((s: { id: string }) => s.id === session.id)
      expect(closed.status).toBe("canceled")
    })
  })

  describe("an order edited while it awaits its crypto payment", () => {
    it("gets a new invoice for the new amount; the old one stays watched and paying the new one captures in full", async () => {
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
      const { order } = await completeCart(api, shop, cart.id)
      const old: string = session.data.paymentId
      await addItemByOrderEdit(order.id)
      // the plugin's subscriber gives the session a new invoice for the collection's new amount
      const renewed = await waitFor(
        async () =>
          (await adminOrder(api, shop, order.id)).payment_collections[0].payment_sessions.find(
            (s: { id: string }) => s.id === session.id
          ),
        (s) => !!s && s.data.paymentId !== old,
        { timeoutMs: 30_000, what: "the session's new invoice" }
      )
      expect(renewed.amount).toBe(50)
      expect(await row(renewed.data.paymentId)).toMatchObject({
        base_amount: "50.00",
        session_id: session.id,
        order_id: order.id,
      })
      expect(await row(old)).toMatchObject({ base_amount: "25.00", settled: false })

      await payInFull(renewed.data.paymentId)
      expect((await notify(renewed.data.paymentId)).data).toMatchObject({ applied: "capture" })
      const paid = await adminOrder(api, shop, order.id)
      expect(paid.payment_status).toBe("captured")
      expect(paid.payment_collections[0].payments[0].captures).toHaveLength(1)
      expect(Number(paid.payment_collections[0].payments[0].amount)).toBe(50)
    })
  })

  describe("re-priced invoices", () => {
    it.each([
      // the sandbox rounds the re-priced amount up to the coin's precision: a hair less than the percent
      ["5 % cheaper", -5, true, /^-(5\.00|4\.99)$/],
      ["1 % dearer (within the alert)", 1, false, /^1\.0\d$/],
    ])(
      "captures an invoice the service re-priced %s at coin choice, and records the drift",
      async (_, percent, flagged, shown) => {
        const cart = await createCryptoCart(api, shop)
        const { session } = await startCryptoSession(api, shop, cart.id)
        const { order } = await completeCart(api, shop, cart.id)
        const paymentId = session.data.paymentId
        await sandbox.control().reprice(paymentId, percent)
        await payInFull(paymentId, "BTC")
        expect((await notify(paymentId)).data).toMatchObject({ status: "COMPLETED", applied: "capture" })
        expect((await adminOrder(api, shop, order.id)).payment_status).toBe("captured")
        const payment = await adminPayment(paymentId)
        expect(payment.quote_drift).toMatchObject({ coin: "BTC", percent: expect.stringMatching(shown) })
        expect(payment.flags.includes("quote_drift")).toBe(flagged)
        expect(payment.flags).not.toContain("needs_attention")
        expect(payment.flags).not.toContain("mismatch")
      }
    )
  })

  describe("money owed to the customer, one record per owed amount", () => {
    it("asks the admin to send only what is owed now: a second refund after the first was sent is not added to it", async () => {
      const { order, paymentId } = await paidOrder()
      const medusaPayment = (await adminOrder(api, shop, order.id)).payment_collections[0].payments[0]
      const { data: reasons } = await api.post(
        "/admin/refund-reasons",
        { label: "Damaged", code: "damaged" },
        shop.admin
      )
      await api.post(
        `/admin/payments/${medusaPayment.id}/refund`,
        { amount: 10, refund_reason_id: reasons.refund_reason.id, note: "box crushed" },
        shop.admin
      )
      const first = await adminPayment(paymentId)
      const coinsOf = (base: number) =>
        ((BigInt(first.amount_required.replace(".", "")) * BigInt(base * 100)) / 2500n).toString()
      expect(first.refund).toMatchObject({ owed: true, owed_now_base: "10.00" })
      expect(first.refund.owed_now.replace(".", "").replace(/^0+/, "")).toBe(coinsOf(10))
      expect(first.refund.records).toEqual([
        expect.objectContaining({ kind: "refund", base_amount: "10.00", reason: "Damaged", note: "box crushed" }),
      ])
      const [record] = first.refund.records
      await api.post(
        `/admin/crypto/payments/${paymentId}/refund-sent`,
        { owed: [{ id: record.id, coin_amount: record.coin_amount }], reference: "0xfirst" },
        shop.admin
      )

      await api.post(`/admin/payments/${medusaPayment.id}/refund`, { amount: 5 }, shop.admin)
      const second = await adminPayment(paymentId)
      expect(second.refund).toMatchObject({ owed: true, owed_now_base: "5.00" })
      // priced cumulatively: the coins for 15.00 refunded in all, less the 10.00's (never a unit lost a part)
      expect(second.refund.owed_now.replace(".", "").replace(/^0+/, "")).toBe(
        (BigInt(coinsOf(15)) - BigInt(coinsOf(10))).toString()
      )
      expect(
        second.refund.records.map((r: { sent_at: string | null; reference: string | null }) => r.reference)
      ).toEqual(["0xfirst", null])
    })

    it("keeps both of two refunds made at once", async () => {
      const { order, paymentId } = await paidOrder()
      const medusaPayment = (await adminOrder(api, shop, order.id)).payment_collections[0].payments[0]
      // Medusa may answer one of them with an error of its own (the order's version) after it made the refund
      await Promise.allSettled([
        api.post(`/admin/payments/${medusaPayment.id}/refund`, { amount: 3 }, shop.admin),
        api.post(`/admin/payments/${medusaPayment.id}/refund`, { amount: 4 }, shop.admin),
      ])
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data: refunds } = await query.graph({
        entity: "refund",
        fields: ["id", "amount"],
        filters: { payment_id: medusaPayment.id },
      })
      expect(refunds).toHaveLength(2)
      // every refund Medusa made is owed on its own; none overwrote the other
      const payment = await adminPayment(paymentId)
      expect(payment.refund.records.map((r: { refund_id: string }) => r.refund_id).sort()).toEqual(
        refunds.map((r: { id: string }) => r.id).sort()
      )
      expect(payment.refund.records.map((r: { base_amount: string }) => r.base_amount).sort()).toEqual(["3.00", "4.00"])
      expect(payment.refund.owed_now_base).toBe("7.00")
    })
  })

  describe("money after capture", () => {
    it("sees a second payment to a captured invoice's address, by webhook after statusCacheSeconds, and owes the excess", async () => {
      const { paymentId } = await paidOrder()
      const required = (await row(paymentId)).required_amount!
      await sandbox.control().pay(paymentId, { amount: required })
      // the kept COMPLETED read answers at once, and the job is asked to read again when it is 2 s old
      const answered = await notify(paymentId)
      expect(answered.status).toBe(200)
      const scheduled = await row(paymentId)
      expect(scheduled.settled).toBe(true)
      expect(new Date(scheduled.next_check_at!).getTime()).toBeLessThanOrEqual(Date.now() + 2_000)
      await waitFor(
        async () => notify(paymentId).then(() => adminPayment(paymentId)),
        (p) => p.refund.records.length > 0,
        { timeoutMs: 20_000, intervalMs: 1_000, what: "the second payment to be seen" }
      )
      const payment = await adminPayment(paymentId)
      expect(payment.flags).toContain("overpaid")
      expect(payment.refund).toMatchObject({ owed: true, owed_now: required, owed_now_base: "25.00" })
      expect(payment.refund.records).toEqual([expect.objectContaining({ kind: "excess", coin_amount: required })])
      // a repeated read records nothing twice
      await notify(paymentId)
      expect((await adminPayment(paymentId)).refund.records).toHaveLength(1)
    })

    it("reads a settled payment again by the job's schedule, at the lowest priority, and owes money sent after", async () => {
      const { paymentId } = await paidOrder()
      const settledRow = await row(paymentId)
      expect(settledRow).toMatchObject({ settled: true })
      // watched through its window, at least ten intervals later
      expect(new Date(settledRow.next_check_at!).getTime()).toBeGreaterThanOrEqual(
        Date.now() + (10 * INTERVAL_SECONDS - 5) * 1000
      )
      await sandbox.control().pay(paymentId, { amount: "0.0001" })
      await cryptoPayment().updateCryptoPayments({ id: settledRow.id, next_check_at: new Date(Date.now() - 1000) })
      const report = await runDuePayments(getContainer())
      expect(report.checked).toBeGreaterThanOrEqual(1)
      const payment = await adminPayment(paymentId)
      expect(payment.refund.records).toEqual([expect.objectContaining({ kind: "excess", coin_amount: "0.00010000" })])
    })

    it("owes what an older, dearer payment paid beyond the cheaper cart it was captured for", async () => {
      const cart = await createCryptoCart(api, shop, 2)
      const { collectionId, session: dear } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
      const lineId = (await api.get(`/store/carts/${cart.id}`, shop.store.storeHeaders)).data.cart.items[0].id
      await api.post(`/store/carts/${cart.id}/line-items/${lineId}`, { quantity: 1 }, shop.store.storeHeaders)
      await addCryptoSession(api, shop, collectionId, { currency: "BTC" })
      const { order } = await completeCart(api, shop, cart.id)

      // the customer pays the $50 payment for what is now a $25 order
      await payInFull(dear.data.paymentId)
      expect((await notify(dear.data.paymentId)).data).toMatchObject({ applied: "capture" })
      expect((await adminOrder(api, shop, order.id)).payment_status).toBe("captured")
      const payment = await adminPayment(dear.data.paymentId)
      expect(payment.base_amount).toBe("50.00")
      expect(payment.flags).toEqual(expect.arrayContaining(["overpaid", "replaced_session", "refund_owed"]))
      // half the coins, worth $25 (a cent less when the coins do not halve exactly)
      expect(payment.refund.records).toEqual([
        expect.objectContaining({ kind: "excess", base_amount: expect.stringMatching(/^(25\.00|24\.99)$/) }),
      ])
    })
  })

  describe("hints on Medusa's /hooks/payment route", () => {
    it("never read a payment sooner than a reconcile interval after its last read, however many arrive", async () => {
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
      const paymentId = session.data.paymentId
      await sandbox.control().clearRequests()
      const base = `http://localhost:${process.env.PORT}`
      const flood = async (wave: number) => {
        await Promise.all(
          Array.from({ length: 15 }, () =>
            axios.post(`${base}/hooks/payment/crypto_crypto`, { paymentId }, { validateStatus: () => true })
          )
        )
        // Medusa hands the core route's notices over 5 s later
        await waitFor(
          async () => debugs.filter((l) => l.includes(`notification for ${paymentId}`)).length,
          (n) => n >= 15 * wave,
          { timeoutMs: 30_000, what: `wave ${wave} of hints to be handled` }
        )
      }
      await flood(1)
      // the payment was never read: the first tick reads it
      await runDuePayments(getContainer())
      expect(await statusReads(paymentId)).toBe(1)
      await flood(2)
      for (let i = 0; i < 3; i++) await runDuePayments(getContainer())
      expect(await statusReads(paymentId)).toBe(1)
      const after = await row(paymentId)
      expect(new Date(after.next_check_at!).getTime()).toBeGreaterThanOrEqual(
        new Date(after.last_checked_at!).getTime() + INTERVAL_SECONDS * 1000
      )
    })

    it("does not let a header with a valid webhook token make Medusa's core capture", async () => {
      const { order, paymentId } = await placedCryptoOrder(api, shop)
      await payInFull(paymentId)
      const token = (await sandbox.control().payment(paymentId)).webhookUrl!.split("/").pop()!
      await sandbox.control().clearRequests()
      const base = `http://localhost:${process.env.PORT}`
      await axios.post(
        `${base}/hooks/payment/crypto_crypto`,
        { paymentId },
        { headers: { "x-crypto-webhook-token": token } }
      )
      // handled 5 s later: as a hint (logged), or, were the header honoured, by core capturing the order
      const handled = await waitFor(
        async () => ({
          hinted: debugs.some((l) => l.includes(`notification for ${paymentId}`)),
          paymentStatus: (await adminOrder(api, shop, order.id)).payment_status,
        }),
        (h) => h.hinted || h.paymentStatus !== "awaiting",
        { timeoutMs: 30_000, what: "the notice to be handled" }
      )
      expect(handled).toEqual({ hinted: true, paymentStatus: "awaiting" })
      expect(await statusReads(paymentId)).toBe(0)
    })
  })

  describe("claims", () => {
    it("releases a claim whose session is gone with nothing captured, and captures", async () => {
      const { order, session, paymentId } = await placedCryptoOrder(api, shop)
      // a capture that failed once for a session the customer has since replaced (Medusa deleted it)
      await cryptoPayment().updateCryptoPayments({
        id: (await row(paymentId)).id,
        capture_session_id: "payses_deleted",
      })
      await payInFull(paymentId)
      expect((await notify(paymentId)).data).toMatchObject({ applied: "capture" })
      expect((await adminOrder(api, shop, order.id)).payment_status).toBe("captured")
      expect(await row(paymentId)).toMatchObject({ capture_session_id: session.id })
    })

    it("flags a payment whose runs fail three times in a row, until one succeeds", async () => {
      const { paymentId } = await placedCryptoOrder(api, shop)
      await payInFull(paymentId)
      decided.handler = async () => {
        throw new Error("injected failure")
      }
      const errors: string[] = []
      jest
        .spyOn(getContainer().resolve(ContainerRegistrationKeys.LOGGER), "error")
        .mockImplementation((message: string | Error) => {
          errors.push(String(message))
        })
      for (let i = 0; i < 3; i++) expect((await notify(paymentId)).status).toBe(503)
      // one line a failed webhook, naming its payment
      expect(errors.filter((line) => line.includes("webhook"))).toEqual([
        expect.stringContaining(`webhook for ${paymentId} not applied, asking for a retry: injected failure`),
        expect.stringContaining(`webhook for ${paymentId} not applied`),
        expect.stringContaining(`webhook for ${paymentId} not applied`),
      ])
      expect(await row(paymentId)).toMatchObject({ needs_attention: true, check_failures: 3 })
      expect((await row(paymentId)).attention).toMatch(/3 attempts .* failed: injected failure/)
      decided.handler = undefined
      expect((await notify(paymentId)).data).toMatchObject({ applied: "capture" })
      expect(await row(paymentId)).toMatchObject({ needs_attention: false, check_failures: 0 })
    })
  })

  describe("one lock per order", () => {
    it("runs a replaced session's payment and the current one of the same cart one after the other", async () => {
      const cart = await createCryptoCart(api, shop)
      const { collectionId, session: first } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
      const second = await addCryptoSession(api, shop, collectionId, { currency: "LTC" })
      await completeCart(api, shop, cart.id)
      const core = await cryptoCore(getContainer())
      const run = async (paymentId: string) => {
        const answer = inLedger(await core.report(paymentId, "fresh"), paymentId)
        return reconcileCryptoPaymentWorkflow(getContainer()).run({
          input: { payment_id: paymentId, assessment: answer.assessment!, policy: answer.policy, source: "test" },
        })
      }
      const events: string[] = []
      let secondRun: Promise<unknown> | undefined
      decided.handler = async ({ payment_id }) => {
        events.push(`decided ${payment_id === first.data.paymentId ? "first" : "second"}`)
        if (payment_id !== first.data.paymentId) return
        // while the first run holds its lock, the second is started and must wait for it
        secondRun = run(second.data.paymentId)
        await waitFor(
          async () => events.length,
          (n) => n > 1,
          { timeoutMs: 3_000, what: "the second run (it should wait)" }
        ).catch(() => undefined)
      }
      await run(first.data.paymentId)
      events.push("first done")
      await secondRun
      expect(events).toEqual(["decided first", "first done", "decided second"])
    })
  })

  describe("the shop's verdict for the customer", () => {
    it("says confirming while the service's COMPLETED is not applied, then paid", async () => {
      const { paymentId } = await placedCryptoOrder(api, shop)
      await payInFull(paymentId)
      // the storefront's shared read may still be the one checkout made: wait for the service's COMPLETED
      const completed = await waitFor(
        () => storeStatus(paymentId),
        (p) => p.status === "COMPLETED",
        { what: "the storefront to see COMPLETED" }
      )
      expect(completed).toMatchObject({ verdict: "confirming", final: false })
      await notify(paymentId)
      await waitFor(
        () => storeStatus(paymentId),
        (p) => p.verdict === "paid",
        { what: "the verdict paid" }
      )
      expect(await storeStatus(paymentId)).toMatchObject({ status: "COMPLETED", verdict: "paid", final: true })
    })

    it("says needs attention, not paid, for money that arrived after the order was canceled", async () => {
      const { paymentId } = await placedCryptoOrder(api, shop)
      await sandbox.control().expire(paymentId)
      expect((await notify(paymentId)).data).toMatchObject({ applied: "cancel_order" })
      await payInFull(paymentId)
      await notify(paymentId)
      await waitFor(
        () => storeStatus(paymentId),
        (p) => p.verdict !== "expired",
        { what: "the late payment to be judged" }
      )
      expect(await storeStatus(paymentId)).toMatchObject({ status: "COMPLETED", verdict: "needs_attention" })
      expect((await adminPayment(paymentId)).refund.records).toEqual([expect.objectContaining({ kind: "late" })])
    })
  })
}
