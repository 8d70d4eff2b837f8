import type { CryptoApiClient } from "../../lib/crypto-api/client"
import { CryptoApiError } from "../../lib/crypto-api/errors"
import type { AssessmentAnswer, Freshness, ReconcilePolicy } from "../../lib/internal-request"
import { assessPayment, expectationOf, PaymentAssessment } from "../../lib/payment-decision"
import type { LedgerRow } from "../../modules/crypto-payment/types"
import { LedgerCall, noPaymentError, toMedusaError } from "./errors"
import type { ProviderLedgerCalls } from "./ledger"
import type { CryptoOptions } from "./options"
import type { PolicyReads } from "./policy-reads"
import { requiredSessionId } from "./session-data"
import type { StatusReads } from "./status-reads"

/** A ledger payment's status judged against what was agreed, when the service said it, and whether the ledger's read was reused. */
export type AssessedRow = { assessment: PaymentAssessment; readAt: Date; kept?: true }

type Dependencies = {
  options: CryptoOptions
  client: Pick<CryptoApiClient, "worstReadMs">
  ledger: Pick<ProviderLedgerCalls, "forSession">
  policies: PolicyReads
  statusReads: StatusReads
  ledgerCall: LedgerCall
}

/**
 * The provider's judgement of a payment: the service's status of a ledger row (as fresh as the
 * caller needs), read with the merchant policy in force for the row's provider and judged against
 * what the ledger says was agreed. Checkout, notifications, the job and remainders all ask here.
 */
export class PaymentAssessor {
  constructor(private readonly deps: Dependencies) {}

  /**
   * The service's status of the payment that pays a session (from the ledger: never from keys in
   * the session data, which the storefront can write), judged against what was agreed.
   */
  async assessSession(
    data: Record<string, unknown> | undefined,
    freshness: Freshness
  ): Promise<{ row: LedgerRow; assessment: PaymentAssessment }> {
    const sessionId = requiredSessionId(data)
    const row = await this.deps.ledgerCall(
      () => this.deps.ledger.forSession(sessionId),
      "read the crypto payment ledger"
    )
    if (!row) throw noPaymentError()
    return { row, assessment: (await this.assessRow(row, freshness)).assessment }
  }

  /** assessSession, with a failed read turned into a MedusaError saying what could not be done. */
  async assessSessionOrExplain(data: Record<string, unknown> | undefined, freshness: Freshness, action: string) {
    return this.assessSession(data, freshness).catch((error) => {
      throw toMedusaError(error, action)
    })
  }

  /** The service's status of a ledger payment (as fresh as the caller needs), judged against what the ledger says was agreed. */
  async assessRow(row: LedgerRow, freshness: Freshness): Promise<AssessedRow> {
    const { underpaymentTolerancePercent } = await this.deps.ledgerCall(
      () => this.deps.policies.policy(row.provider_id),
      "read the crypto payment settings"
    )
    const { record, readAt, kept } = await this.deps.statusReads.status(row, freshness)
    return {
      assessment: assessPayment(record, expectationOf(row), { underpaymentTolerancePercent }),
      readAt,
      ...(kept ? { kept } : {}),
    }
  }

  /** The payment's status judged against the ledger; a payment the service does not know (404) is answered without one. */
  async assessmentAnswer(row: LedgerRow, freshness: Freshness): Promise<AssessmentAnswer & { amount: string }> {
    const answer = {
      paymentId: row.payment_id,
      sessionId: row.session_id,
      amount: row.base_amount,
      policy: await this.deps.ledgerCall(() => this.policyFor(row), "read the crypto payment settings"),
    }
    let assessed: AssessedRow
    try {
      assessed = await this.assessRow(row, freshness)
    } catch (error) {
      if (error instanceof CryptoApiError && error.notFound) return answer
      throw error
    }
    const { assessment, readAt, kept } = assessed
    // news answered with a kept read: the job reads again once that read is statusCacheSeconds old
    const readAgainBy =
      kept && freshness === "news"
        ? {
            readAgainBy: new Date(readAt.getTime() + this.deps.options.statusCacheSeconds * 1000).toISOString(),
          }
        : {}
    return { ...answer, assessment, readAt: readAt.toISOString(), ...readAgainBy }
  }

  /** How the plugin reads and schedules the row's payment: the merchant policy in force and the provider's options. */
  async policyFor(row: LedgerRow): Promise<ReconcilePolicy> {
    const merchant = await this.deps.policies.policy(row.provider_id)
    const { options } = this.deps
    return {
      ...merchant,
      reconcileIntervalSeconds: options.reconcileIntervalSeconds,
      reconcileBatchSize: options.reconcileBatchSize,
      lateWindowHours: options.lateWindowHours,
      // at worst a capture reads the status twice (authorize, capture: when the ledger holds no final read);
      // a minute for the database work
      lockSeconds: Math.ceil((2 * this.deps.client.worstReadMs) / 1000) + 60,
      quoteDriftAlertPercent: options.quoteDriftAlertPercent,
    }
  }
}
