import type { CryptoSuite } from "../../helpers/runner"
import type { SandboxHandle } from "../../helpers/sandbox"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import {
  addCryptoSession,
  addItemByOrderEdit,
  adminOrder,
  completeCart,
  createCryptoCart,
  CryptoStore,
  paidCryptoOrder,
  payInFull,
  startCryptoSession,
} from "../../helpers/checkout"
import { waitFor } from "../../helpers/wait"
import { CRYPTO_PAYMENT_MODULE, CryptoPaymentModuleService } from "../../../src/modules/crypto-payment"
import { holdReconciliationInEachTest, notifyFromService } from "../../helpers/reconciliation"
import { CryptoPaymentEvents, CRYPTO_PAYMENT_EVENT_NAMES, type CryptoPaymentEventData } from "../../../src/events"
import { ledgerRowOf } from "../../helpers/ledger"

type Received = { name: string; data: CryptoPaymentEventData }

/**
 * Issue 35: crypto_payment.* events on Medusa's event bus (one outbox row per transition, a shop's
 * subscriber receives each) and the customer's emails through Medusa's Notification Module (the test
 * store's local provider serves "email"), at most once per payment and kind.
 */
export function customerEventsTests(
  { api, getContainer }: CryptoSuite,
  sandbox: SandboxHandle,
  fileShop: () => CryptoStore
) {
  let shop: CryptoStore
  holdReconciliationInEachTest(getContainer)
  /** What a shop's own subscriber received, in order. */
  const received: Received[] = []
  let subscribed = false

  beforeEach(async () => {
    shop = fileShop()
    await sandbox.control().setWebhooks({ enabled: false })
    if (!subscribed) {
      const bus = getContainer().resolve(Modules.EVENT_BUS)
      for (const name of CRYPTO_PAYMENT_EVENT_NAMES)
        bus.subscribe(name, async (event: unknown) => {
          received.push(event as Received)
        })
      subscribed = true
    }
  })

  const cryptoPayment = (): CryptoPaymentModuleService => getContainer().resolve(CRYPTO_PAYMENT_MODULE)
  const notify = (paymentId: string) => notifyFromService(sandbox.control(), paymentId)
  /** The outbox of a payment: event names in the order recorded. */
  const outbox = async (paymentId: string) => (await cryptoPayment().outbox.of([paymentId])).map((e) => e.name)
  const receivedFor = (paymentId: string) => received.filter((e) => e.data.payment_id === paymentId)
  /** Waits until the shop's subscriber received `names` (each once) for the payment. */
  const waitForEvents = (paymentId: string, names: string[]) =>
    waitFor(
      async () => receivedFor(paymentId).map((e) => e.name),
      (got) => names.every((n) => got.includes(n)),
      { what: `the events ${names.join(", ")} of ${paymentId}` }
    )
  const emailsTo = async (email: string) =>
    getContainer()
      .resolve(Modules.NOTIFICATION)
      .listNotifications({ to: email }, { order: { created_at: "ASC" } })
  const waitForEmails = (email: string, templates: string[]) =>
    waitFor(
      () => emailsTo(email),
      (got) => templates.every((t) => got.some((n: { template: string }) => n.template === t)),
      { what: `the emails ${templates.join(", ")} to ${email}` }
    )
  const templatesOf = async (email: string) => (await emailsTo(email)).map((n: { template: string }) => n.template)

  /** A BTC checkout placed awaiting payment; the order's email is made unique to the test. */
  async function placedOrder(coin = "BTC") {
    const cart = await createCryptoCart(api, shop)
    const email = `buyer-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`
    await api.post(`/store/carts/${cart.id}`, { email }, shop.store.storeHeaders)
    const { session } = await startCryptoSession(api, shop, cart.id, { currency: coin })
    const { order } = await completeCart(api, shop, cart.id)
    return { order, email, paymentId: session.data.paymentId as string }
  }

  it("paid: created, detected, paid once each (duplicate webhooks too); link, detected and paid emails in the order's locale", async () => {
    const { order, email, paymentId } = await placedOrder()
    expect(order.status).toBe("pending")
    await getContainer().resolve(Modules.ORDER).updateOrders(order.id, { locale: "fr-FR" })

    await sandbox.control().pay(paymentId)
    expect((await notify(paymentId)).status).toBe(200)
    await sandbox.control().confirm(paymentId)
    const answers = await Promise.all([notify(paymentId), notify(paymentId), notify(paymentId)])
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200])
    await notify(paymentId)

    expect(await outbox(paymentId)).toEqual([
      CryptoPaymentEvents.CREATED,
      CryptoPaymentEvents.DETECTED,
      CryptoPaymentEvents.PAID,
    ])
    await waitForEvents(paymentId, [
      CryptoPaymentEvents.CREATED,
      CryptoPaymentEvents.DETECTED,
      CryptoPaymentEvents.PAID,
    ])
    const paid = receivedFor(paymentId).filter((e) => e.name === CryptoPaymentEvents.PAID)
    expect(paid).toHaveLength(1)
    expect(paid[0].data).toEqual({
      id: (await ledgerRowOf(getContainer(), paymentId)).id,
      payment_id: paymentId,
      payment_collection_id: expect.stringMatching(/^pay_col_/),
      order_id: order.id,
      event_key: `${paymentId}:paid`,
    })

    // a subscriber reads the rest through the read-only links
    const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
    const { data: linked } = await query.graph({
      entity: "crypto_payment",
      fields: ["payment_id", "order.id", "order.email", "payment_collection.id", "payment_collection.amount"],
      filters: { id: paid[0].data.id },
    })
    expect(linked[0]).toMatchObject({
      payment_id: paymentId,
      order: { id: order.id, email },
      payment_collection: { id: paid[0].data.payment_collection_id },
    })

    const emails = await waitForEmails(email, ["crypto-payment-link", "crypto-payment-detected", "crypto-payment-paid"])
    expect(emails.map((n: { template: string }) => n.template)).toEqual([
      "crypto-payment-link",
      "crypto-payment-detected",
      "crypto-payment-paid",
    ])
    const [link, detected, paidEmail] = emails
    expect(link).toMatchObject({ channel: "email", to: email, resource_type: "crypto_payment" })
    expect(link.data).toMatchObject({
      kind: "link",
      order_id: order.id,
      payment_id: paymentId,
      coin: "BTC",
      coin_amount: expect.stringMatching(/^0\.\d+$/),
      store_amount: "25.00",
      store_currency: "USD",
      invoice_url: expect.stringMatching(/^http/),
      expires_at: expect.any(String),
      order_url: `http://localhost:8000/order/${order.id}/confirmed`,
    })
    // the order's locale arrived after the link was sent: the later emails are in French
    // the email tells the payment as it stands when its event goes out (delivery runs a moment after the
    // webhook's answer): here the confirmations may have arrived by then
    expect(detected.data).toMatchObject({ kind: "detected", locale: "fr", confirmations: expect.any(Number) })
    expect(paidEmail.data).toMatchObject({ kind: "paid", locale: "fr", received_amount: link.data!.coin_amount })
    const text = JSON.stringify(emails)
    expect(text).not.toContain("integration_sandbox_key")
    expect(text).not.toContain("/hooks/crypto/")

    // the admin's view lists the events and the emails
    const view = (await api.get(`/admin/crypto/payments/${paymentId}`, shop.admin)).data.payment
    expect(view.events.map((e: { name: string }) => e.name)).toEqual([
      CryptoPaymentEvents.CREATED,
      CryptoPaymentEvents.DETECTED,
      CryptoPaymentEvents.PAID,
    ])
    expect(view.emails).toEqual([
      expect.objectContaining({ kind: "link", status: "sent", to: email }),
      expect.objectContaining({ kind: "detected", status: "sent" }),
      expect.objectContaining({ kind: "paid", status: "sent" }),
    ])
  })

  it("expired: the checkout order is canceled, one expired event, the email says start again", async () => {
    const { order, email, paymentId } = await placedOrder()
    await sandbox.control().expire(paymentId)
    expect((await notify(paymentId)).data).toMatchObject({ applied: "cancel_order" })
    await notify(paymentId)
    expect(await outbox(paymentId)).toEqual([CryptoPaymentEvents.CREATED, CryptoPaymentEvents.EXPIRED])
    await waitForEvents(paymentId, [CryptoPaymentEvents.EXPIRED])
    const [, expired] = await waitForEmails(email, ["crypto-payment-link", "crypto-payment-expired"])
    expect(expired.data).toMatchObject({
      kind: "expired",
      order_id: order.id,
      order_canceled: true,
      start_again_url: "http://localhost:8000/",
      payment_link_url: null,
    })
  })

  it("paid late: paid_late, refund_owed and needs_attention; no paid email", async () => {
    const { email, paymentId } = await placedOrder()
    await sandbox.control().expire(paymentId)
    await notify(paymentId)
    await payInFull(sandbox.control(), paymentId)
    expect((await notify(paymentId)).status).toBe(200)
    await notify(paymentId)
    const names = await outbox(paymentId)
    expect(names).toEqual(
      expect.arrayContaining([
        CryptoPaymentEvents.CREATED,
        CryptoPaymentEvents.EXPIRED,
        CryptoPaymentEvents.PAID_LATE,
        CryptoPaymentEvents.REFUND_OWED,
        CryptoPaymentEvents.NEEDS_ATTENTION,
      ])
    )
    expect(names).not.toContain(CryptoPaymentEvents.PAID)
    expect(new Set(names).size).toBe(names.length)
    await waitForEvents(paymentId, [CryptoPaymentEvents.PAID_LATE, CryptoPaymentEvents.REFUND_OWED])
    await waitForEmails(email, ["crypto-payment-expired"])
    expect(await templatesOf(email)).not.toContain("crypto-payment-paid")
  })

  it("a remainder: underpaid, the session closed (a new payment link), the remainder's email, then paid", async () => {
    const { order, paymentId: first } = await paidCryptoOrder(api, shop, sandbox.control())
    const email = `edit-${Date.now()}@example.com`
    await getContainer().resolve(Modules.ORDER).updateOrders(order.id, { email })
    await addItemByOrderEdit(api, shop, order.id)
    const outstanding = (await adminOrder(api, shop, order.id)).payment_collections.find(
      (c: { status: string }) => c.status === "not_paid"
    )
    const short = (await addCryptoSession(api, shop, outstanding.id, { currency: "BTC" })).data.paymentId
    await sandbox.control().pay(short, { mode: "partial" })
    await sandbox.control().confirm(short)
    await sandbox.control().expire(short)
    expect((await notify(short)).data).toMatchObject({ applied: "cancel_session" })
    // the short coins are owed back once the session closed: their refund link goes out too
    const expired = (await waitForEmails(email, ["crypto-payment-expired", "crypto-refund-address"])).find(
      (n: { template: string }) => n.template === "crypto-payment-expired"
    )!
    expect(expired.data).toMatchObject({
      order_canceled: false,
      payment_link_url: `http://localhost:8000/payment-collection/${outstanding.id}?order_id=${order.id}`,
    })

    const asked = (await api.post(`/admin/crypto/payments/${short}/remainder`, {}, shop.admin)).data.payment
    const emails = await waitForEmails(email, ["crypto-payment-remainder"])
    const remainder = emails.find((n: { template: string }) => n.template === "crypto-payment-remainder")
    expect(remainder!.data).toMatchObject({
      kind: "remainder",
      payment_id: asked.id,
      coin: "BTC",
      order_id: order.id,
    })
    await payInFull(sandbox.control(), asked.id)
    expect((await notify(asked.id)).data).toMatchObject({ applied: "capture" })

    expect(await outbox(short)).toEqual(
      expect.arrayContaining([CryptoPaymentEvents.CREATED, CryptoPaymentEvents.UNDERPAID, CryptoPaymentEvents.EXPIRED])
    )
    expect(await outbox(asked.id)).toEqual([CryptoPaymentEvents.CREATED, CryptoPaymentEvents.PAID])
    await waitForEvents(asked.id, [CryptoPaymentEvents.CREATED, CryptoPaymentEvents.PAID])
    await waitForEmails(email, ["crypto-payment-paid"])
    // the first checkout's payment is untouched by the edit's emails
    expect(await outbox(first)).toEqual([CryptoPaymentEvents.CREATED, CryptoPaymentEvents.PAID])
  })

  it("refunded: one refund_owed per refund Medusa records", async () => {
    const { order, paymentId } = await paidCryptoOrder(api, shop, sandbox.control())
    const payment = (await adminOrder(api, shop, order.id)).payment_collections[0].payments[0]
    await api.post(`/admin/payments/${payment.id}/refund`, { amount: 10 }, shop.admin)
    await api.post(`/admin/payments/${payment.id}/refund`, { amount: 5 }, shop.admin)
    const names = await outbox(paymentId)
    expect(names.filter((n) => n === CryptoPaymentEvents.REFUND_OWED)).toHaveLength(2)
    await waitFor(
      async () => receivedFor(paymentId).filter((e) => e.name === CryptoPaymentEvents.REFUND_OWED).length,
      (n) => n === 2,
      { what: "two refund_owed events" }
    )
    const keys = receivedFor(paymentId).map((e) => e.data.event_key)
    expect(new Set(keys).size).toBe(keys.length)
  })

  it("delivers what a process committed but never delivered (the job's catch-up)", async () => {
    const { paymentId } = await placedOrder()
    const row = await ledgerRowOf(getContainer(), paymentId)
    // a transition committed by a process that died before delivering: written straight to the outbox
    await cryptoPayment().createCryptoPaymentEvents([
      {
        event_key: `${paymentId}:needs_attention:test`,
        name: CryptoPaymentEvents.NEEDS_ATTENTION,
        crypto_payment_id: row.id,
        payment_id: paymentId,
        payment_collection_id: row.payment_collection_id,
      },
    ])
    expect(await cryptoPayment().outbox.deliver()).toBeGreaterThanOrEqual(1)
    await waitForEvents(paymentId, [CryptoPaymentEvents.NEEDS_ATTENTION])
    const delivered = await cryptoPayment().listCryptoPaymentEvents({ payment_id: paymentId })
    expect(delivered.every((e) => e.delivered_at)).toBe(true)
    expect(await cryptoPayment().outbox.deliver()).toBe(0)
  })
}
