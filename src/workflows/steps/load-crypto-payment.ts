import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import {
  CollectionPayment,
  CollectionSession,
  ownCaptureOf,
  paymentContextOf,
  PaymentReading,
} from "../../lib/domain/payment-context"
import { CRYPTO_PAYMENT_MODULE } from "../../modules/crypto-payment"
import { capturesNotOnOrder } from "./order-captures"
import type CryptoPaymentModuleService from "../../modules/crypto-payment/service"
import type { LedgerRow } from "../../modules/crypto-payment/ledger"

/** Whether a captured payment has a capture its order holds no transaction for. */
async function captureMissingOnOrder(container: MedusaContainer, orderId: string, paymentId: string) {
  const captures = await container.resolve(Modules.PAYMENT).listCaptures({ payment_id: paymentId }, { select: ["id"] })
  return (await capturesNotOnOrder(container, orderId, captures)).length > 0
}

type OrderOfCollection = { id: string; status: string; payment_collections?: Array<{ id: string; status: string }> }

/** The collection's order: its status and its other collections (an order edit's). */
async function orderOf(container: MedusaContainer, orderId: string): Promise<OrderOfCollection | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: ["id", "status", "payment_collections.id", "payment_collections.status"],
    filters: { id: orderId },
  })
  return data[0] as OrderOfCollection | undefined
}

async function readPayment(container: MedusaContainer, row: LedgerRow): Promise<PaymentReading> {
  const cryptoPayment: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const collectionId = row.payment_collection_id
  // read beside the reads below and awaited after them: caught now, so its failure is never unhandled
  // while they run
  const checkoutRead = cryptoPayment.ledger.checkoutOf(row.payment_id)
  checkoutRead.catch(() => undefined)
  const [collections, { owners, order }, siblings] = collectionId
    ? await Promise.all([
        query.graph({
          entity: "payment_collection",
          fields: [
            "id",
            "amount",
            "currency_code",
            "payment_sessions.id",
            "payment_sessions.status",
            "payment_sessions.amount",
            "payment_sessions.currency_code",
            "payment_sessions.provider_id",
            "payment_sessions.data",
            "payment_sessions.created_at",
            "payment_sessions.payment.id",
            "payment_sessions.payment.captured_at",
            "payment_sessions.payment.canceled_at",
            // those of sessions Medusa deleted too: a capture its completion-failure compensation refunded
            "payments.id",
            "payments.payment_session_id",
            "payments.captured_at",
            "payments.canceled_at",
            "payments.amount",
            "payments.refunds.amount",
          ],
          filters: { id: collectionId },
        }),
        // Medusa's link tables in one statement: a checkout's collection belongs to its cart, one Medusa
        // created on an existing order has none; the order, once there is one, read as soon as it is known
        cryptoPayment.ledger.ownersOfCollection(collectionId).then(async (owners) => ({
          owners,
          order: owners.orderId ? await orderOf(container, owners.orderId) : undefined,
        })),
        cryptoPayment.ledger.ofCollection(collectionId),
      ])
    : [{ data: [] }, { owners: { orderId: null, cartId: null }, order: undefined }, [row]]
  const checkout = await checkoutRead
  const [collection] = collections.data
  const first = checkout && checkout.first.payment_id !== row.payment_id ? checkout.first : undefined
  const owed = checkout?.records ?? []
  return {
    payment: row,
    ...(first ? { first } : {}),
    ...(collection
      ? {
          collection: {
            amount: collection.amount as number,
            currency_code: String(collection.currency_code),
            sessions: (collection.payment_sessions ?? []) as CollectionSession[],
            payments: (collection.payments ?? []) as CollectionPayment[],
          },
        }
      : {}),
    ...(order ? { order } : {}),
    inCart: !!owners.cartId,
    ...(owners.cartId ? { cartId: owners.cartId } : {}),
    siblings,
    owed,
  }
}

/**
 * A ledger payment and the Medusa side it belongs to: everything the decision needs, read from the
 * ledger and Medusa, never from session data a storefront could write.
 */
export const loadCryptoPaymentStep = createStep(
  "load-crypto-payment",
  async (input: { payment_id: string }, { container }) => {
    const cryptoPayment: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
    const row = await cryptoPayment.ledger.byPaymentId(input.payment_id)
    if (!row)
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Crypto payment ${input.payment_id} is not in the ledger.`)
    const reading = await readPayment(container, row)
    // a run can fail between Medusa's capture and the order's record of it: ask the order
    const capture = ownCaptureOf(reading)
    const captureUnrecorded =
      !!reading.order && !!capture && (await captureMissingOnOrder(container, reading.order.id, capture.paymentId))
    return new StepResponse(paymentContextOf(reading, { captureUnrecorded, now: new Date() }))
  }
)
