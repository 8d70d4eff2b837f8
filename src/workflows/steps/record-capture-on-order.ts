import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { BigNumberInput } from "@medusajs/framework/types"
import { capturesNotOnOrder } from "./order-captures"

/** A capture of a payment on an order, as the capture step hands it on. */
export type CaptureOnOrder = {
  order_id: string
  currency_code: string
  /** This run captured the payment (else an earlier run did, and may have failed before the order's record). */
  captured_here: boolean
  captures: Array<{ id: string; amount: BigNumberInput }>
}

/**
 * The order's record of its payment's captures: a transaction per capture it lacks, so a retry after a
 * failure between the capture and this step adds none twice. Answers how many it added (none without
 * `capture`: a cart's completion records its own).
 */
export const recordCaptureOnOrderStep = createStep(
  "record-capture-on-order",
  async ({ capture: input }: { capture?: CaptureOnOrder }, { container }) => {
    if (!input) return new StepResponse(0)
    const missing = await capturesNotOnOrder(container, input.order_id, input.captures)
    if (missing.length) {
      await container.resolve(Modules.ORDER).addOrderTransactions(
        missing.map((c) => ({
          order_id: input.order_id,
          amount: c.amount,
          currency_code: input.currency_code,
          reference: "capture",
          reference_id: c.id,
        }))
      )
    }
    return new StepResponse(missing.length)
  }
)
