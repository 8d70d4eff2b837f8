import type { ProviderWebhookPayload, WebhookActionResult } from "@medusajs/framework/types"
import type { LatePayments, PaymentAssessment } from "./domain/payment-decision"
import type { MerchantPolicy } from "./domain/merchant-policy"
import type { HealthCheck } from "./setup-health/checks"
import type { RatesState } from "./domain/exchange-rates/rates-state"
import { Coin, isCoin } from "./crypto-api/constants"
import type { CurrencyBalance, MerchantSummary } from "./crypto-api/schemas"

/**
 * The plugin's routes, workflow and job reach the crypto provider (which holds the options, the
 * secret and the client) through the payment module's getWebhookActionAndData, in two ways:
 *
 * - a webhook that reached the plugin's token route: the URL's token and the body, which the
 *   provider verifies and answers with the payment's real status (a bad token throws UNAUTHORIZED);
 * - "assess this payment of the ledger".
 *
 * Every request is branded with a registered symbol that no HTTP body or header can carry, so a
 * request arriving through Medusa's public /hooks/payment route can never pose as one (a token in
 * a header there is just a header). Both answer the same typed shape, read back with
 * `readAssessmentAnswer`, whose action never asks Medusa's core to capture: the plugin's workflow
 * applies the decision, under its lock.
 */
export const INTERNAL_REQUEST = Symbol.for("medusa-payment-crypto.internal-request")

/**
 * How old a status a caller may use:
 * - "fresh": read the service now. The job and the admin's re-check ask because something may
 *   have changed; what they read is then shared with everyone else.
 * - "news": a webhook. Read now, unless the ledger holds COMPLETED read less than statusCacheSeconds
 *   ago: a retried or duplicated notification costs no read, and money sent after the completion is
 *   still seen (the job reads it once that time has passed). Notifications that arrive while a read
 *   is under way in the process share it.
 * - "final": a final status (COMPLETED, EXPIRED, FAILED: final in the spec) the ledger holds is
 *   reused, from any process; anything else is read now. Checkout: authorize and capture.
 * - "shared": like "final", and also a pending status read less than statusCacheSeconds ago, by any
 *   process; concurrent callers in a process share one read. Storefront polls, retrieve, status.
 */
export type Freshness = "fresh" | "news" | "final" | "shared"
const FRESHNESS: readonly Freshness[] = ["fresh", "news", "final", "shared"]

export type AssessRequest = { op: "assess"; paymentId: string; freshness: Freshness }
/** The admin asks for the remainder of a short payment that expired. */
export type RemainderRequest = { op: "remainder"; paymentId: string }
/** A notification at the plugin's webhook URL: the token from its path, the body as a hint. */
export type WebhookRequest = { op: "webhook"; token: string; body: unknown }
/** The merchant's balances at the service (all coins, or one). */
export type BalancesRequest = { op: "balances"; currency?: Coin }
/** The provider's policy defaults (its options) and the one in force; `refresh` drops the process's saved-setting cache. */
export type PolicyRequest = { op: "policy"; providerId: string; refresh: boolean }
/**
 * The provider's own setup checks: API key accepted, webhook URL, provider id, and whether the store
 * currencies of the regions it is enabled in can be priced.
 */
export type HealthRequest = { op: "health"; providerId: string; regions: RegionCurrency[] }
/** A region the provider is enabled in, and its currency. */
export type RegionCurrency = { name: string; currency: string }
/** The provider's exchange rates: "state" (the policy panel, the health), "refresh" (the job: fetch when due). */
export type RatesRequest = { op: "rates"; action: "state" | "refresh" }
export type InternalRequest =
  AssessRequest | BalancesRequest | WebhookRequest | RemainderRequest | PolicyRequest | HealthRequest | RatesRequest

function internalPayload(request: InternalRequest): ProviderWebhookPayload["payload"] {
  return { data: { ...request, [INTERNAL_REQUEST]: true }, rawData: "", headers: {} }
}

export const assessPayload = (paymentId: string, freshness: Freshness = "fresh") =>
  internalPayload({ op: "assess", paymentId, freshness })
export const webhookPayload = (token: string, body: unknown) => internalPayload({ op: "webhook", token, body })
export const remainderPayload = (paymentId: string) => internalPayload({ op: "remainder", paymentId })
export const balancesPayload = (currency?: Coin) =>
  internalPayload({ op: "balances", ...(currency ? { currency } : {}) })
export const policyPayload = (providerId: string, refresh = false) =>
  internalPayload({ op: "policy", providerId, refresh })
export const healthPayload = (providerId: string, regions: RegionCurrency[] = []) =>
  internalPayload({ op: "health", providerId, regions })
export const ratesPayload = (action: RatesRequest["action"]) => internalPayload({ op: "rates", action })

const RATES_ACTIONS: readonly RatesRequest["action"][] = ["state", "refresh"]

function regionsOf(value: unknown): RegionCurrency[] {
  if (!Array.isArray(value)) return []
  return value.filter((r): r is RegionCurrency => !!r && typeof r.name === "string" && typeof r.currency === "string")
}

export function readInternalRequest(data: unknown): InternalRequest | undefined {
  if (!data || typeof data !== "object" || (data as Record<symbol, unknown>)[INTERNAL_REQUEST] !== true)
    return undefined
  const { op, paymentId, currency, freshness, token, body, providerId, refresh, regions, action } = data as {
    op?: unknown
    regions?: unknown
    action?: unknown
    providerId?: unknown
    refresh?: unknown
    paymentId?: unknown
    currency?: unknown
    freshness?: unknown
    token?: unknown
    body?: unknown
  }
  if (op === "assess" && typeof paymentId === "string")
    return { op, paymentId, freshness: FRESHNESS.find((f) => f === freshness) ?? "fresh" }
  if (op === "balances") return { op, ...(isCoin(currency) ? { currency } : {}) }
  if (op === "webhook" && typeof token === "string") return { op, token, body }
  if (op === "remainder" && typeof paymentId === "string") return { op, paymentId }
  if (op === "policy" && typeof providerId === "string") return { op, providerId, refresh: refresh === true }
  if (op === "health" && typeof providerId === "string") return { op, providerId, regions: regionsOf(regions) }
  const ratesAction = RATES_ACTIONS.find((a) => a === action)
  if (op === "rates" && ratesAction) return { op, action: ratesAction }
  return undefined
}

/** The provider's answer to a balances request. */
export type BalancesAnswer = { summary?: MerchantSummary; balance?: CurrencyBalance }

export function balancesResult(answer: BalancesAnswer): WebhookActionResult {
  // not a payment event: the action says so, the answer travels in data
  return { action: "not_supported", data: { session_id: "", amount: 0, ...answer } }
}

/** The provider's answer to a remainder request: the remainder's payment id, and its session data when just created. */
export type RemainderAnswer = { paymentId: string; created: boolean; sessionData?: Record<string, unknown> }

export function remainderResult(sessionId: string, answer: RemainderAnswer): WebhookActionResult {
  // not a payment event either: the answer travels in data
  return { action: "not_supported", data: { session_id: sessionId, amount: 0, remainder: answer } as never }
}

export function readRemainderAnswer(result: WebhookActionResult): RemainderAnswer | undefined {
  const remainder = (result.data as { remainder?: RemainderAnswer } | undefined)?.remainder
  return remainder && typeof remainder.paymentId === "string" ? remainder : undefined
}

export function readBalancesAnswer(result: WebhookActionResult): BalancesAnswer {
  const data = (result.data ?? {}) as BalancesAnswer
  return { ...(data.summary ? { summary: data.summary } : {}), ...(data.balance ? { balance: data.balance } : {}) }
}

/** The provider's answer to a policy request: its options' policy, the one in force, and the late-payment window. */
export type PolicyAnswer = { defaults: MerchantPolicy; effective: MerchantPolicy; lateWindowHours: number }

/** The provider's answer to a health request. */
export type HealthAnswer = { checks: HealthCheck[] }

/** The provider's answer to a rates request. */
export type RatesAnswer = { rates: RatesState }

/** An answer that is not about a payment (balances, policy, health): the action says so, the answer travels in data. */
export function notAPaymentResult<T extends object>(key: string, answer: T): WebhookActionResult {
  return { action: "not_supported", data: { session_id: "", amount: 0, [key]: answer } as never }
}

/** The answer under `key` of notAPaymentResult, or undefined. */
export function readNotAPayment<T>(result: WebhookActionResult, key: string): T | undefined {
  const answer = (result.data as Record<string, unknown> | undefined)?.[key]
  return answer && typeof answer === "object" ? (answer as T) : undefined
}

/** How the plugin reads and schedules payments: the provider's options, handed out with every answer. */
export type ReconcilePolicy = {
  reconcileIntervalSeconds: number
  reconcileBatchSize: number
  lateWindowHours: number
  /** The longest a capture can spend on service reads (timeouts × attempts + Retry-After waits). */
  lockSeconds: number
  /** A re-price beyond this share of the creation quote raises the informational quote_drift flag. */
  quoteDriftAlertPercent: number
  /** The merchant's policy in force for this payment's provider (saved setting, else option). */
  underpaymentTolerancePercent?: number
  latePayments?: LatePayments
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
  /** A notification answered with a kept read: the job reads the payment again by then (ISO time). */
  readAgainBy?: string
  policy: ReconcilePolicy
}

/** An answer about a payment: its action is never one that makes Medusa's core capture or authorize. */
export function assessmentResult(answer: AssessmentAnswer & { amount: string }): WebhookActionResult {
  const { amount, sessionId, ...rest } = answer
  return { action: "not_supported", data: { session_id: sessionId, amount, ...rest } }
}

/** The provider's answer, or undefined when the notification named no payment of the shop. */
export function readAssessmentAnswer(result: WebhookActionResult): AssessmentAnswer | undefined {
  const data = result.data as (Record<string, unknown> & { session_id?: unknown }) | undefined
  if (!data || typeof data.paymentId !== "string" || typeof data.session_id !== "string") return undefined
  const assessment = data.assessment as PaymentAssessment | undefined
  const policy = data.policy as ReconcilePolicy | undefined
  const readAt = typeof data.readAt === "string" ? data.readAt : undefined
  const readAgainBy = typeof data.readAgainBy === "string" ? data.readAgainBy : undefined
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
    ...(readAgainBy ? { readAgainBy } : {}),
    policy,
  }
}
