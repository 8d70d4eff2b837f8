import { BoundedMap } from "./bounded-map"

/**
 * Strangers make ids up by the thousand; 10,000 short strings are a few hundred KB, and more than a
 * process meets within the short times these sets remember.
 */
export const EXPIRING_SET_MAX_ENTRIES = 10_000

/** Keys remembered for a while (unknown payment ids, say), bounded in size: the oldest are forgotten first. */
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

  get size(): number {
    return this.entries.size
  }
}
