/**
 * Requests counted per key in a fixed window, bounded in keys (the oldest window is forgotten first):
 * `take(key)` answers whether one more request fits, and if not, the seconds until it would. Per
 * process: several processes each allow the limit.
 */
export class RateWindow {
  private readonly windows = new Map<string, { started: number; count: number }>()

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys = 10_000,
    private readonly now: () => number = () => Date.now()
  ) {}

  take(key: string): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    const now = this.now()
    let window = this.windows.get(key)
    if (!window || now - window.started >= this.windowMs) {
      this.windows.delete(key)
      if (this.windows.size >= this.maxKeys) {
        const oldest = this.windows.keys().next().value
        if (oldest !== undefined) this.windows.delete(oldest)
      }
      window = { started: now, count: 0 }
      this.windows.set(key, window)
    }
    if (window.count >= this.limit)
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((window.started + this.windowMs - now) / 1000)),
      }
    window.count++
    return { allowed: true }
  }

  /** Keys held now (the bound's test). */
  get size(): number {
    return this.windows.size
  }
}
