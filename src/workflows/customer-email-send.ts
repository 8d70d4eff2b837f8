import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { CRYPTO_PAYMENT_MODULE } from "../modules/crypto-payment"
import type CryptoPaymentModuleService from "../modules/crypto-payment/service"
import type { CustomerEmails } from "../modules/crypto-payment/service"
import type { LedgerRow } from "../modules/crypto-payment/ledger"
import {
  customerEmailData,
  CustomerEmailKind,
  EMAIL_TRIGGERS,
  EmailOrder,
  emailLocale,
  RefundEmailData,
} from "../lib/domain/customer-email"
import { pluginLog, PluginLog } from "../lib/runtime/log"

/**
 * Sends one customer email through Medusa's Notification Module, at most once per payment and record
 * key, or records why it was not sent. Off (undefined) without the plugin's `notifications` option.
 */

export type OrderOfEmail = EmailOrder & { no_notification?: boolean | null }

/** What an email needs of its order: one read of the order alone, no link followed. */
export async function orderOf(container: MedusaContainer, orderId: string): Promise<OrderOfEmail | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: ["id", "display_id", "email", "locale", "no_notification"],
    filters: { id: orderId },
  })
  return data[0] as OrderOfEmail | undefined
}

/** The order a payment belongs to: its own order_id, else the order its payment collection is linked to. */
export async function orderOfPayment(
  container: MedusaContainer,
  payment: Pick<LedgerRow, "order_id" | "payment_collection_id">
): Promise<OrderOfEmail | undefined> {
  let orderId = payment.order_id
  if (!orderId && payment.payment_collection_id) {
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const { data } = await query.graph({
      entity: "order_payment_collection",
      fields: ["order_id"],
      filters: { payment_collection_id: payment.payment_collection_id },
    })
    orderId = (data[0] as { order_id?: string } | undefined)?.order_id ?? null
  }
  return orderId ? orderOf(container, orderId) : undefined
}

export type EmailToSend = {
  kind: CustomerEmailKind
  payment: LedgerRow
  order: OrderOfEmail | undefined
  eventKey: string
  /** The sent-record's key when a kind is sent more than once per payment (one per owed record, per address given). */
  recordKey?: string
  refund?: RefundEmailData
}

/** The customer emails as the module's options set them, or undefined when they are off. */
export function customerEmailSender(container: MedusaContainer): CustomerEmailSender | undefined {
  const cryptoPayment: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
  const emails = cryptoPayment.customerEmails()
  if (!emails) return undefined
  return new CustomerEmailSender(
    container,
    cryptoPayment,
    emails,
    pluginLog(container.resolve(ContainerRegistrationKeys.LOGGER))
  )
}

export class CustomerEmailSender {
  constructor(
    private readonly container: MedusaContainer,
    private readonly ledger: CryptoPaymentModuleService,
    readonly emails: CustomerEmails,
    private readonly log: PluginLog
  ) {}

  /** One email: skipped with its reason, or claimed in the sent-record, sent, and its outcome recorded. */
  async send({ kind, payment, order, eventKey, recordKey, refund }: EmailToSend): Promise<void> {
    const { options } = this.emails
    const locale = emailLocale(order?.locale, options.defaultLocale)
    const claim = {
      payment_id: payment.payment_id,
      kind: recordKey ?? kind,
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
    const data = customerEmailData(kind, payment, order, options, locale, refund ?? null)
    try {
      const notifications = this.container.resolve(Modules.NOTIFICATION)
      const [sent] = await notifications.createNotifications([
        {
          to: order.email!,
          channel: options.channel,
          template: options.templates[kind],
          data,
          trigger_type: EMAIL_TRIGGERS[kind],
          resource_id: payment.id,
          resource_type: "crypto_payment",
          idempotency_key: `crypto-payment-email:${payment.payment_id}:${claim.kind}`,
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
