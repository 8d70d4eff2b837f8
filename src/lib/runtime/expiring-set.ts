import { BoundedMap } from "./bounded-map"

/**
 * The most keys an ExpiringSet holds unless told otherwise: ids a stranger can make up by the
 * thousand (unknown payment ids, collections), each a short string, so 10,000 is a few hundred KB
 * at most, and more than one process meets within the short times these sets remember.
 */
export const EXPIRING_SET_MAX_ENTRIES = 10_000

/**
 * Keys remembered for a while (unknown payment ids, say), bounded in size: the oldest are
 * forgotten first. Pass `now` to clock it in tests.
 */
export class ExpiringSet {
  private readonly entries: BoundedMap<string, true>

  constructor(ttlMs: number, maxEntries = EXPIRING_SET_MAX_ENTRIES, now: () => number = () => Date.now()) {
    this.entries = new BoundedMap({ maxEntries, maxAgeMs: ttlMs }, now)
  }

  has(key: string): boolean {
    return this.entries.has(key)
  }

  /** Remembers a key for the set's time to live from now (again, when it was already held). */
  add(key: string): void {
    this.entries.set(key, true)
  }

  /** Keys held now (the bound's tests). */
  get size(): number {
    return this.entries.size
  }
}
