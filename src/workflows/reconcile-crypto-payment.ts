import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { acquireLockStep, cancelOrderWorkflow, releaseLockStep } from "@medusajs/core-flows"
import { decideAction } from "../lib/payment-decision"
import { loadCryptoPaymentStep } from "./steps/load-crypto-payment"
import { assessCryptoPaymentStep } from "./steps/assess-crypto-payment"
import { recordCryptoPaymentStep } from "./steps/record-crypto-payment"
import { closePaymentSessionStep } from "./steps/close-payment-session"
import { captureCryptoPaymentStep } from "./steps/capture-crypto-payment"

export type ReconcileCryptoPaymentInput = {
  session_id: string
  /** Who asked: webhook, reconcile (the job), admin. */
  source: string
  recheck_after_seconds: number
}

export const reconcileCryptoPaymentWorkflowId = "reconcile-crypto-payment"

/**
 * The one path from a service status to Medusa: under a lock on the session, read the status,
 * decide, record, then capture (Medusa's processPaymentWorkflow), cancel the awaiting order
 * (cancelOrderWorkflow, which releases reserved inventory) or close the session.
 * Used by the webhook route, the reconciliation job and the admin re-check.
 */
export const reconcileCryptoPaymentWorkflow = createWorkflow(
  reconcileCryptoPaymentWorkflowId,
  (input: ReconcileCryptoPaymentInput) => {
    const lockKey = transform({ input }, ({ input }) => `crypto-payment:${input.session_id}`)
    acquireLockStep({ key: lockKey, timeout: 30, ttl: 120 })

    const context = loadCryptoPaymentStep({ session_id: input.session_id })
    const session = transform({ context }, ({ context }) => context.session)
    const assessment = assessCryptoPaymentStep(session)
    const decision = transform({ assessment, context }, ({ assessment, context }) => decideAction(assessment, context.store))

    const recordInput = transform({ input, context, assessment, decision }, ({ input, context, assessment, decision }) => ({
      session_id: input.session_id,
      kind: (context.session.data.kind === "payment" ? "payment" : "invoice") as "invoice" | "payment",
      payment_id: String(context.session.data.paymentId ?? ""),
      source: input.source,
      assessment,
      decision,
      recheck_after_seconds: input.recheck_after_seconds,
    }))
    const record = recordCryptoPaymentStep(recordInput)

    when("capture-crypto-payment", { decision }, ({ decision }) => decision.action === "capture").then(() => {
      const captureInput = transform({ context }, ({ context }) => ({ session_id: context.session.id, amount: context.session.amount }))
      captureCryptoPaymentStep(captureInput)
    })

    when("cancel-awaiting-order", { decision }, ({ decision }) => decision.action === "cancel_order").then(() => {
      const cancelInput = transform({ context }, ({ context }) => ({ order_id: context.store.orderId! }))
      cancelOrderWorkflow.runAsStep({ input: cancelInput })
    })

    when("close-crypto-session", { decision }, ({ decision }) => decision.action === "cancel_order" || decision.action === "cancel_session").then(() => {
      closePaymentSessionStep(session)
    })

    releaseLockStep({ key: lockKey })
    return new WorkflowResponse({ assessment, decision, record })
  }
)
