import { InMemoryLockingProvider } from "@medusajs/locking/dist/providers/in-memory"
import { LockLease, LockLeases, RenewLock } from "../lock-lease"

const KEY = "crypto-collection:pay_col_1"
const LEASE = { leaseSeconds: 30, renewEveryMs: 10_000 }

/** Medusa's in-memory locking provider: a same-owner acquire with `expire` extends the lock. */
function locking() {
  const provider = new InMemoryLockingProvider()
  const renew: RenewLock = async (keys, ownerId, seconds) => {
    await provider.acquire(keys, { ownerId, expire: seconds })
    return true
  }
  /** Whether another owner could take the key now (given back at once). */
  const takenBy = async (ownerId: string) => {
    try {
      await provider.acquire(KEY, { ownerId, expire: 30 })
      await provider.release(KEY, { ownerId })
      return true
    } catch {
      return false
    }
  }
  return { provider, renew, takenBy }
}

describe("a lock held as a lease", () => {
  beforeEach(() => jest.useFakeTimers())
  afterEach(() => jest.useRealTimers())

  it("a live run keeps its keys for as long as it runs, far past the lease", async () => {
    const { provider, renew, takenBy } = locking()
    await provider.acquire(KEY, { ownerId: "run", expire: 30 })
    const lease = new LockLease([KEY], "run", renew, { holdSeconds: 300, ...LEASE })
    for (let second = 0; second < 180; second += 15) {
      await jest.advanceTimersByTimeAsync(15_000)
      expect(await takenBy("other")).toBe(false)
    }
    expect(lease.held()).toBe(true)
    lease.stop()
  })

  it("a dead run's keys are free within the lease: nothing renews them", async () => {
    const { provider, renew, takenBy } = locking()
    await provider.acquire(KEY, { ownerId: "run", expire: 30 })
    const lease = new LockLease([KEY], "run", renew, { holdSeconds: 300, ...LEASE })
    await jest.advanceTimersByTimeAsync(25_000)
    // the process dies: its timers with it, and it never releases
    lease.stop()
    await jest.advanceTimersByTimeAsync(14_000)
    expect(await takenBy("other")).toBe(false)
    // the last renewal was at 20 s: the lease ends at 50 s
    await jest.advanceTimersByTimeAsync(11_000)
    expect(await takenBy("other")).toBe(true)
  })

  it("is lost once a renewal fails, and renews no more", async () => {
    const answers: Array<boolean | Error> = [true, new Error("connection terminated"), true]
    const calls: number[] = []
    const renew: RenewLock = async () => {
      calls.push(Date.now())
      const answer = answers.shift()!
      if (answer instanceof Error) throw answer
      return answer
    }
    const lease = new LockLease([KEY], "run", renew, { holdSeconds: 300, ...LEASE })
    await jest.advanceTimersByTimeAsync(10_000)
    expect(lease.held()).toBe(true)
    await jest.advanceTimersByTimeAsync(10_000)
    expect(lease.held()).toBe(false)
    expect(lease.lost).toMatch(/renewal failed \(connection terminated\)/)
    await jest.advanceTimersByTimeAsync(60_000)
    expect(calls).toHaveLength(2)
  })

  it("is lost when another owner holds a key (the renewal says it is no longer this owner's)", async () => {
    const lease = new LockLease([KEY], "run", async () => false, { holdSeconds: 300, ...LEASE })
    await jest.advanceTimersByTimeAsync(10_000)
    expect(lease.lost).toMatch(/another owner holds it/)
  })

  it("fences: a renewal stuck past the lease's expiry leaves it not held, before another owner can act", async () => {
    const { provider, renew, takenBy } = locking()
    let answerStuck: (() => void) | undefined
    let renewals = 0
    const stuck: RenewLock = async (keys, ownerId, seconds) => {
      if (++renewals === 1) return renew(keys, ownerId, seconds)
      // the second renewal hangs (a partition, a saturated pool), and answers far too late
      await new Promise<void>((resolve) => (answerStuck = resolve))
      return true
    }
    await provider.acquire(KEY, { ownerId: "run", expire: 30 })
    const lease = new LockLease([KEY], "run", stuck, { holdSeconds: 300, ...LEASE })
    // renewed at 10 s: held until 40 s on the store, until 35 s here (the safety margin)
    await jest.advanceTimersByTimeAsync(34_000)
    expect(lease.held()).toBe(true)
    await jest.advanceTimersByTimeAsync(1_000)
    expect(lease.held()).toBe(false)
    expect(lease.lost).toMatch(/about to expire with no renewal confirmed/)
    // the keys are another owner's only later: nothing this run does overlaps that owner's effects
    expect(await takenBy("other")).toBe(false)
    await jest.advanceTimersByTimeAsync(5_000)
    expect(await takenBy("other")).toBe(true)
    // the stuck renewal's late yes does not bring it back
    answerStuck?.()
    await jest.advanceTimersByTimeAsync(0)
    expect(lease.held()).toBe(false)
  })

  it("stops renewing once the run outlived holdSeconds, so the lock lapses", async () => {
    const { provider, renew, takenBy } = locking()
    await provider.acquire(KEY, { ownerId: "run", expire: 30 })
    const lease = new LockLease([KEY], "run", renew, { holdSeconds: 60, ...LEASE })
    await jest.advanceTimersByTimeAsync(70_000)
    expect(lease.held()).toBe(false)
    expect(lease.lost).toMatch(/held longer than the run may take/)
    // renewed last at 50 s
    await jest.advanceTimersByTimeAsync(11_000)
    expect(await takenBy("other")).toBe(true)
  })
})

describe("the leases of a process", () => {
  it("finds a lease by its owner id, and ending one stops its renewals", async () => {
    jest.useFakeTimers()
    try {
      const leases = new LockLeases()
      let renewals = 0
      const renew: RenewLock = async () => ++renewals > 0
      leases.start([KEY], "run", renew, { holdSeconds: 300, ...LEASE })
      expect(leases.get("run")?.held()).toBe(true)
      await jest.advanceTimersByTimeAsync(10_000)
      expect(renewals).toBe(1)
      leases.end("run")
      expect(leases.get("run")).toBeUndefined()
      await jest.advanceTimersByTimeAsync(60_000)
      expect(renewals).toBe(1)
      leases.start([KEY], "a", renew, { holdSeconds: 300, ...LEASE })
      leases.endAll()
      expect(leases.size).toBe(0)
    } finally {
      jest.useRealTimers()
    }
  })
})
