import {
  ContainerRegistrationKeys,
  MedusaError,
  Modules,
  PaymentActions,
  PaymentEvents,
} from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { BigNumberInput, MedusaContainer } from "@medusajs/framework/types"
import { processPaymentWorkflow } from "@medusajs/core-flows"
import { capturesNotOnOrder } from "./order-captures"

type SessionPayment = {
  id: string
  captured_at?: unknown
  canceled_at?: unknown
  payment_collection_id: string
  currency_code: string
  captures?: Array<{ id: string; amount: BigNumberInput; raw_amount?: BigNumberInput }>
}

/** The Medusa payment of a session (one that is not canceled first), with its captures. */
async function paymentOfSession(container: MedusaContainer, sessionId: string): Promise<SessionPayment | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment",
    fields: [
      "id",
      "captured_at",
      "canceled_at",
      "payment_collection_id",
      "currency_code",
      "captures.id",
      "captures.amount",
      "captures.raw_amount",
    ],
    filters: { payment_session_id: sessionId },
  })
  const payments = data as unknown as SessionPayment[]
  return payments.find((p) => !p.canceled_at) ?? payments[0]
}

async function orderOf(container: MedusaContainer, collectionId: string): Promise<string | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order_payment_collection",
    fields: ["order_id"],
    filters: { payment_collection_id: collectionId },
  })
  return (data[0] as { order_id?: string } | undefined)?.order_id
}

const notCaptured = (sessionId: string) =>
  new MedusaError(
    MedusaError.Types.UNEXPECTED_STATE,
    `The crypto payment of session ${sessionId} was not captured in Medusa (its status could not be confirmed); it is tried again.`
  )

/**
 * Run as a workflow of its own, not a sub-step: only then does processPaymentWorkflow take the cart lock
 * the storefront's own completion takes, so the two never create a payment twice.
 */
async function captureCompletingCart(container: MedusaContainer, input: { session_id: string; amount: number }) {
  try {
    await processPaymentWorkflow(container).run({
      input: { action: PaymentActions.SUCCESSFUL, data: { session_id: input.session_id, amount: input.amount } },
    })
  } catch (error) {
    // a concurrent completion may have got there first: then the payment is captured, which is success
    if (!(await paymentOfSession(container, input.session_id))?.captured_at) throw error
  }
  return paymentOfSession(container, input.session_id)
}

/**
 * The order exists: what processPaymentWorkflow would do, without its cart lock. The order gets a
 * transaction per capture it lacks, so a retry after a failure adds none twice.
 */
async function captureOnOrder(container: MedusaContainer, input: { session_id: string; order_id: string }) {
  const payments = container.resolve(Modules.PAYMENT)
  let payment = await paymentOfSession(container, input.session_id)
  const capturedHere = !payment?.captured_at
  if (!payment) {
    await payments.authorizePaymentSession(input.session_id, {})
    payment = await paymentOfSession(container, input.session_id)
  } else if (!payment.captured_at) {
    await payments.capturePayment({ payment_id: payment.id })
    payment = await paymentOfSession(container, input.session_id)
  }
  if (!payment?.captured_at) return payment

  const missing = await capturesNotOnOrder(container, input.order_id, payment.captures ?? [])
  if (missing.length) {
    await container.resolve(Modules.ORDER).addOrderTransactions(
      missing.map((c) => ({
        order_id: input.order_id,
        amount: c.raw_amount ?? c.amount,
        currency_code: payment!.currency_code,
        reference: "capture",
        reference_id: c.id,
      }))
    )
  }
  if (capturedHere || missing.length) {
    await container.resolve(Modules.EVENT_BUS).emit({ name: PaymentEvents.CAPTURED, data: { id: payment.id } })
  }
  return payment
}

/**
 * Checks that a captured payment really exists: Medusa's paths also end "successfully" when the provider
 * could not confirm the payment.
 */
export const captureCryptoPaymentStep = createStep(
  "capture-crypto-payment",
  async (input: { session_id: string; amount: number; order_id?: string }, { container }) => {
    const captured = input.order_id
      ? await captureOnOrder(container, { session_id: input.session_id, order_id: input.order_id })
      : await captureCompletingCart(container, input)
    if (!captured?.captured_at) throw notCaptured(input.session_id)
    const orderId = input.order_id ?? (await orderOf(container, captured.payment_collection_id))
    // Medusa completes the cart after the capture and swallows a failure there (an item sold out
    // meanwhile): the money is then captured with no order, which the record step flags and owes
    return new StepResponse({ payment_id: captured.id, order_id: orderId, no_order: !orderId })
  }
)
