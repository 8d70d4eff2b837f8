import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { CRYPTO_PAYMENT_MODULE } from "../modules/crypto-payment"
import type CryptoPaymentModuleService from "../modules/crypto-payment/service"
import type { LedgerRow } from "../modules/crypto-payment/ledger"
import { CryptoPaymentEvents, owedRecordKeyOf, type CryptoPaymentEventData } from "../lib/domain/payment-events"
import { emailKindOfEvent } from "../lib/domain/customer-email"
import { customerEmailSender, orderOf } from "../workflows/customer-email-send"
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
    const order = await orderOf(container, event.data.id)
    if (!order) return
    const [payment] = await cryptoPayment.listCryptoPayments(
      { payment_collection_id: order.collections, settled: false, remainder_of: null },
      { order: { created_at: "DESC" }, take: 1 }
    )
    if (payment && payment.status === "PENDING" && payment.outcome === "pending")
      await sender.send({
        kind: "link",
        payment: payment as unknown as LedgerRow,
        order,
        eventKey: `order.placed:${order.id}`,
      })
    return
  }

  const data = event.data as CryptoPaymentEventData
  const payment = await cryptoPayment.ledger.byPaymentId(data.payment_id)
  if (!payment) return
  const order = data.order_id ? await orderOf(container, data.order_id) : undefined

  if (event.name === CryptoPaymentEvents.REFUND_OWED) {
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

  const kind = emailKindOfEvent(event.name, payment)
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
