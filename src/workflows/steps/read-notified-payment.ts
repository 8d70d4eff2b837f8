import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { notifiedReport } from "../../modules/crypto-payment/core"

export type NotifiedPaymentInput = {
  /** The token of the webhook's URL: the credential, an HMAC of the payment session's id. */
  token: string
  /** The payment id the body named (a hint: only a payment of that session counts). */
  payment_id?: string
}

/**
 * The payment a notification is about, with its status read from the service: the token is checked
 * against every crypto provider's keys (UNAUTHORIZED when none made it). Null when the token is ours but
 * the session has no payment in the ledger. A read only: nothing to undo.
 */
export const readNotifiedPaymentStep = createStep(
  "read-notified-payment",
  async (input: NotifiedPaymentInput, { container }) =>
    new StepResponse(
      await notifiedReport(container, input.token, input.payment_id ? { paymentId: input.payment_id } : {})
    )
)
