/** The longest wait between two reads of a payment that cannot settle yet. */
export const MAX_READ_DELAY_SECONDS = 24 * 3600

/**
 * An open payment inside its window: every interval. One that cannot settle as it stands: half the time
 * it has been overdue, so reads thin out geometrically, at most a day apart.
 */
export function nextReadDelaySeconds(input: {
  now: Date
  expiresAt?: Date | string | null
  createdAt: Date | string
  outcome: string
  watchLate: boolean
  intervalSeconds: number
}): number {
  const { now, intervalSeconds } = input
  const expiresAt = input.expiresAt ? new Date(input.expiresAt).getTime() : undefined
  const overdue = expiresAt !== undefined && now.getTime() > expiresAt
  if (!overdue && !input.watchLate && input.outcome !== "mismatch") return intervalSeconds
  const since = overdue ? expiresAt! : new Date(input.createdAt).getTime()
  const half = Math.floor((now.getTime() - since) / 2000)
  return Math.min(MAX_READ_DELAY_SECONDS, Math.max(intervalSeconds, half))
}

/** Runs of a payment that may fail in a row (job or webhook) before it is flagged for the admin. */
export const FAILURES_BEFORE_ATTENTION = 3

/** After a failed read: the interval, doubled per consecutive failure, at most an hour. */
export function failedReadDelaySeconds(intervalSeconds: number, failures: number): number {
  return Math.min(3600, intervalSeconds * 2 ** Math.max(0, failures - 1))
}

/** Settled payments are read no more often than this many reconcile intervals. */
export const SETTLED_MIN_INTERVALS = 10
/** …and at least every six hours while watched. */
export const SETTLED_MAX_DELAY_SECONDS = 6 * 3600

/**
 * Half its age, between SETTLED_MIN_INTERVALS intervals and six hours, so a paid order costs about a
 * dozen reads over a day's watch window.
 */
export function settledReadDelaySeconds(input: {
  now: Date
  createdAt: Date | string
  intervalSeconds: number
}): number {
  const half = Math.floor((input.now.getTime() - new Date(input.createdAt).getTime()) / 2000)
  return Math.min(SETTLED_MAX_DELAY_SECONDS, Math.max(SETTLED_MIN_INTERVALS * input.intervalSeconds, half))
}

/**
 * The longest storefront polls share a status read of an invoice whose coin is not chosen yet. The
 * customer chooses on the service's hosted page, which changes no status (nothing says the service
 * notifies it), so the shop learns of it only by reading; shared for statusCacheSeconds, the storefront
 * would ask for a coin already chosen for up to that long. Five seconds is the shortest poll interval
 * docs/storefront.md advises: the poll after the choice, or the one after it, shows the coin.
 */
export const CHOOSING_SHARE_SECONDS = 5

/**
 * Reads a process makes earlier than statusCacheSeconds for invoices without a coin, per provider and
 * minute: ten customers choosing at once, each polled every 5 s. Past it, polls share reads for
 * statusCacheSeconds again, so a client polling many such invoices costs the shop no more than this.
 */
export const CHOOSING_EARLY_READS_PER_MINUTE = 120

/** What `sharedReadSeconds` needs of a payment and its last status read. */
export type SharedRead = {
  kind: "invoice" | "payment"
  status: string
  /** The coin the read names; none while an invoice's customer has not chosen. */
  coin?: string | null
  /** The read's expiry, else the ledger's; unknown counts as expired. */
  expiresAt?: Date | string | null
}

/**
 * How long storefront polls share one status read of a payment: statusCacheSeconds, or
 * CHOOSING_SHARE_SECONDS (when shorter) for an open invoice without a coin before its expiry — while its
 * customer may be choosing. Final reads are never read again for polls whatever this says.
 */
export function sharedReadSeconds(read: SharedRead, cacheSeconds: number, now: Date): number {
  const expiresAt = read.expiresAt ? new Date(read.expiresAt).getTime() : Number.NaN
  const choosing = read.kind === "invoice" && read.status === "PENDING" && !read.coin && now.getTime() < expiresAt
  return choosing ? Math.min(CHOOSING_SHARE_SECONDS, cacheSeconds) : cacheSeconds
}
