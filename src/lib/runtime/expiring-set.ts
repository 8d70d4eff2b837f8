/**
 * Keys remembered for a while (unknown payment ids, say), bounded in size: the oldest are
 * forgotten first. Pass `now` to clock it in tests.
 */
export class ExpiringSet {
  private readonly entries = new Map<string, number>()

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    // read at each call, so a faked clock (tests) is seen
    private readonly now: () => number = () => Date.now()
  ) {}

  has(key: string): boolean {
    const expiresAt = this.entries.get(key)
    if (expiresAt === undefined) return false
    if (expiresAt > this.now()) return true
    this.entries.delete(key)
    return false
  }

  add(key: string): void {
    this.entries.delete(key)
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value
      if (oldest !== undefined) this.entries.delete(oldest)
    }
    this.entries.set(key, this.now() + this.ttlMs)
  }
}
