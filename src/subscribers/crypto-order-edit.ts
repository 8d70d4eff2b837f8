import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys, Modules, OrderEditWorkflowEvents } from "@medusajs/framework/utils"
import { pluginLog } from "../lib/runtime/log"
import { CRYPTO_PROVIDER } from "../modules/crypto-payment/core"
import { lockKeysOf, underPaymentLock } from "../workflows/steps/payment-lock"

const OPEN = ["pending", "pending_authorization", "requires_more"]

type Session = {
  id: string
  provider_id: string
  status: string
  amount: number
  currency_code: string
  data: Record<string, unknown>
}
type Collection = { id: string; status: string; amount: number; currency_code: string; payment_sessions?: Session[] }

/**
 * An order edit changes an awaiting collection's amount under the invoice the customer was shown: the
 * session is updated, so the provider creates a new invoice, as for a cart whose total changed.
 */
export default async function cryptoOrderEditConfirmed({ event, container }: SubscriberArgs<{ order_id?: string }>) {
  const orderId = event.data?.order_id
  if (!orderId) return
  const log = pluginLog(container.resolve(ContainerRegistrationKeys.LOGGER))
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order_payment_collection",
    fields: [
      "payment_collection.id",
      "payment_collection.status",
      "payment_collection.amount",
      "payment_collection.currency_code",
      "payment_collection.payment_sessions.id",
      "payment_collection.payment_sessions.provider_id",
      "payment_collection.payment_sessions.status",
      "payment_collection.payment_sessions.amount",
      "payment_collection.payment_sessions.currency_code",
      "payment_collection.payment_sessions.data",
    ],
    filters: { order_id: orderId },
  })
  const payments = container.resolve(Modules.PAYMENT)
  for (const { payment_collection: collection } of data as Array<{ payment_collection?: Collection }>) {
    if (!collection || !["awaiting", "not_paid"].includes(collection.status)) continue
    for (const session of collection.payment_sessions ?? []) {
      if (!CRYPTO_PROVIDER.test(session.provider_id) || !OPEN.includes(session.status)) continue
      if (Number(session.amount) === Number(collection.amount)) continue
      try {
        // under the lock a capture or cancel of this order takes: a payment being applied meanwhile is
        // never judged against one amount while the session changes to another
        const renewed = await underPaymentLock(
          container,
          lockKeysOf({ collectionId: collection.id, orderId }),
          async (fence) => {
            // what a run holding the lock before us did (captured, closed) stands: only an open session changes
            const [current] = await payments.listPaymentSessions({ id: session.id }, { select: ["id", "status"] })
            if (!current || !OPEN.includes(current.status)) return false
            fence()
            await payments.updatePaymentSession({
              id: session.id,
              amount: collection.amount,
              currency_code: collection.currency_code,
              data: session.data ?? {},
              status: session.status as never,
            })
            return true
          }
        )
        if (!renewed) continue
        log.info(
          `order ${orderId} edited while awaiting crypto: session ${session.id} now asks ${collection.amount} ${collection.currency_code.toUpperCase()} with a new invoice; the old one is still watched`
        )
      } catch (error) {
        log.warn(
          `order ${orderId} edited while awaiting crypto: session ${session.id} could not get a new invoice (${(error as Error).message}); the customer still sees the old amount`
        )
      }
    }
  }
}

export const config: SubscriberConfig = {
  event: OrderEditWorkflowEvents.CONFIRMED,
}
