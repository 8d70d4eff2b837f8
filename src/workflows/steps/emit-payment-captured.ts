import { Modules, PaymentEvents } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"

/**
 * Medusa's payment.captured for a capture on an order, sent at once: a grouped event (core's
 * emitEventStep) waits for the workflow's end and is dropped when a later step fails, after a capture
 * that really happened.
 */
export const emitPaymentCapturedStep = createStep(
  "emit-payment-captured",
  async (input: { payment_id: string; emit: boolean }, { container }) => {
    if (input.emit) {
      await container.resolve(Modules.EVENT_BUS).emit({ name: PaymentEvents.CAPTURED, data: { id: input.payment_id } })
    }
    return new StepResponse(input.emit)
  }
)
