import { ContainerRegistrationKeys, PaymentActions } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { processPaymentWorkflow } from "@medusajs/core-flows"

async function capturedPaymentOf(container: Parameters<Parameters<typeof createStep>[1]>[1]["container"], sessionId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "payment", fields: ["id", "captured_at"], filters: { payment_session_id: sessionId } })
  return (data as Array<{ id: string; captured_at?: unknown }>).find((p) => !!p.captured_at)
}

/**
 * Runs Medusa's processPaymentWorkflow (authorize + capture, and complete the cart when no order
 * exists) as a workflow of its own, not as a sub-step: only then does it take the cart lock that
 * the storefront's own completion takes, so the two never create a payment twice. When a
 * concurrent completion got there first, the payment is already captured: that is success.
 */
export const captureCryptoPaymentStep = createStep(
  "capture-crypto-payment",
  async (input: { session_id: string; amount: number }, { container }) => {
    try {
      await processPaymentWorkflow(container).run({
        input: { action: PaymentActions.SUCCESSFUL, data: { session_id: input.session_id, amount: input.amount } },
      })
    } catch (error) {
      const captured = await capturedPaymentOf(container, input.session_id)
      if (!captured) throw error
      container
        .resolve(ContainerRegistrationKeys.LOGGER)
        .info(`medusa-payment-crypto: ${input.session_id} was captured by a concurrent completion (${captured.id})`)
    }
    return new StepResponse(undefined)
  }
)
