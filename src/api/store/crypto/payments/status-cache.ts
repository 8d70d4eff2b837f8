/**
 * One upstream read per key per TTL, shared by every caller: concurrent callers wait on the same
 * promise (single-flight) and later callers get the cached value until it expires. A failed read
 * is not cached; the last good value may be served while the service rate-limits us.
 */
export class SharedReadCache<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number; storedAt: number }>()
  private readonly inFlight = new Map<string, Promise<T>>()

  constructor(
    private readonly ttlMs: (value: T) => number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now
  ) {}

  async get(key: string, read: () => Promise<T>): Promise<{ value: T; cached: boolean; ageMs: number }> {
    const hit = this.entries.get(key)
    const now = this.now()
    if (hit && hit.expiresAt > now) {
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

  /** The last value stored for a key, however old (for answering while the service says 429). */
  stale(key: string): { value: T; ageMs: number } | undefined {
    const hit = this.entries.get(key)
    return hit ? { value: hit.value, ageMs: this.now() - hit.storedAt } : undefined
  }

  private store(key: string, value: T): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value
      if (oldest !== undefined) this.entries.delete(oldest)
    }
    const now = this.now()
    this.entries.delete(key)
    this.entries.set(key, { value, storedAt: now, expiresAt: now + this.ttlMs(value) })
  }
}
