/**
 * A lock held as a short lease: taken for LEASE_SECONDS and extended every RENEW_EVERY_MS while its
 * run lives, so a process killed while holding it frees its keys within the lease, not within the
 * longest run it might have had. The run asks `held()` immediately before each effect: once a renewal
 * failed (the store refused it, another owner holds a key), the run outlived `holdSeconds`, or the lease's
 * expiry is near with no renewal confirmed (a renewal stuck on a partition or a saturated pool: the keys
 * may already be another owner's), it stops there.
 */
export const LEASE_SECONDS = 30
/** A third of the lease: two renewals can fail before the keys lapse. */
export const RENEW_EVERY_MS = 10_000
/**
 * How long before the lease's expiry, on this process's clock, the run stops counting on it: time for an
 * effect begun just before to reach the store, and for clocks that drift apart.
 */
export const LEASE_SAFETY_MS = 5_000

/** Extends `keys` for `ownerId` by `seconds`; false (or a throw) when one of them is no longer this owner's. */
export type RenewLock = (keys: string[], ownerId: string, seconds: number) => Promise<boolean>

export type LeaseTiming = {
  /** The longest the run may hold the keys; renewals stop then and the lease lapses. */
  holdSeconds: number
  leaseSeconds?: number
  renewEveryMs?: number
  safetyMs?: number
  /** When the keys were asked for (their lease runs from no earlier than that); now by default. */
  takenAt?: number
}

export class LockLease {
  private timer: NodeJS.Timeout | undefined
  private lost_: string | undefined
  private readonly holdUntil: number
  private readonly leaseSeconds: number
  private readonly renewEveryMs: number
  private readonly safetyMs: number
  /** The lease's expiry as far as this process knows it: when the last confirmed take or renewal was sent, plus the lease. */
  private expiresAt: number

  constructor(
    readonly keys: string[],
    readonly ownerId: string,
    private readonly renew: RenewLock,
    timing: LeaseTiming
  ) {
    this.leaseSeconds = timing.leaseSeconds ?? LEASE_SECONDS
    this.renewEveryMs = timing.renewEveryMs ?? RENEW_EVERY_MS
    this.safetyMs = timing.safetyMs ?? Math.min(LEASE_SAFETY_MS, (this.leaseSeconds * 1000) / 3)
    // taken just before: counted from now, which is later than the store's own start of it only by the
    // time its answer took, and the safety margin covers that
    this.expiresAt = (timing.takenAt ?? Date.now()) + this.leaseSeconds * 1000
    this.holdUntil = Date.now() + timing.holdSeconds * 1000
    this.schedule()
  }

  /** Why the run no longer holds its keys, or undefined while it does. */
  get lost(): string | undefined {
    if (this.lost_ === undefined && Date.now() >= this.expiresAt - this.safetyMs)
      this.lost_ = `its lease was about to expire with no renewal confirmed (a renewal stuck?): the keys may be another owner's`
    return this.lost_
  }

  held(): boolean {
    return this.lost === undefined
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
    const sentAt = Date.now()
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
    // the store extended it from when it got the renewal, no earlier than when it was sent; a lease that
    // lapsed meanwhile (lost above) stays lost
    if (this.lost_ === undefined) this.expiresAt = Math.max(this.expiresAt, sentAt + this.leaseSeconds * 1000)
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
