import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import type { ReconcileCryptoPaymentInput } from "./reconcile-crypto-payment"
import { readNotifiedPaymentStep, type NotifiedPaymentInput } from "./steps/read-notified-payment"
import { reconcileNotifiedPaymentStep } from "./steps/reconcile-notified-payment"

export const applyCryptoNotificationWorkflowId = "apply-crypto-notification"

/**
 * A webhook of the service, from its checked token to Medusa: read the status of the payment it is about,
 * then apply it as the job and the admin's re-check do. `report` is null for a session with no payment in
 * the ledger; `applied` (the decision's action) is absent when the service does not know the payment.
 */
export const applyCryptoNotificationWorkflow = createWorkflow(
  applyCryptoNotificationWorkflowId,
  (input: NotifiedPaymentInput) => {
    const report = readNotifiedPaymentStep(input)
    const applied = when("apply-notified-status", { report }, ({ report }) => !!report?.assessment).then(() => {
      const reconcileInput = transform({ report }, ({ report }): ReconcileCryptoPaymentInput => ({
        payment_id: report!.paymentId,
        assessment: report!.assessment!,
        policy: report!.policy,
        source: "webhook",
        ...(report!.readAgainBy ? { read_again_by: report!.readAgainBy } : {}),
      }))
      return reconcileNotifiedPaymentStep(reconcileInput)
    })
    return new WorkflowResponse({ report, applied })
  }
)
