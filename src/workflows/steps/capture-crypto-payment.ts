import { ContainerRegistrationKeys, MedusaError, Modules, PaymentActions } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { BigNumberInput, MedusaContainer } from "@medusajs/framework/types"
import { completeCartWorkflow, processPaymentWorkflow } from "@medusajs/core-flows"
import { pluginLog } from "../../lib/runtime/log"
import { assertPaymentLockHeld, type PaymentLock } from "./payment-lock"

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
  return notCanceledFirst(data as unknown as SessionPayment[])
}

/** A session's payment: the one not canceled, else the first. */
const notCanceledFirst = (payments: SessionPayment[]) => payments.find((p) => !p.canceled_at) ?? payments[0]

/**
 * Whether a completion captured the session's payment: one statement, without the captures (an order
 * completed here recorded its capture itself).
 */
async function capturedOfSession(container: MedusaContainer, sessionId: string): Promise<SessionPayment | undefined> {
  const payments = await container
    .resolve(Modules.PAYMENT)
    .listPayments(
      { payment_session_id: sessionId },
      { select: ["id", "captured_at", "canceled_at", "payment_collection_id", "currency_code"] }
    )
  return notCanceledFirst(payments as unknown as SessionPayment[])
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
 * No order yet: the cart is completed as the storefront would, by completeCartWorkflow, whose
 * authorization answers captured (the payment and its capture created at once) and whose order records
 * the capture. Run as a workflow of its own, not a sub-step: it takes the cart lock the storefront's own
 * completion takes, so the two never create a payment or an order twice. `capturedHere`: this run's
 * completion captured it (for payment.captured, which completeCartWorkflow does not send); the load
 * step said whether it was captured before (`captured_before`).
 */
async function captureCompletingCart(
  container: MedusaContainer,
  input: { session_id: string; amount: number; cart_id?: string; captured_before?: boolean }
) {
  let orderId: string | undefined
  if (input.cart_id) {
    try {
      orderId = (await completeCartWorkflow(container).run({ input: { id: input.cart_id } })).result?.id
    } catch (error) {
      // the cart cannot become an order (an item sold out meanwhile): captured without one, below
      pluginLog(container.resolve(ContainerRegistrationKeys.LOGGER)).warn(
        `cart ${input.cart_id} of crypto session ${input.session_id} not completed (${(error as Error)?.message}); its payment is captured first, then the completion tried again`
      )
    }
  }
  let payment = orderId ? await capturedOfSession(container, input.session_id) : undefined
  const completedHere = !input.captured_before && !!payment?.captured_at
  // processPaymentWorkflow sends its own payment.captured
  if (!payment?.captured_at) payment = await captureThenComplete(container, input)
  return { payment, orderId, capturedHere: completedHere }
}

/**
 * processPaymentWorkflow: the payment captured first, then the cart's completion tried, whose failure
 * Medusa swallows (the money is then captured with no order, which the record step flags and owes).
 */
async function captureThenComplete(container: MedusaContainer, input: { session_id: string; amount: number }) {
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
 * The order exists: the payment module's side of what processPaymentWorkflow would do, without its cart
 * lock (the order's transactions and the event are the next steps'). `capturedHere`: this run captured it.
 */
async function captureOnOrder(container: MedusaContainer, sessionId: string) {
  const payments = container.resolve(Modules.PAYMENT)
  const found = await paymentOfSession(container, sessionId)
  if (found?.captured_at) return { payment: found, capturedHere: false }
  if (!found) await payments.authorizePaymentSession(sessionId, {})
  else await payments.capturePayment({ payment_id: found.id })
  return { payment: await paymentOfSession(container, sessionId), capturedHere: true }
}

/**
 * Checks that a captured payment really exists: Medusa's paths also end "successfully" when the provider
 * could not confirm the payment.
 */
export const captureCryptoPaymentStep = createStep(
  "capture-crypto-payment",
  async (
    input: {
      session_id: string
      amount: number
      order_id?: string
      cart_id?: string
      captured_before?: boolean
      /** The run's lock: asked immediately before the capture (a claim step ran since the workflow's check). */
      lock?: PaymentLock
    },
    { container }
  ) => {
    if (input.lock) assertPaymentLockHeld(container, input.lock)
    const completing = input.order_id ? undefined : await captureCompletingCart(container, input)
    const { payment: captured, capturedHere } = completing ?? (await captureOnOrder(container, input.session_id))
    if (!captured?.captured_at) throw notCaptured(input.session_id)
    const orderId = input.order_id ?? completing?.orderId ?? (await orderOf(container, captured.payment_collection_id))
    // Medusa completes the cart after the capture and swallows a failure there (an item sold out
    // meanwhile): the money is then captured with no order, which the record step flags and owes
    return new StepResponse({
      payment_id: captured.id,
      order_id: orderId,
      no_order: !orderId,
      // a cart completed here: its order recorded the capture; Medusa sent no payment.captured
      completed_cart_here: !!completing && capturedHere,
      // on an order: the capture's transactions and event are the next steps' (processPaymentWorkflow
      // did both on a cart's completion)
      ...(input.order_id
        ? {
            on_order: {
              order_id: input.order_id,
              currency_code: captured.currency_code,
              captured_here: capturedHere,
              captures: (captured.captures ?? []).map((c) => ({ id: c.id, amount: c.raw_amount ?? c.amount })),
            },
          }
        : {}),
    })
  }
)
