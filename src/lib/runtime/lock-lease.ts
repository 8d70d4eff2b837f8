/**
 * A lock held as a short lease: taken for LEASE_SECONDS and extended every RENEW_EVERY_MS while its
 * run lives, so a process killed while holding it frees its keys within the lease, not within the
 * longest run it might have had. The run asks `held()` before each effect: once a renewal failed (the
 * store refused it, another owner holds a key) or the run outlived `holdSeconds`, it stops there.
 */
export const LEASE_SECONDS = 30
/** A third of the lease: two renewals can fail before the keys lapse. */
export const RENEW_EVERY_MS = 10_000

/** Extends `keys` for `ownerId` by `seconds`; false (or a throw) when one of them is no longer this owner's. */
export type RenewLock = (keys: string[], ownerId: string, seconds: number) => Promise<boolean>

export type LeaseTiming = {
  /** The longest the run may hold the keys; renewals stop then and the lease lapses. */
  holdSeconds: number
  leaseSeconds?: number
  renewEveryMs?: number
}

export class LockLease {
  private timer: NodeJS.Timeout | undefined
  private lost_: string | undefined
  private readonly holdUntil: number
  private readonly leaseSeconds: number
  private readonly renewEveryMs: number

  constructor(
    readonly keys: string[],
    readonly ownerId: string,
    private readonly renew: RenewLock,
    timing: LeaseTiming
  ) {
    this.leaseSeconds = timing.leaseSeconds ?? LEASE_SECONDS
    this.renewEveryMs = timing.renewEveryMs ?? RENEW_EVERY_MS
    this.holdUntil = Date.now() + timing.holdSeconds * 1000
    this.schedule()
  }

  /** Why the run no longer holds its keys, or undefined while it does. */
  get lost(): string | undefined {
    return this.lost_
  }

  held(): boolean {
    return this.lost_ === undefined
  }

  /** No more renewals (the run released its keys, or ended). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
  }

  private schedule(): void {
    this.timer = setTimeout(() => void this.renewNow(), this.renewEveryMs)
    // a lease never keeps a process alive that is otherwise done
    this.timer.unref?.()
  }

  private async renewNow(): Promise<void> {
    if (!this.timer) return
    if (Date.now() >= this.holdUntil) {
      this.lost_ = `held longer than the run may take; the lock lapses within ${this.leaseSeconds} s`
      this.timer = undefined
      return
    }
    let renewed: boolean
    try {
      renewed = await this.renew(this.keys, this.ownerId, this.leaseSeconds)
    } catch (error) {
      renewed = false
      this.lost_ = `its renewal failed (${(error as Error)?.message ?? "unknown error"})`
    }
    if (!this.timer) return
    if (!renewed) {
      this.lost_ ??= "another owner holds it, or it lapsed"
      this.timer = undefined
      return
    }
    this.schedule()
  }
}

/** The leases this process holds, by owner id: a workflow's steps pass the owner id, not the timer. */
export class LockLeases {
  private readonly live = new Map<string, LockLease>()

  start(keys: string[], ownerId: string, renew: RenewLock, timing: LeaseTiming): LockLease {
    const lease = new LockLease(keys, ownerId, renew, timing)
    this.live.get(ownerId)?.stop()
    this.live.set(ownerId, lease)
    return lease
  }

  get(ownerId: string): LockLease | undefined {
    return this.live.get(ownerId)
  }

  end(ownerId: string): void {
    this.live.get(ownerId)?.stop()
    this.live.delete(ownerId)
  }

  get size(): number {
    return this.live.size
  }

  /** On shutdown: no renewal outlives the module. */
  endAll(): void {
    for (const lease of this.live.values()) lease.stop()
    this.live.clear()
  }
}
