import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { MedusaContainer } from "@medusajs/framework/types"
import { CRYPTO_PAYMENT_MODULE } from "../modules/crypto-payment"
import type CryptoPaymentModuleService from "../modules/crypto-payment/service"
import { CryptoPaymentEvents, owedRecordKeyOf, type CryptoPaymentEventData } from "../lib/domain/payment-events"
import { emailKindOfEvent } from "../lib/domain/customer-email"
import { customerEmailSender, CustomerEmailSender, orderOf } from "../workflows/customer-email-send"
import { InOrder } from "../lib/runtime/in-order"
import { refundEmailData } from "../workflows/refund-links"

/**
 * The customer's emails (opt-in: the plugin's `notifications` option), each at most once per payment
 * and kind, to the order's email in the order's language. Never the API key, a webhook token or a
 * body from the service.
 */
export default async function cryptoPaymentEmails({
  event,
  container,
}: SubscriberArgs<CryptoPaymentEventData | { id: string }>) {
  const sender = customerEmailSender(container)
  if (!sender) return
  const cryptoPayment: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)

  if (event.name === "order.placed") {
    // the ledger first: an order paid with another provider stops at this one statement
    const payment = await cryptoPayment.ledger.openFirstOfOrder(event.data.id)
    if (!payment || payment.status !== "PENDING" || payment.outcome !== "pending") return
    const order = await orderOf(container, event.data.id)
    if (order) await sender.send({ kind: "link", payment, order, eventKey: `order.placed:${order.id}` })
    return
  }

  // one payment's emails go out in the order of its events (detected before paid, when one batch delivers both)
  const data = event.data as CryptoPaymentEventData
  await paymentEmails.run(data.payment_id, () =>
    sendPaymentEmail({ container, eventName: event.name, data, sender, cryptoPayment })
  )
}

/** Emails in flight, by payment: the event bus starts this subscriber in the order it emits. */
const paymentEmails = new InOrder()

async function sendPaymentEmail({
  container,
  eventName,
  data,
  sender,
  cryptoPayment,
}: {
  container: MedusaContainer
  eventName: string
  data: CryptoPaymentEventData
  sender: CustomerEmailSender
  cryptoPayment: CryptoPaymentModuleService
}): Promise<void> {
  const payment = await cryptoPayment.ledger.byPaymentId(data.payment_id)
  if (!payment) return
  const order = data.order_id ? await orderOf(container, data.order_id) : undefined

  if (eventName === CryptoPaymentEvents.REFUND_OWED) {
    // the owed record's key is the event key's last part: its link goes out once
    const owedKey = owedRecordKeyOf(payment.payment_id, data.event_key)
    const [owed] = owedKey
      ? await cryptoPayment.listCryptoOwedAmounts({ payment_id: payment.payment_id, key: owedKey })
      : []
    if (!owed) return
    const refund = await refundEmailData(container, owed.id)
    if (!refund) return
    await sender.send({
      kind: "refund_address",
      payment,
      order,
      eventKey: data.event_key,
      recordKey: `refund_link:${owed.id}`,
      refund,
    })
    return
  }

  const kind = emailKindOfEvent(eventName, payment)
  if (kind) await sender.send({ kind, payment, order, eventKey: data.event_key })
}

export const config: SubscriberConfig = {
  event: [
    "order.placed",
    CryptoPaymentEvents.CREATED,
    CryptoPaymentEvents.DETECTED,
    CryptoPaymentEvents.PAID,
    CryptoPaymentEvents.EXPIRED,
    CryptoPaymentEvents.REFUND_OWED,
  ],
  context: { subscriberId: "medusa-payment-crypto-emails" },
}
