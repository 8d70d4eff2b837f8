import { BoundedMap } from "./bounded-map"

/**
 * Anyone can make new keys, so callers shape them (a digest, a validated address, never a raw path
 * segment); 10,000 such windows stay within a few megabytes, and a key forgotten early only gets a
 * fresh window.
 */
export const RATE_WINDOW_MAX_KEYS = 10_000

type Window = { started: number; count: number }

/** Requests counted per key in a fixed window. Per process: several processes each allow the limit. */
export class RateWindow {
  private readonly windows: BoundedMap<string, Window>

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    maxKeys = RATE_WINDOW_MAX_KEYS,
    private readonly now: () => number = () => Date.now()
  ) {
    this.windows = new BoundedMap({ maxEntries: maxKeys, maxAgeMs: windowMs }, now)
  }

  take(key: string): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    let window = this.windows.get(key)
    if (!window) {
      window = { started: this.now(), count: 0 }
      this.windows.set(key, window)
    }
    const full = this.fullness(window)
    if (!full.allowed) return full
    window.count++
    return full
  }

  /** Whether one more request would fit, charging nothing and keeping no key. */
  peek(key: string): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    const window = this.windows.get(key)
    return window ? this.fullness(window) : { allowed: true }
  }

  private fullness(window: Window): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    if (window.count < this.limit) return { allowed: true }
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((window.started + this.windowMs - this.now()) / 1000)),
    }
  }

  get size(): number {
    return this.windows.size
  }

  get keyLength(): number {
    let length = 0
    for (const key of this.windows.keys()) length += key.length
    return length
  }
}
