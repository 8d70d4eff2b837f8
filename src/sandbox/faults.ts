import type { ServerResponse } from "node:http"
import { fail, sendText } from "./http"

export type RateLimit = { limit: number; windowMs: number }

export type FaultKind = "error" | "rate_limit" | "hang" | "malformed"
export const FAULT_KINDS: readonly FaultKind[] = ["error", "rate_limit", "hang", "malformed"]

export type Fault = {
  id: number
  kind: FaultKind
  /** Substring of the request path (without the query) the fault applies to. */
  path: string
  method?: string
  status?: number
  retryAfter?: number
  /** Matching requests let through before the fault starts (to fail, say, the second status read). */
  skip?: number
  times: number
}

/** Random faults on a share of the service's requests (seeded, so a run can be repeated). */
export type Chaos = { rate: number; kinds: FaultKind[]; path: string; seed: number }

/**
 * What goes wrong on the service's endpoints, set by tests over the control API: queued faults,
 * seeded chaos, a rate limit, and the responses left hanging (so that closing can end them).
 */
export class FaultInjector {
  faults: Fault[] = []
  chaos: (Chaos & { random: () => number }) | null = null
  rateLimit: RateLimit | null
  private nextFaultId = 1
  private rateWindow = { start: Date.now(), count: 0 }
  private readonly hanging = new Set<ServerResponse>()

  /** `initialRateLimit` is the one the sandbox was started with, restored by reset(). */
  constructor(private readonly initialRateLimit: RateLimit | null) {
    this.rateLimit = initialRateLimit
  }

  /** The fault to answer a request with: a queued one first, else maybe one of chaos. */
  take(method: string, path: string): Fault | undefined {
    return this.takeQueued(method, path) ?? this.chaosFault(path)
  }

  add(fault: Omit<Fault, "id">): Fault {
    const added = { id: this.nextFaultId++, ...fault }
    this.faults.push(added)
    return added
  }

  clear(): void {
    this.faults = []
  }

  /** Starts chaos (or stops it with null); returns what the control API shows of it. */
  setChaos(settings: Chaos | null): Chaos | null {
    this.chaos = settings && { ...settings, random: seeded(settings.seed) }
    if (!this.chaos) return null
    const { random: _random, ...shown } = this.chaos
    return shown
  }

  /** A new limit starts a fresh window; removing it (null) leaves the window as it was. */
  setRateLimit(limit: RateLimit | null): void {
    this.rateLimit = limit
    if (limit) this.rateWindow = { start: Date.now(), count: 0 }
  }

  reset(): void {
    this.faults = []
    this.chaos = null
    this.rateLimit = this.initialRateLimit
  }

  /** Consumes the first queued fault that matches the request, if any. */
  private takeQueued(method: string, path: string): Fault | undefined {
    const fault = this.faults.find((f) => path.includes(f.path) && (!f.method || f.method === method))
    if (!fault) return undefined
    if (fault.skip) {
      fault.skip -= 1
      return undefined
    }
    fault.times -= 1
    if (fault.times <= 0) this.faults = this.faults.filter((f) => f !== fault)
    return fault
  }

  /** A fault of a random kind for a `chaos.rate` share of the requests under `chaos.path`. */
  private chaosFault(path: string): Fault | undefined {
    const chaos = this.chaos
    if (!chaos || !path.startsWith(chaos.path) || chaos.random() >= chaos.rate) return undefined
    const kind = chaos.kinds[Math.floor(chaos.random() * chaos.kinds.length)]
    return { id: 0, kind, path, times: 1, ...(kind === "rate_limit" ? { retryAfter: 1 } : {}) }
  }

  apply(fault: Fault, res: ServerResponse): void {
    switch (fault.kind) {
      case "error":
        return fail(res, fault.status ?? 500, "Internal server error")
      case "rate_limit":
        return fail(
          res,
          429,
          "Rate limit exceeded",
          undefined,
          fault.retryAfter !== undefined ? { "retry-after": String(fault.retryAfter) } : {}
        )
      case "malformed":
        return sendText(res, 200, "application/json; charset=utf-8", '{"success": tru')
      case "hang":
        this.hanging.add(res)
        res.on("close", () => this.hanging.delete(res))
        return
    }
  }

  /** Counts the request against the rate limit; answers 429 (and returns true) beyond it. */
  rateLimited(res: ServerResponse): boolean {
    const limit = this.rateLimit
    if (!limit) return false
    const now = Date.now()
    if (now - this.rateWindow.start >= limit.windowMs) this.rateWindow = { start: now, count: 0 }
    this.rateWindow.count += 1
    if (this.rateWindow.count <= limit.limit) return false
    const retryAfter = Math.max(1, Math.ceil((this.rateWindow.start + limit.windowMs - now) / 1000))
    fail(res, 429, "Rate limit exceeded", undefined, { "retry-after": String(retryAfter) })
    return true
  }

  /** Ends the hanging responses (on close: they would otherwise keep the server open). */
  close(): void {
    this.hanging.forEach((res) => res.destroy())
  }
}

/** A small seeded random generator (mulberry32): the same seed gives the same faults. */
function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
