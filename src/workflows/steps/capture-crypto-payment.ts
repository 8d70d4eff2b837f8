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
 * No order yet (after_payment, or the notification came before the storefront completed): Medusa's
 * processPaymentWorkflow authorizes, captures and completes the cart. It runs as a workflow of its
 * own, not as a sub-step: only then does it take the cart lock that the storefront's own completion
 * takes, so the two never create a payment twice.
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
 * The order exists (placed awaiting payment, or an order edit's collection), so no cart is
 * completed: what processPaymentWorkflow would do for it, without its cart look-ups and lock and
 * without capturing twice. The session is authorized (the provider answers captured, so the payment
 * module creates the payment and its capture in one transaction), or an authorized payment is
 * captured; then the order gets a transaction per capture it does not have yet (so a retry after a
 * failure adds none twice) and payment.captured is emitted for a capture made or recorded here.
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
 * Captures the session's payment in Medusa, then checks that a captured payment really exists:
 * Medusa's paths also end "successfully" when the provider could not confirm the payment (a 429 on
 * its status read, a pending answer), and that is not a capture.
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
