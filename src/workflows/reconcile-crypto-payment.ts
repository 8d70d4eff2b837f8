import { createHook, createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { cancelOrderWorkflow } from "@medusajs/core-flows"
import { decideAction } from "../lib/domain/payment-decision"
import { PaymentAssessment } from "../lib/domain/payment-assessment"
import type { ReconcilePolicy } from "../modules/crypto-payment/core/types"
import { loadCryptoPaymentStep } from "./steps/load-crypto-payment"
import { recordCryptoPaymentStep } from "./steps/record-crypto-payment"
import { closePaymentSessionStep } from "./steps/close-payment-session"
import { claimCryptoPaymentStep } from "./steps/claim-crypto-payment"
import { captureCryptoPaymentStep } from "./steps/capture-crypto-payment"
import { recordCaptureOnOrderStep } from "./steps/record-capture-on-order"
import { emitPaymentCapturedStep } from "./steps/emit-payment-captured"
import { acquirePaymentLockStep, paymentLockHeldStep, releasePaymentLockStep } from "./steps/payment-lock"

export type ReconcileCryptoPaymentInput = {
  payment_id: string
  /** The status just read from the service, judged against what the ledger says was agreed. */
  assessment: PaymentAssessment
  policy: ReconcilePolicy
  /** Who asked: webhook, reconcile (the job), admin. */
  source: string
  /** A notification answered from a kept read: the job reads again by then (ISO time). */
  read_again_by?: string
}

export const reconcileCryptoPaymentWorkflowId = "reconcile-crypto-payment"

/**
 * The one path from a service status to Medusa: under the lock, decide, apply, and only then record, so
 * a failure anywhere leaves the row due for the next read. The lock is a lease renewed while the run
 * lives (at most `lockSeconds`, which covers the capture's reads of the service); the run stops before
 * its effects, and before recording, once a renewal failed.
 */
export const reconcileCryptoPaymentWorkflow = createWorkflow(
  reconcileCryptoPaymentWorkflowId,
  (input: ReconcileCryptoPaymentInput) => {
    // one lock per order (per collection before it has one): a late payment of a replaced session and
    // the expiry of the current one, or an order edit's payment and the checkout's, never interleave
    const lockInput = transform({ input }, ({ input }) => ({
      payment_id: input.payment_id,
      holdSeconds: input.policy.lockSeconds,
      timeoutSeconds: 30,
    }))
    const lock = acquirePaymentLockStep(lockInput)

    const context = loadCryptoPaymentStep({ payment_id: input.payment_id })
    const decision = transform({ input, context }, ({ input, context }) =>
      decideAction(input.assessment, context.store, {
        quoteDriftAlertPercent: input.policy.quoteDriftAlertPercent ?? 2,
        latePayments: input.policy.latePayments ?? "flag",
      })
    )

    /** Runs once the decision is made, before it is applied: a place to observe (or veto, by throwing) what the plugin is about to do. */
    const paymentDecided = createHook("paymentDecided", {
      payment_id: input.payment_id,
      assessment: input.assessment,
      decision,
      source: input.source,
    })

    paymentLockHeldStep(lock)
    const captured = when("capture-crypto-payment", { decision }, ({ decision }) => decision.action === "capture").then(
      () => {
        const target = transform({ context, decision, lock }, ({ context, decision, lock }) => ({
          payment_id: context.payment.payment_id,
          lock,
          session_id: decision.sessionId!,
          // the amount processPaymentWorkflow captures (no order yet); a capture on an order takes the session's
          amount: context.targetSession?.amount ?? 0,
          // an order already placed (or an order edit's collection) is captured without completing a cart
          ...(context.store.orderId
            ? { order_id: context.store.orderId }
            : context.cartId
              ? { cart_id: context.cartId, captured_before: context.store.capturedByThis }
              : {}),
        }))
        const claim = transform({ context, target }, ({ context, target }) => ({
          ...target,
          claimed: context.payment.capture_session_id,
        }))
        claimCryptoPaymentStep(claim)
        const capture = captureCryptoPaymentStep(target)
        const added = recordCaptureOnOrderStep(transform({ capture }, ({ capture }) => ({ capture: capture.on_order })))
        const announce = transform({ capture, added }, ({ capture, added }) => ({
          payment_id: capture.payment_id,
          emit: capture.completed_cart_here || (!!capture.on_order && (capture.on_order.captured_here || added > 0)),
        }))
        emitPaymentCapturedStep(announce)
        return capture
      }
    )

    when("cancel-awaiting-order", { decision }, ({ decision }) => decision.action === "cancel_order").then(() => {
      const cancelInput = transform({ context }, ({ context }) => ({ order_id: context.store.orderId! }))
      // a stale run's cancel racing another run's capture would refund a paid order: the lease is asked again
      paymentLockHeldStep(lock).config({ name: "crypto-payment-lock-held-before-cancel" })
      cancelOrderWorkflow.runAsStep({ input: cancelInput })
    })

    when(
      "close-crypto-session",
      { decision, context },
      ({ decision, context }) =>
        (decision.action === "cancel_order" || decision.action === "cancel_session") && !!context.ownSession
    ).then(() => {
      const session = transform({ context }, ({ context }) => context.ownSession!)
      paymentLockHeldStep(lock).config({ name: "crypto-payment-lock-held-before-close" })
      closePaymentSessionStep(session)
    })

    const recordInput = transform(
      { input, context, decision, captured, lock },
      ({ input, context, decision, captured, lock }) => ({
        payment_id: input.payment_id,
        lock,
        source: input.source,
        assessment: input.assessment,
        decision,
        policy: input.policy,
        ...(input.read_again_by ? { read_again_by: input.read_again_by } : {}),
        // captured with no order: by this run's capture, or as Medusa's state shows it (a run cut after its
        // capture, before this step, leaves it to the next read to find)
        ...(captured?.no_order || (!captured && context.store.capturedNoOrder) ? { no_order: true } : {}),
        ...((captured?.order_id ?? context.store.orderId)
          ? { order_id: captured?.order_id ?? context.store.orderId }
          : {}),
      })
    )
    const record = recordCryptoPaymentStep(recordInput)

    releasePaymentLockStep(lock)
    return new WorkflowResponse({ decision, record }, { hooks: [paymentDecided] })
  }
)
