import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import {
  acquirePaymentLock,
  assertPaymentLockHeld,
  isPaymentLockBusy,
  PAYMENT_LOCK_BUSY,
  PAYMENT_LOCK_LOST,
  releasePaymentLock,
} from "../payment-lock"
import { CRYPTO_PAYMENT_MODULE } from "../../../modules/crypto-payment"
import { LockLeases } from "../../../lib/runtime/lock-lease"

/** Locking where `held` keys belong to another owner (a live run, or a dead process's expired lock). */
function containerWith(held: Set<string>, expired = new Set<string>()) {
  const taken: string[] = []
  const released: string[][] = []
  const expires: number[] = []
  const locking = {
    acquire: async (key: string, args: { expire: number }) => {
      if (held.has(key)) throw new Error(`Failed to acquire lock for key "${key}"`)
      taken.push(key)
      expires.push(args.expire)
    },
    release: async (keys: string[]) => {
      released.push(keys)
    },
  }
  const renewal = { answer: true }
  const leases = new LockLeases()
  const ledger = {
    leases,
    leaseLock: (_locking: unknown, keys: string[], ownerId: string, holdSeconds: number) =>
      leases.start(keys, ownerId, async () => renewal.answer, { holdSeconds }),
    clearExpiredLocks: async ([key]: string[]) => {
      if (!expired.has(key)) return 0
      expired.delete(key)
      held.delete(key)
      return 1
    },
  }
  const container = {
    resolve: (name: string) =>
      name === Modules.LOCKING ? locking : name === CRYPTO_PAYMENT_MODULE ? ledger : undefined,
  } as unknown as MedusaContainer
  return { container, taken, released, expires, leases: ledger.leases, renewal }
}

describe("taking a payment's lock", () => {
  it("gives up after its timeout with a busy-lock error, and gives back what it took", async () => {
    const { container, taken, released } = containerWith(new Set(["crypto-order:o1"]))
    const error = await acquirePaymentLock(container, {
      keys: ["crypto-collection:c1", "crypto-order:o1"],
      holdSeconds: 60,
      timeoutSeconds: 0.3,
    }).catch((e) => e)
    expect(isPaymentLockBusy(error)).toBe(true)
    expect(error.message).toMatch(new RegExp(`^${PAYMENT_LOCK_BUSY}: Failed to acquire lock for key "crypto-order:o1"`))
    expect(taken).toEqual(["crypto-collection:c1"])
    expect(released).toEqual([["crypto-collection:c1"]])
  })

  it("takes a lock a dead process left once it has expired (cleared, then taken at once)", async () => {
    const { container, taken } = containerWith(new Set(["crypto-collection:c1"]), new Set(["crypto-collection:c1"]))
    const lock = await acquirePaymentLock(container, {
      keys: ["crypto-collection:c1"],
      holdSeconds: 60,
      timeoutSeconds: 0.3,
    })
    expect(lock.keys).toEqual(["crypto-collection:c1"])
    expect(taken).toEqual(["crypto-collection:c1"])
  })

  it("holds the keys as a lease until released, and stops the run once a renewal failed", async () => {
    jest.useFakeTimers()
    try {
      const { container, expires, leases, renewal, released } = containerWith(new Set())
      const lock = await acquirePaymentLock(container, {
        keys: ["crypto-collection:c1"],
        holdSeconds: 360,
        timeoutSeconds: 1,
      })
      // taken for the lease, not for the longest run
      expect(expires).toEqual([30])
      expect(leases.get(lock.ownerId)?.held()).toBe(true)
      await jest.advanceTimersByTimeAsync(10_000)
      expect(() => assertPaymentLockHeld(container, lock)).not.toThrow()
      renewal.answer = false
      await jest.advanceTimersByTimeAsync(10_000)
      expect(() => assertPaymentLockHeld(container, lock)).toThrow(new RegExp(`^${PAYMENT_LOCK_LOST}: another owner`))
      const lost = (() => {
        try {
          assertPaymentLockHeld(container, lock)
        } catch (error) {
          return error
        }
      })()
      // the job reads it again at its next interval, as for a busy lock
      expect(isPaymentLockBusy(lost)).toBe(true)
      await releasePaymentLock(container, lock)
      expect(leases.size).toBe(0)
      expect(released).toEqual([["crypto-collection:c1"]])
    } finally {
      jest.useRealTimers()
    }
  })

  it("tells a busy lock from any other failure", () => {
    expect(isPaymentLockBusy(new Error(`${PAYMENT_LOCK_BUSY}: x`))).toBe(true)
    expect(isPaymentLockBusy(new Error("the crypto payment service answered 500"))).toBe(false)
    expect(isPaymentLockBusy(undefined)).toBe(false)
  })
})
