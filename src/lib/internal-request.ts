import type { ProviderWebhookPayload, WebhookActionResult } from "@medusajs/framework/types"
import type { PaymentAssessment } from "./payment-decision"

/**
 * The plugin's routes, workflow and job reach the crypto provider (which holds the options, the
 * secret and the client) through the payment module's getWebhookActionAndData, in two ways:
 *
 * - a webhook, as Medusa's own providers verify theirs: the body and headers of the request, with
 *   the URL's token in the WEBHOOK_TOKEN_HEADER header; the provider verifies the token and
 *   answers with the payment's real status (a bad token throws UNAUTHORIZED);
 * - "assess this payment of the ledger", branded with a registered symbol that no HTTP body can
 *   carry, so a request arriving through Medusa's public /hooks/payment route can never pose as one.
 *
 * Both answer the same typed shape, read back with `readAssessmentAnswer`.
 */
export const INTERNAL_REQUEST = Symbol.for("medusa-payment-crypto.internal-request")
export const WEBHOOK_TOKEN_HEADER = "x-crypto-webhook-token"

export type AssessRequest = { op: "assess"; paymentId: string }

export function assessPayload(paymentId: string): ProviderWebhookPayload["payload"] {
  const request: AssessRequest & { [INTERNAL_REQUEST]: true } = { op: "assess", paymentId, [INTERNAL_REQUEST]: true }
  return { data: request, rawData: "", headers: {} }
}

export function readAssessRequest(data: unknown): AssessRequest | undefined {
  if (data && typeof data === "object" && (data as Record<symbol, unknown>)[INTERNAL_REQUEST] === true) {
    const { paymentId } = data as { paymentId?: unknown }
    if (typeof paymentId === "string") return { op: "assess", paymentId }
  }
  return undefined
}

export function webhookTokenOf(headers: Record<string, unknown> | undefined): string | undefined {
  const value = headers?.[WEBHOOK_TOKEN_HEADER]
  return typeof value === "string" ? value : undefined
}

/** How the plugin reads and schedules payments: the provider's options, handed out with every answer. */
export type ReconcilePolicy = {
  reconcileIntervalSeconds: number
  reconcileBatchSize: number
  lateWindowHours: number
  /** The longest a capture can spend on service reads (timeouts × attempts + Retry-After waits). */
  lockSeconds: number
}

/** What the provider says about one payment of the ledger. */
export type AssessmentAnswer = {
  paymentId: string
  /** The session it was created for. */
  sessionId: string
  /** The status read, judged against what was agreed; absent when the service does not know the payment (404). */
  assessment?: PaymentAssessment
  policy: ReconcilePolicy
}

export function assessmentResult(action: WebhookActionResult["action"], answer: AssessmentAnswer & { amount: string }): WebhookActionResult {
  const { amount, sessionId, ...rest } = answer
  return { action, data: { session_id: sessionId, amount, ...rest } }
}

/** The provider's answer, or undefined when the notification named no payment of the shop. */
export function readAssessmentAnswer(result: WebhookActionResult): AssessmentAnswer | undefined {
  const data = result.data as (Record<string, unknown> & { session_id?: unknown }) | undefined
  if (!data || typeof data.paymentId !== "string" || typeof data.session_id !== "string") return undefined
  const assessment = data.assessment as PaymentAssessment | undefined
  const policy = data.policy as ReconcilePolicy | undefined
  if ((assessment && typeof assessment.outcome !== "string") || !policy || typeof policy.reconcileIntervalSeconds !== "number") {
    return undefined
  }
  return { paymentId: data.paymentId, sessionId: data.session_id, ...(assessment ? { assessment } : {}), policy }
}
