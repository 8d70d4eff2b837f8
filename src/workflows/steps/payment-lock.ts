import { randomUUID } from "node:crypto"
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { MedusaContainer } from "@medusajs/framework/types"
import { setTimeout as sleep } from "node:timers/promises"
import { CRYPTO_PAYMENT_MODULE } from "../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../modules/crypto-payment/service"
import { LEASE_SECONDS } from "../../lib/runtime/lock-lease"

/**
 * Not core's acquireLockStep: it takes its keys in no fixed order and keeps those it got on a timeout,
 * so two runs could each hold one and wait on the other. Here keys go in lockKeysOf's order, a timeout
 * releases them, and they are held as a lease (lib/runtime/lock-lease.ts): a killed process's keys are
 * free within LEASE_SECONDS.
 */
export type PaymentLock = { keys: string[]; ownerId: string }

/** How a run that could not take a payment's lock in time says so (another run holds it, or a dead process's has not expired). */
export const PAYMENT_LOCK_BUSY = "crypto payment lock busy"

/** How a run that lost its lease (a renewal failed, or it ran too long) stops before its next effect. */
export const PAYMENT_LOCK_LOST = "crypto payment lock lost"

/**
 * A busy or lost lock is not the payment's fault, so the job retries at its next interval without
 * backing off. Told by the message, which survives a workflow run's error handling.
 */
export function isPaymentLockBusy(error: unknown): boolean {
  const message = (error as Error)?.message
  return typeof message === "string" && (message.startsWith(PAYMENT_LOCK_BUSY) || message.startsWith(PAYMENT_LOCK_LOST))
}

/**
 * The collection (shared by a cart's payments), then its order (shared by its edits' collections):
 * always in that order, so two runs never wait on each other crosswise.
 */
export function lockKeysOf(scope: { collectionId?: string | null; orderId?: string | null }, paymentId?: string) {
  if (!scope.collectionId) return [`crypto-payment:${paymentId}`]
  return [`crypto-collection:${scope.collectionId}`, ...(scope.orderId ? [`crypto-order:${scope.orderId}`] : [])]
}

/** The keys of one ledger payment: its collection and order as the ledger and Medusa's link table say now. */
export async function paymentLockKeys(container: MedusaContainer, paymentId: string): Promise<string[]> {
  const cryptoPayment: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
  return lockKeysOf((await cryptoPayment.ledger.lockScopeOf(paymentId)) ?? {}, paymentId)
}

/**
 * One key after the other, with an owner id unique to this run; keys taken before a timeout are given
 * back. The lease is renewed until release, for at most `holdSeconds`.
 */
export async function acquirePaymentLock(
  container: MedusaContainer,
  input: { keys: string[]; holdSeconds: number; timeoutSeconds: number }
): Promise<PaymentLock> {
  const locking = container.resolve(Modules.LOCKING)
  const cryptoPayment: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
  const lock: PaymentLock = { keys: input.keys, ownerId: `crypto-${randomUUID()}` }
  const giveUpAt = Date.now() + input.timeoutSeconds * 1000
  const held: string[] = []
  for (const key of lock.keys) {
    for (;;) {
      try {
        await locking.acquire(key, { ownerId: lock.ownerId, expire: LEASE_SECONDS })
        held.push(key)
        break
      } catch (error) {
        // a lock a killed process left behind, expired but never released (Postgres locking): cleared, taken now
        if (await cryptoPayment.clearExpiredLocks([key]).catch(() => 0)) continue
        if (Date.now() >= giveUpAt) {
          if (held.length) await locking.release(held, { ownerId: lock.ownerId }).catch(() => undefined)
          throw new Error(`${PAYMENT_LOCK_BUSY}: ${(error as Error)?.message ?? key}`)
        }
      }
      await sleep(200)
    }
  }
  cryptoPayment.leaseLock(locking, lock.keys, lock.ownerId, input.holdSeconds)
  return lock
}

export async function releasePaymentLock(container: MedusaContainer, lock: PaymentLock): Promise<void> {
  const cryptoPayment: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
  cryptoPayment.leases.end(lock.ownerId)
  await container.resolve(Modules.LOCKING).release(lock.keys, { ownerId: lock.ownerId })
}

/** Throws PAYMENT_LOCK_LOST unless this process still holds the lock's lease: asked before each effect. */
export function assertPaymentLockHeld(container: MedusaContainer, lock: PaymentLock): void {
  const cryptoPayment: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
  const lease = cryptoPayment.leases.get(lock.ownerId)
  if (!lease || !lease.held()) {
    throw new Error(`${PAYMENT_LOCK_LOST}: ${lease?.lost ?? "this process holds no lease for it"}`)
  }
}

/**
 * Runs `work` under the same locks as the reconcile workflow (outside a workflow: the admin's
 * remainder, the order-edit subscriber), so it never interleaves with a capture or a cancel. `work` calls
 * `fence()` immediately before its effect: it throws PAYMENT_LOCK_LOST once the lease is no longer held.
 */
export async function underPaymentLock<T>(
  container: MedusaContainer,
  keys: string[],
  work: (fence: () => void) => Promise<T>,
  { holdSeconds = 120, timeoutSeconds = 30 } = {}
): Promise<T> {
  const lock = await acquirePaymentLock(container, { keys, holdSeconds, timeoutSeconds })
  const fence = () => assertPaymentLockHeld(container, lock)
  try {
    fence()
    return await work(fence)
  } finally {
    await releasePaymentLock(container, lock).catch(() => undefined)
  }
}

/**
 * The payment's keys (paymentLockKeys: its collection and order as they are now), then the lock on them,
 * in one step. The compensation releases the locks when a later step fails.
 */
export const acquirePaymentLockStep = createStep(
  "acquire-crypto-payment-lock",
  async (input: { payment_id: string; holdSeconds: number; timeoutSeconds: number }, { container }) => {
    const keys = await paymentLockKeys(container, input.payment_id)
    const lock = await acquirePaymentLock(container, { ...input, keys })
    return new StepResponse(lock, lock)
  },
  async (lock, { container }) => {
    if (lock) await releasePaymentLock(container, lock)
  }
)

export const releasePaymentLockStep = createStep(
  "release-crypto-payment-lock",
  async (lock: PaymentLock, { container }) => {
    await releasePaymentLock(container, lock)
    return new StepResponse(undefined)
  }
)

/** Before an effect: the run goes on only while its lease holds (no renewal failed). */
export const paymentLockHeldStep = createStep("crypto-payment-lock-held", async (lock: PaymentLock, { container }) => {
  assertPaymentLockHeld(container, lock)
  return new StepResponse(true)
})
