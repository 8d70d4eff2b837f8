import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { acquirePaymentLock, isPaymentLockBusy, PAYMENT_LOCK_BUSY } from "../payment-lock"
import { CRYPTO_PAYMENT_MODULE } from "../../../modules/crypto-payment"

/** Locking where `held` keys belong to another owner (a live run, or a dead process's expired lock). */
function containerWith(held: Set<string>, expired = new Set<string>()) {
  const taken: string[] = []
  const released: string[][] = []
  const locking = {
    acquire: async (key: string) => {
      if (held.has(key)) throw new Error(`Failed to acquire lock for key "${key}"`)
      taken.push(key)
    },
    release: async (keys: string[]) => {
      released.push(keys)
    },
  }
  const ledger = {
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
  return { container, taken, released }
}

describe("taking a payment's lock", () => {
  it("gives up after its timeout with a busy-lock error, and gives back what it took", async () => {
    const { container, taken, released } = containerWith(new Set(["crypto-order:o1"]))
    const error = await acquirePaymentLock(container, {
      keys: ["crypto-collection:c1", "crypto-order:o1"],
      ttlSeconds: 60,
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
      ttlSeconds: 60,
      timeoutSeconds: 0.3,
    })
    expect(lock.keys).toEqual(["crypto-collection:c1"])
    expect(taken).toEqual(["crypto-collection:c1"])
  })

  it("tells a busy lock from any other failure", () => {
    expect(isPaymentLockBusy(new Error(`${PAYMENT_LOCK_BUSY}: x`))).toBe(true)
    expect(isPaymentLockBusy(new Error("the crypto payment service answered 500"))).toBe(false)
    expect(isPaymentLockBusy(undefined)).toBe(false)
  })
})
