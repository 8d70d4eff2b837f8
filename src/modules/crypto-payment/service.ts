import { MedusaService } from "@medusajs/framework/utils"
import CryptoPayment from "./models/crypto-payment"
import type { LedgerFlag } from "./types"
import type { ReconcilePolicy } from "../../lib/internal-request"
import { nextReadDelaySeconds } from "../../lib/read-schedule"

type Page = { take?: number; skip?: number }

/**
 * The ledger of crypto payments: one row per invoice or payment the shop created at the service,
 * its latest status, its flags, what was applied in Medusa and when to read it again.
 */
class CryptoPaymentModuleService extends MedusaService({
  CryptoPayment,
}) {
  /** Reconciliation is paused until then (the service answered 429 with Retry-After). */
  protected pausedUntil_ = 0
  /** The provider's policy as its last answer stated it (reconciliation learns its budget from it). */
  protected policy_: ReconcilePolicy | undefined

  async retrieveByPaymentId(paymentId: string) {
    const [row] = await this.listCryptoPayments({ payment_id: paymentId }, { take: 1 })
    return row
  }

  /** The ledger rows of an order: what paid it, and what arrived late, short or twice for it. */
  async listForOrder(orderId: string, page: Page = {}) {
    return this.listCryptoPayments(
      { order_id: orderId },
      { order: { created_at: "DESC" }, take: page.take ?? 50, skip: page.skip }
    )
  }

  /** Rows carrying a flag, newest first. */
  async listByFlag(flag: LedgerFlag, page: Page = {}) {
    return this.listAndCountCryptoPayments(
      { [flag]: true },
      { order: { created_at: "DESC" }, take: page.take ?? 50, skip: page.skip }
    )
  }

  /**
   * The payments due for a status read, oldest due first, at most `limit`: a range scan of the
   * (settled, next_check_at) index, whatever the size of the ledger.
   */
  async listDue(now: Date, limit: number) {
    return this.listCryptoPayments(
      { settled: false, next_check_at: { $lte: now } },
      { select: ["id", "payment_id", "provider_id", "check_failures"], order: { next_check_at: "ASC" }, take: limit }
    )
  }

  /**
   * The service answered 404 for a payment the shop created: flagged for attention (logged once),
   * read again with a growing interval, and no more after its late-payment window.
   */
  async recordMissing(paymentId: string, intervalSeconds: number, now = new Date()) {
    const row = await this.retrieveByPaymentId(paymentId)
    const warned = { ...((row.warned as Record<string, string> | null) ?? {}) }
    const firstTime = !warned.missing
    warned.missing ??= now.toISOString()
    const settled = !!row.watch_until && now > new Date(row.watch_until)
    const delay = nextReadDelaySeconds({
      now,
      expiresAt: row.expires_at,
      createdAt: row.created_at,
      outcome: "mismatch",
      watchLate: false,
      intervalSeconds,
    })
    await this.updateCryptoPayments({
      id: row.id,
      needs_attention: true,
      attention: "The payment service does not know this payment (404). Check it on the service's dashboard.",
      warned,
      settled,
      last_checked_at: now,
      next_check_at: settled ? null : new Date(now.getTime() + delay * 1000),
      check_failures: 0,
    })
    return { row, firstTime }
  }

  pauseReconciliation(until: number): void {
    this.pausedUntil_ = Math.max(this.pausedUntil_, until)
  }

  reconciliationPausedUntil(): number {
    return this.pausedUntil_
  }

  rememberPolicy(policy: ReconcilePolicy): void {
    this.policy_ = policy
  }

  knownPolicy(): ReconcilePolicy | undefined {
    return this.policy_
  }
}

export default CryptoPaymentModuleService
