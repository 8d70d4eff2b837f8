import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { CRYPTO_PAYMENT_MODULE } from "../modules/crypto-payment"
import type CryptoPaymentModuleService from "../modules/crypto-payment/service"
import type { CryptoPaymentRow, CustomerEmails } from "../modules/crypto-payment/service"
import { CryptoPaymentEvents, type CryptoPaymentEventData } from "../lib/domain/payment-events"
import {
  customerEmailData,
  CustomerEmailKind,
  EmailOrder,
  emailKindOfEvent,
  emailLocale,
} from "../lib/domain/customer-email"
import { pluginLog, PluginLog } from "../lib/runtime/log"

/**
 * The customer's emails (opt-in: the plugin's `notifications` option), through Medusa's Notification
 * Module: the payment link when an order is placed awaiting a crypto payment, coins detected, paid,
 * expired, and a remainder the admin requested. Each at most once per payment and kind (the module's
 * sent-record), to the order's email in the order's language. Never the API key, a webhook token or
 * a body from the service: the data holds the ledger's agreed terms and the order's ids only.
 */
export default async function cryptoPaymentEmails({
  event,
  container,
}: SubscriberArgs<CryptoPaymentEventData | { id: string }>) {
  const ledger: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
  const emails = ledger.customerEmails()
  if (!emails) return
  const log = pluginLog(container.resolve(ContainerRegistrationKeys.LOGGER))
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const send = new EmailSend(container, ledger, emails, log)

  if (event.name === "order.placed") {
    const order = await orderOf(query, event.data.id)
    if (!order) return
    // the payment link of the order's crypto payment that still waits for coins
    const [payment] = await ledger.listCryptoPayments(
      { payment_collection_id: order.collections, settled: false, remainder_of: null },
      { order: { created_at: "DESC" }, take: 1 }
    )
    if (payment && payment.status === "PENDING" && payment.outcome === "pending")
      await send.one("link", payment as unknown as CryptoPaymentRow, order, `order.placed:${order.id}`)
    return
  }

  const data = event.data as CryptoPaymentEventData
  const payment = await ledger.retrieveByPaymentId(data.payment_id)
  if (!payment) return
  const kind = emailKindOfEvent(event.name, payment)
  if (!kind) return
  const order = data.order_id ? await orderOf(query, data.order_id) : undefined
  await send.one(kind, payment, order, data.event_key)
}

type Query = {
  graph: (input: { entity: string; fields: string[]; filters: Record<string, unknown> }) => Promise<{ data: unknown[] }>
}
type OrderOfEmail = EmailOrder & { no_notification?: boolean | null; collections: string[] }

async function orderOf(query: Query, orderId: string): Promise<OrderOfEmail | undefined> {
  const { data } = await query.graph({
    entity: "order",
    fields: ["id", "display_id", "email", "locale", "no_notification", "payment_collections.id"],
    filters: { id: orderId },
  })
  const order = data[0] as
    (EmailOrder & { no_notification?: boolean; payment_collections?: Array<{ id: string }> }) | undefined
  if (!order) return undefined
  return { ...order, collections: (order.payment_collections ?? []).map((c) => c.id) }
}

/** One email: skipped with its reason, or claimed in the sent-record, sent, and its outcome recorded. */
class EmailSend {
  constructor(
    private readonly container: SubscriberArgs["container"],
    private readonly ledger: CryptoPaymentModuleService,
    private readonly emails: CustomerEmails,
    private readonly log: PluginLog
  ) {}

  async one(kind: CustomerEmailKind, payment: CryptoPaymentRow, order: OrderOfEmail | undefined, eventKey: string) {
    const { options } = this.emails
    const locale = emailLocale(order?.locale, options.defaultLocale)
    const claim = {
      payment_id: payment.payment_id,
      kind,
      event_key: eventKey,
      order_id: order?.id ?? null,
      template: options.templates[kind],
      channel: options.channel,
      to: order?.email ?? null,
      locale,
    }
    const skipped = !order
      ? "no order yet: the customer's email is the order's"
      : !order.email
        ? "the order has no email"
        : order.no_notification
          ? "the order was placed with no notifications"
          : this.emails.served === false
            ? `no notification provider serves the "${options.channel}" channel`
            : undefined
    if (skipped || !order) {
      await this.ledger.emails.skip(claim, skipped ?? "no order")
      return
    }
    const claimed = await this.ledger.emails.claim(claim)
    if (!claimed) return
    const data = customerEmailData(kind, payment, order, options, locale)
    try {
      const notifications = this.container.resolve(Modules.NOTIFICATION)
      const [sent] = await notifications.createNotifications([
        {
          to: order.email!,
          channel: options.channel,
          template: options.templates[kind],
          data,
          trigger_type: kind === "link" ? "order.placed" : eventNameOf(kind),
          resource_id: payment.id,
          resource_type: "crypto_payment",
          idempotency_key: `crypto-payment-email:${payment.payment_id}:${kind}`,
        },
      ])
      await this.ledger.emails.finish(claimed, { status: "sent", notificationId: sent?.id })
    } catch (error) {
      const reason = (error as Error)?.message?.slice(0, 300) ?? "unknown error"
      await this.ledger.emails.finish(claimed, { status: "failed", reason })
      this.log.warn(`the ${kind} email of ${payment.payment_id} was not sent: ${reason}`)
    }
  }
}

function eventNameOf(kind: CustomerEmailKind): string {
  switch (kind) {
    case "detected":
      return CryptoPaymentEvents.DETECTED
    case "paid":
      return CryptoPaymentEvents.PAID
    case "expired":
      return CryptoPaymentEvents.EXPIRED
    default:
      return CryptoPaymentEvents.CREATED
  }
}

export const config: SubscriberConfig = {
  event: [
    "order.placed",
    CryptoPaymentEvents.CREATED,
    CryptoPaymentEvents.DETECTED,
    CryptoPaymentEvents.PAID,
    CryptoPaymentEvents.EXPIRED,
  ],
  context: { subscriberId: "medusa-payment-crypto-emails" },
}
