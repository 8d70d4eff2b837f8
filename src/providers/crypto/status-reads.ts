import { FINAL_STATUSES } from "../../lib/crypto-api/constants"
import type { Freshness } from "../../lib/internal-request"
import { StatusRecord, statusRecordSchema } from "../../lib/crypto-api/schemas"
import { SharedReadCache } from "../../lib/status-cache"
import type { LedgerRow } from "../../modules/crypto-payment/types"

export type StatusRead = { record: StatusRecord; readAt: Date }

/** How long this process keeps a final status in memory (the ledger keeps it for good). */
const FINAL_IN_MEMORY_MS = 10 * 60_000

type Dependencies = {
  read: (paymentId: string) => Promise<StatusRecord>
  /** Writes a final record to the ledger; a failure there costs only a later read, so it is reported, not thrown. */
  keepFinal: (paymentId: string, final: { record: StatusRecord; readAt: string }) => Promise<void>
  onKeepFailed: (paymentId: string, error: unknown) => void
  cacheSeconds: number
  now?: () => number
}

/** The provider's status reads: every read the service answers is kept for the callers that may reuse it. */
export class StatusReads {
  private readonly recent: SharedReadCache<StatusRead>

  constructor(private readonly deps: Dependencies) {
    this.recent = new SharedReadCache<StatusRead>((read) => (isFinal(read.record) ? FINAL_IN_MEMORY_MS : deps.cacheSeconds * 1000), undefined, deps.now)
  }

  async status(row: LedgerRow, freshness: Freshness): Promise<StatusRead> {
    const kept = keptFinal(row)
    if (kept && (freshness === "final" || freshness === "shared" || (freshness === "news" && kept.record.status === "COMPLETED"))) {
      return kept
    }
    if (freshness === "shared") {
      return (await this.recent.get(row.payment_id, () => this.readNow(row))).value
    }
    const read = await this.readNow(row)
    this.recent.set(row.payment_id, read)
    return read
  }

  private async readNow(row: LedgerRow): Promise<StatusRead> {
    const record = await this.deps.read(row.payment_id)
    const read = { record, readAt: new Date(this.deps.now?.() ?? Date.now()) }
    if (isFinal(record) && JSON.stringify(keptFinal(row)?.record) !== JSON.stringify(record)) {
      await this.deps.keepFinal(row.payment_id, { record, readAt: read.readAt.toISOString() }).catch((error) => this.deps.onKeepFailed(row.payment_id, error))
    }
    return read
  }
}

const isFinal = (record: StatusRecord) => FINAL_STATUSES.includes(record.status)

/** The final record the ledger holds for a payment, when it holds a valid one. */
function keptFinal(row: LedgerRow): StatusRead | undefined {
  const kept = row.final_record
  if (!kept || typeof kept.readAt !== "string") return undefined
  const parsed = statusRecordSchema.safeParse(kept.record)
  const readAt = new Date(kept.readAt)
  if (!parsed.success || !isFinal(parsed.data) || Number.isNaN(readAt.getTime())) return undefined
  return { record: parsed.data, readAt }
}
