export type Bounds = {
  /** The most entries held: one more evicts the oldest (the first set). */
  maxEntries: number
  /** How long an entry lives after it was set (a `set` may ask for less, never for more). */
  maxAgeMs: number
}

/**
 * Process-lifetime state bounded by size and age, so a process running for weeks holds no more than
 * `maxEntries`. `set` re-inserts, so the first key is the oldest and eviction is O(1). No timer: nothing
 * keeps the process alive.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>()

  constructor(
    readonly bounds: Bounds,
    // injectable; read at each call
    private readonly now: () => number = () => Date.now()
  ) {
    if (!(bounds.maxEntries >= 1) || !(bounds.maxAgeMs > 0))
      throw new Error(`a bounded map needs maxEntries ≥ 1 and maxAgeMs > 0 (got ${JSON.stringify(bounds)})`)
  }

  /** The value of a live entry; an expired one is dropped. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    if (entry.expiresAt > this.now()) return entry.value
    this.entries.delete(key)
    return undefined
  }

  has(key: K): boolean {
    return this.get(key) !== undefined
  }

  /** Sets a key as the newest entry, living `maxAgeMs` (at most the map's), evicting the oldest when full. */
  set(key: K, value: V, maxAgeMs = this.bounds.maxAgeMs): this {
    const now = this.now()
    this.entries.delete(key)
    this.sweep(now)
    while (this.entries.size >= this.bounds.maxEntries) {
      const oldest = this.entries.keys().next()
      if (oldest.done) break
      this.entries.delete(oldest.value)
    }
    this.entries.set(key, { value, expiresAt: now + Math.min(maxAgeMs, this.bounds.maxAgeMs) })
    return this
  }

  delete(key: K): boolean {
    return this.entries.delete(key)
  }

  /** Expired entries not yet swept included. */
  get size(): number {
    return this.entries.size
  }

  /** Oldest first, expired entries not yet swept included. */
  keys(): IterableIterator<K> {
    return this.entries.keys()
  }

  /** Drops the oldest entries while they are past their age. */
  private sweep(now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt > now) return
      this.entries.delete(key)
    }
  }
}
