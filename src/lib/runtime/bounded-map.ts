/** The bounds of a BoundedMap: how many entries it holds and how long each lives. */
export type Bounds = {
  /** The most entries held: one more evicts the oldest (the first set). */
  maxEntries: number
  /** How long an entry lives after it was set (a `set` may ask for less, never for more). */
  maxAgeMs: number
}

/**
 * A Map for state that lives as long as the process (caches, remembered ids, rate windows), bounded
 * by size and by age, so that a process running for weeks holds no more than `maxEntries` whatever
 * its traffic. A Map keeps insertion order and `set` re-inserts, so the first key is always the
 * oldest: evicting it is O(1). An entry past its age is dropped when it is read, and the oldest are
 * swept on every `set` while they are past theirs (amortized: each entry is swept once). No timer:
 * nothing keeps the process alive, and tests clock it through `now`.
 *
 * With one age for all entries, insertion order is expiry order and the sweep leaves no expired
 * entry behind the first live one; with shorter ages per `set`, an expired entry behind a live one
 * waits for its read, its eviction or the sweep to reach it (the size bound holds regardless).
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>()

  constructor(
    readonly bounds: Bounds,
    // read at each call, so a faked clock (tests) is seen
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

  /** Entries held now, expired ones not yet swept included (the bound's tests). */
  get size(): number {
    return this.entries.size
  }

  /** The keys held now, oldest first, expired ones not yet swept included (the bound's tests). */
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
