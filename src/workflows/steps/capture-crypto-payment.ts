import { ContainerRegistrationKeys, MedusaError, PaymentActions } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { MedusaContainer } from "@medusajs/framework/types"
import { processPaymentWorkflow } from "@medusajs/core-flows"

async function capturedPaymentOf(container: MedusaContainer, sessionId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment",
    fields: ["id", "captured_at", "payment_collection_id"],
    filters: { payment_session_id: sessionId },
  })
  return (data as Array<{ id: string; captured_at?: unknown; payment_collection_id: string }>).find(
    (p) => !!p.captured_at
  )
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

/**
 * Runs Medusa's processPaymentWorkflow (authorize + capture, and complete the cart when no order
 * exists) as a workflow of its own, not as a sub-step: only then does it take the cart lock that
 * the storefront's own completion takes, so the two never create a payment twice. Then checks that
 * a captured payment really exists: processPaymentWorkflow also ends "successfully" when the
 * provider could not confirm the payment (a 429 on its status read), and that is not a capture.
 */
export const captureCryptoPaymentStep = createStep(
  "capture-crypto-payment",
  async (input: { session_id: string; amount: number }, { container }) => {
    try {
      await processPaymentWorkflow(container).run({
        input: { action: PaymentActions.SUCCESSFUL, data: { session_id: input.session_id, amount: input.amount } },
      })
    } catch (error) {
      // a concurrent completion may have got there first: then the payment is captured, which is success
      if (!(await capturedPaymentOf(container, input.session_id))) throw error
    }
    const captured = await capturedPaymentOf(container, input.session_id)
    if (!captured) {
      throw new MedusaError(
        MedusaError.Types.UNEXPECTED_STATE,
        `The crypto payment of session ${input.session_id} was not captured in Medusa (its status could not be confirmed); it is tried again.`
      )
    }
    return new StepResponse({
      payment_id: captured.id,
      order_id: await orderOf(container, captured.payment_collection_id),
    })
  }
)
