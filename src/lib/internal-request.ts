import type { ProviderWebhookPayload, WebhookActionResult } from "@medusajs/framework/types"
import type { PaymentAssessment } from "./payment-decision"
import { Coin, isCoin } from "./crypto-api/constants"
import type { CurrencyBalance, MerchantSummary } from "./crypto-api/schemas"

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

/**
 * How old a status a caller may use:
 * - "fresh": read the service now. The job and the admin's re-check ask because something may
 *   have changed; what they read is then shared with everyone else.
 * - "news": a webhook. Read now, unless the ledger holds COMPLETED: nothing follows it, so a
 *   retried or duplicated notification costs no read (after EXPIRED or FAILED a late payment may).
 * - "final": a final status (COMPLETED, EXPIRED, FAILED: final in the spec) the ledger holds is
 *   reused, from any process; anything else is read now. Checkout: authorize and capture.
 * - "shared": like "final", and also a pending status read less than statusCacheSeconds ago, by any
 *   process; concurrent callers in a process share one read. Storefront polls, retrieve, status.
 */
export type Freshness = "fresh" | "news" | "final" | "shared"
const FRESHNESS: readonly Freshness[] = ["fresh", "news", "final", "shared"]

export type AssessRequest = { op: "assess"; paymentId: string; freshness: Freshness }
/** The merchant's balances at the service (all coins, or one). */
export type BalancesRequest = { op: "balances"; currency?: Coin }
export type InternalRequest = AssessRequest | BalancesRequest

function internalPayload(request: InternalRequest): ProviderWebhookPayload["payload"] {
  return { data: { ...request, [INTERNAL_REQUEST]: true }, rawData: "", headers: {} }
}

export const assessPayload = (paymentId: string, freshness: Freshness = "fresh") =>
  internalPayload({ op: "assess", paymentId, freshness })
export const balancesPayload = (currency?: Coin) =>
  internalPayload({ op: "balances", ...(currency ? { currency } : {}) })

export function readInternalRequest(data: unknown): InternalRequest | undefined {
  if (!data || typeof data !== "object" || (data as Record<symbol, unknown>)[INTERNAL_REQUEST] !== true)
    return undefined
  const { op, paymentId, currency, freshness } = data as {
    op?: unknown
    paymentId?: unknown
    currency?: unknown
    freshness?: unknown
  }
  if (op === "assess" && typeof paymentId === "string")
    return { op, paymentId, freshness: FRESHNESS.find((f) => f === freshness) ?? "fresh" }
  if (op === "balances") return { op, ...(isCoin(currency) ? { currency } : {}) }
  return undefined
}

/** The provider's answer to a balances request. */
export type BalancesAnswer = { summary?: MerchantSummary; balance?: CurrencyBalance }

export function balancesResult(answer: BalancesAnswer): WebhookActionResult {
  // not a payment event: the action says so, the answer travels in data
  return { action: "not_supported", data: { session_id: "", amount: 0, ...answer } }
}

export function readBalancesAnswer(result: WebhookActionResult): BalancesAnswer {
  const data = (result.data ?? {}) as BalancesAnswer
  return { ...(data.summary ? { summary: data.summary } : {}), ...(data.balance ? { balance: data.balance } : {}) }
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
  /** When the service said what the assessment judges (ISO time). */
  readAt?: string
  policy: ReconcilePolicy
}

export function assessmentResult(
  action: WebhookActionResult["action"],
  answer: AssessmentAnswer & { amount: string }
): WebhookActionResult {
  const { amount, sessionId, ...rest } = answer
  return { action, data: { session_id: sessionId, amount, ...rest } }
}

/** The provider's answer, or undefined when the notification named no payment of the shop. */
export function readAssessmentAnswer(result: WebhookActionResult): AssessmentAnswer | undefined {
  const data = result.data as (Record<string, unknown> & { session_id?: unknown }) | undefined
  if (!data || typeof data.paymentId !== "string" || typeof data.session_id !== "string") return undefined
  const assessment = data.assessment as PaymentAssessment | undefined
  const policy = data.policy as ReconcilePolicy | undefined
  const readAt = typeof data.readAt === "string" ? data.readAt : undefined
  if (
    (assessment && typeof assessment.outcome !== "string") ||
    !policy ||
    typeof policy.reconcileIntervalSeconds !== "number"
  ) {
    return undefined
  }
  return {
    paymentId: data.paymentId,
    sessionId: data.session_id,
    ...(assessment ? { assessment } : {}),
    ...(readAt ? { readAt } : {}),
    policy,
  }
}
