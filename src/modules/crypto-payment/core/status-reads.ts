import { FINAL_STATUSES } from "../../../lib/crypto-api/constants"
import { CHOOSING_EARLY_READS_PER_MINUTE, sharedReadSeconds } from "../../../lib/domain/read-schedule"
import type { Freshness } from "./types"
import { StatusRecord, statusRecordSchema } from "../../../lib/crypto-api/schemas"
import type { LedgerRow } from "../ledger"

export type StatusRead = {
  record: StatusRecord
  readAt: Date
  /** Reused from the ledger, not read now. */ kept?: true
}

type Dependencies = {
  read: (paymentId: string) => Promise<StatusRecord>
  /**
   * Writes a read to the ledger (`last_read`), unless it holds a newer one. A failure costs only a
   * later read, so it is reported, not thrown.
   */
  keepRead: (paymentId: string, read: { record: StatusRecord; readAt: string }) => Promise<void>
  onKeepFailed: (paymentId: string, error: unknown) => void
  cacheSeconds: number
  now?: () => number
}

/**
 * The provider's status reads. Every answer of the service is kept in the ledger with its time, so
 * every process reuses it as far as the caller's Freshness allows. Concurrent shared callers in a
 * process wait on one read.
 */
export class StatusReads {
  /** Reads under way, shared: each lives as long as its promise (removed once it settles, however). */
  private readonly inFlight = new Map<string, Promise<StatusRead>>()
  /** Reads made earlier than statusCacheSeconds for invoices without a coin, in the current minute. */
  private earlyReads = { since: 0, made: 0 }

  constructor(private readonly deps: Dependencies) {}

  get readsInFlight(): number {
    return this.inFlight.size
  }

  /** `recent`: any read younger than statusCacheSeconds (a remainder's first payment, read with it). */
  async status(row: LedgerRow, freshness: Freshness | "recent"): Promise<StatusRead> {
    const kept = keptRead(row)
    if (kept && this.reusable(row, kept, freshness)) return { ...kept, kept: true }
    // polls and notifications that arrive while a read is under way share it (a burst of duplicate
    // webhooks costs one read); the job, the admin and checkout read on their own
    if (freshness === "fresh" || freshness === "final") return this.readNow(row.payment_id)
    let pending = this.inFlight.get(row.payment_id)
    if (!pending) {
      pending = this.readNow(row.payment_id).finally(() => this.inFlight.delete(row.payment_id))
      this.inFlight.set(row.payment_id, pending)
    }
    return pending
  }

  private reusable(row: LedgerRow, read: StatusRead, freshness: Freshness | "recent"): boolean {
    switch (freshness) {
      case "recent":
        return this.now() - read.readAt.getTime() < this.deps.cacheSeconds * 1000
      case "fresh":
        return false
      case "webhook":
        return read.record.status === "COMPLETED" && this.now() - read.readAt.getTime() < this.deps.cacheSeconds * 1000
      case "final":
        return isFinal(read.record)
      case "shared":
        return isFinal(read.record) || !this.sharedReadIsOld(row, read)
    }
  }

  /**
   * Older than statusCacheSeconds, or older than the shorter window of an invoice whose customer may be
   * choosing its coin, while the minute's early reads last (a read under way is joined, not counted).
   */
  private sharedReadIsOld(row: LedgerRow, read: StatusRead): boolean {
    const now = this.now()
    const age = now - read.readAt.getTime()
    if (age >= this.deps.cacheSeconds * 1000) return true
    const { record } = read
    const window = sharedReadSeconds(
      { kind: row.kind, status: record.status, coin: record.currency, expiresAt: record.expiresAt ?? row.expires_at },
      this.deps.cacheSeconds,
      new Date(now)
    )
    if (age < window * 1000) return false
    if (this.inFlight.has(row.payment_id)) return true
    if (now - this.earlyReads.since >= 60_000) this.earlyReads = { since: now, made: 0 }
    if (this.earlyReads.made >= CHOOSING_EARLY_READS_PER_MINUTE) return false
    this.earlyReads.made++
    return true
  }

  private async readNow(paymentId: string): Promise<StatusRead> {
    const record = await this.deps.read(paymentId)
    const read = { record, readAt: new Date(this.now()) }
    await this.deps
      .keepRead(paymentId, { record, readAt: read.readAt.toISOString() })
      .catch((error) => this.deps.onKeepFailed(paymentId, error))
    return read
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now()
  }
}

const isFinal = (record: StatusRecord) => FINAL_STATUSES.includes(record.status)

/** The last read the ledger holds for a payment, when it holds a valid one. */
function keptRead(row: LedgerRow): StatusRead | undefined {
  const kept = row.last_read
  if (!kept || typeof kept.readAt !== "string") return undefined
  const parsed = statusRecordSchema.safeParse(kept.record)
  const readAt = new Date(kept.readAt)
  if (!parsed.success || Number.isNaN(readAt.getTime())) return undefined
  return { record: parsed.data, readAt }
}
