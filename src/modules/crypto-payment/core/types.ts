import type { Coin } from "../../../lib/crypto-api/constants"
import type { CurrencyBalance, MerchantSummary } from "../../../lib/crypto-api/schemas"
import type { LatePayments } from "../../../lib/domain/decision-terms"
import type { PaymentAssessment } from "../../../lib/domain/payment-assessment"
import type { MerchantPolicy } from "../../../lib/domain/merchant-policy"
import type { RatesState } from "../../../lib/domain/exchange-rates/rates-state"
import type { HealthCheck } from "../../../lib/setup-health/checks"
import type { SecretsState } from "../../../lib/domain/secrets-state"
export type { SecretsState, MintingSource } from "../../../lib/domain/secrets-state"
export type { RegionCurrency } from "../../../lib/setup-health/rates-check"

/** What the payment core answers the plugin's routes, job and workflows. */

/**
 * How old a status a caller may use: "fresh" reads now; "webhook" reuses a COMPLETED read younger than
 * statusCacheSeconds (a duplicated notification costs no read); "final" reuses a final status; "shared"
 * also a pending one younger than statusCacheSeconds, or than CHOOSING_SHARE_SECONDS for an open invoice
 * without a coin (storefront polls).
 */
export type Freshness = "fresh" | "webhook" | "final" | "shared"

/** How the plugin reads and schedules payments: the provider's options, handed out with every report. */
export type ReconcilePolicy = {
  reconcileIntervalSeconds: number
  reconcileBatchSize: number
  lateWindowHours: number
  /**
   * The longest a run may hold its payment's lock (its lease is renewed until then): what a capture can
   * spend on service reads (timeouts × attempts + Retry-After waits) and a minute.
   */
  lockSeconds: number
  /** A re-price beyond this share of the creation quote raises the informational quote_drift flag. */
  quoteDriftAlertPercent: number
  /** The merchant's policy in force for this payment's provider (saved setting, else option). */
  underpaymentTolerancePercent?: number
  latePayments?: LatePayments
}

export type PaymentReport = {
  paymentId: string
  sessionId: string
  /** The status read, assessed against what was agreed; absent when the service does not know the payment (404). */
  assessment?: PaymentAssessment
  /** When the service said what the assessment judges (ISO time). */
  readAt?: string
  /** A notification answered with a kept read: the job reads the payment again by then (ISO time). */
  readAgainBy?: string
  policy: ReconcilePolicy
}

/** A remainder's payment id, and its session data when just created. */
export type RemainderAnswer = { paymentId: string; created: boolean; sessionData?: Record<string, unknown> }
export type BalancesAnswer = { summary?: MerchantSummary; balance?: CurrencyBalance }
export type PolicyAnswer = { defaults: MerchantPolicy; effective: MerchantPolicy; lateWindowHours: number }
export type HealthAnswer = { checks: HealthCheck[] }
export type RatesAnswer = { rates: RatesState }
/** Whether a refund-address token emailed before links had secrets is the owed record's. */
export type RefundLinkAnswer = { valid: boolean }
/** Where the provider's API key and webhook secret come from (never a value: the key's last four at most). */
export type SecretsAnswer = { secrets: SecretsState }
/** An API key saved from the admin: its last four, and those of the key it replaced (null: medusa-config's). */
export type ApiKeyAnswer = { lastFour: string; replaced: string | null }
