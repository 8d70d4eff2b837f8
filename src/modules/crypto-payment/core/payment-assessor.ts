import type { CryptoApiClient } from "../../../lib/crypto-api/client"
import { CryptoApiError } from "../../../lib/crypto-api/errors"
import type { Freshness, PaymentReport, ReconcilePolicy } from "./types"
import {
  assessPayment,
  expectationOf,
  PaymentAssessment,
  withEarlierPayments,
} from "../../../lib/domain/payment-assessment"
import { isZero } from "../../../lib/domain/owed"
import { earlierIdsOf } from "../../../lib/domain/checkout-payment"
import { noPaymentError, toMedusaError } from "./errors"
import type { TryLedger } from "./try-ledger"
import type { LedgerRow } from "../ledger"
import type { CoreLedger } from "./payment-core"
import type { CryptoOptions } from "./options"
import type { PolicyReads } from "./policy-reads"
import { requiredSessionId } from "./session-data"
import type { StatusReads } from "./status-reads"

/** A ledger payment's status assessed against what was agreed, when the service said it, and whether the ledger's read was reused. */
export type AssessedRow = { assessment: PaymentAssessment; readAt: Date; kept?: true }

type Dependencies = {
  options: CryptoOptions
  client: Pick<CryptoApiClient, "worstReadMs">
  ledger: Pick<CoreLedger, "forSession" | "byPaymentId" | "checkoutOf">
  policies: PolicyReads
  statusReads: StatusReads
  tryLedger: TryLedger
}

/**
 * A ledger row's status, read as fresh as the caller needs, assessed against what the ledger says was
 * agreed, with the merchant policy in force for the row's provider.
 */
export class PaymentAssessor {
  constructor(private readonly deps: Dependencies) {}

  /**
   * The service's status of the payment that pays a session (from the ledger: never from keys in
   * the session data, which the storefront can write), assessed against what was agreed.
   */
  async assessSession(
    data: Record<string, unknown> | undefined,
    freshness: Freshness
  ): Promise<{ row: LedgerRow; assessment: PaymentAssessment }> {
    const sessionId = requiredSessionId(data)
    const row = await this.deps.tryLedger(
      () => this.deps.ledger.forSession(sessionId),
      "read the crypto payment ledger"
    )
    if (!row) throw noPaymentError()
    return { row, assessment: (await this.assessRow(row, freshness)).assessment }
  }

  async assessSessionOrExplain(data: Record<string, unknown> | undefined, freshness: Freshness, action: string) {
    return this.assessSession(data, freshness).catch((error) => {
      throw toMedusaError(error, action)
    })
  }

  /**
   * A remainder is assessed with its checkout (docs/money.md) once that can matter; until then, and for
   * storefront polls, it is assessed alone and nothing more is read.
   */
  async assessRow(row: LedgerRow, freshness: Freshness): Promise<AssessedRow> {
    const own = await this.assessOne(row, freshness)
    if (!row.remainder_of || freshness === "shared") return own
    const { underpaymentTolerancePercent: tolerance = 0 } = await this.deps.tryLedger(
      () => this.deps.policies.policy(row.provider_id),
      "read the crypto payment settings"
    )
    // the checkout matters once the remainder is paid, or expired with coins the tolerance may accept
    const a = own.assessment
    const expiredWithCoins = a.status === "EXPIRED" && !!a.coin && !isZero(a.received) && tolerance > 0
    if (a.outcome !== "paid" && !expiredWithCoins) return own
    const checkout = await this.deps.tryLedger(
      () => this.deps.ledger.checkoutOf(row.payment_id),
      "read the crypto payment ledger"
    )
    if (!checkout || checkout.first.payment_id === row.payment_id)
      return { ...own, assessment: { ...a, outcome: "mismatch", reason: "its first payment is not in the ledger" } }
    // a notification reuses a read within statusCacheSeconds (a burst costs one read); an earlier
    // remainder that expired with nothing received has nothing to add and is not read
    const again = freshness === "webhook" ? "recent" : "fresh"
    const chain = earlierIdsOf([checkout.first, ...checkout.remainders], row.payment_id)
    const earlier = checkout.remainders.filter(
      (r) => chain.includes(r.payment_id) && !(r.status === "EXPIRED" && isZero(r.received_amount ?? "0"))
    )
    const [first, ...others] = await Promise.all(
      [checkout.first, ...earlier].map(async (member) => (await this.assessOne(member, again)).assessment)
    )
    return { ...own, assessment: withEarlierPayments(a, first, others, tolerance) }
  }

  private async assessOne(row: LedgerRow, freshness: Freshness | "recent"): Promise<AssessedRow> {
    const { underpaymentTolerancePercent, latePayments } = await this.deps.tryLedger(
      () => this.deps.policies.policy(row.provider_id),
      "read the crypto payment settings"
    )
    const { record, readAt, kept } = await this.deps.statusReads.status(row, freshness)
    // "fulfil" takes a payment the service keeps EXPIRED with the full amount, inside the late-payment window
    const acceptsLate =
      latePayments === "fulfil" && !!row.watch_until && readAt.getTime() < new Date(row.watch_until).getTime()
    return {
      assessment: assessPayment(record, expectationOf(row), { underpaymentTolerancePercent, acceptsLate }),
      readAt,
      ...(kept ? { kept } : {}),
    }
  }

  /** What the provider reports of a ledger payment: its status assessed against the ledger (none when the service does not know it: 404), and the policy to apply it with. */
  async report(row: LedgerRow, freshness: Freshness): Promise<PaymentReport> {
    const answer = {
      paymentId: row.payment_id,
      sessionId: row.session_id,
      policy: await this.deps.tryLedger(() => this.policyFor(row), "read the crypto payment settings"),
    }
    let assessed: AssessedRow
    try {
      assessed = await this.assessRow(row, freshness)
    } catch (error) {
      if (error instanceof CryptoApiError && error.notFound) return answer
      throw error
    }
    const { assessment, readAt, kept } = assessed
    // a notification answered with a kept read: the job reads again once that read is statusCacheSeconds old
    const readAgainBy =
      kept && freshness === "webhook"
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
