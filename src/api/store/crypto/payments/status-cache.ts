import { BoundedMap } from "../../../../lib/runtime/bounded-map"

/** One key per payment polled: 10,000 views are a few MB, and a key evicted early only costs one more read. */
export const SHARED_READ_MAX_ENTRIES = 10_000

/**
 * Kept for `stale` through a rate-limit pause of the service (Retry-After is a minute at most) with room
 * to spare; a status a quarter of an hour old is no answer.
 */
export const STALE_KEEP_MS = 15 * 60_000

/**
 * One upstream read per key per TTL, shared by every caller (single-flight). A failed read is not
 * cached; the last good value may be served while the service rate-limits us.
 */
export class SharedReadCache<T> {
  private readonly entries: BoundedMap<string, { value: T; freshUntil: number; storedAt: number }>
  private readonly inFlight = new Map<string, Promise<T>>()

  constructor(
    private readonly ttlMs: (value: T) => number,
    maxEntries = SHARED_READ_MAX_ENTRIES,
    private readonly now: () => number = Date.now,
    staleKeepMs = STALE_KEEP_MS
  ) {
    this.entries = new BoundedMap({ maxEntries, maxAgeMs: staleKeepMs }, () => this.now())
  }

  async get(key: string, read: () => Promise<T>): Promise<{ value: T; cached: boolean; ageMs: number }> {
    const hit = this.entries.get(key)
    const now = this.now()
    if (hit && hit.freshUntil > now) {
      return { value: hit.value, cached: true, ageMs: now - hit.storedAt }
    }
    let pending = this.inFlight.get(key)
    const leader = !pending
    if (!pending) {
      pending = read().finally(() => this.inFlight.delete(key))
      this.inFlight.set(key, pending)
    }
    const value = await pending
    if (leader) this.store(key, value)
    return { value, cached: !leader, ageMs: 0 }
  }

  /** The last value stored for a key, up to STALE_KEEP_MS old (for answering while the service says 429). */
  stale(key: string): { value: T; ageMs: number } | undefined {
    const hit = this.entries.get(key)
    return hit ? { value: hit.value, ageMs: this.now() - hit.storedAt } : undefined
  }

  get size(): { entries: number; inFlight: number } {
    return { entries: this.entries.size, inFlight: this.inFlight.size }
  }

  private store(key: string, value: T): void {
    const now = this.now()
    this.entries.set(key, { value, storedAt: now, freshUntil: now + this.ttlMs(value) })
  }
}
