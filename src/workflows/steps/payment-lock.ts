import { randomUUID } from "node:crypto"
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { setTimeout as sleep } from "node:timers/promises"

export type PaymentLock = { key: string; ownerId: string }

/**
 * Takes the lock on one payment, waiting up to `timeoutSeconds`, with an owner id unique to this
 * run: a shared lock provider (Redis, Postgres) then refuses it to any other run, in any process,
 * until it is released or its TTL ends. Released by the compensation when a later step fails.
 */
export const acquirePaymentLockStep = createStep(
  "acquire-crypto-payment-lock",
  async (input: { key: string; ttlSeconds: number; timeoutSeconds: number }, { container }) => {
    const locking = container.resolve(Modules.LOCKING)
    const lock: PaymentLock = { key: input.key, ownerId: `crypto-${randomUUID()}` }
    const giveUpAt = Date.now() + input.timeoutSeconds * 1000
    for (;;) {
      try {
        await locking.acquire(lock.key, { ownerId: lock.ownerId, expire: input.ttlSeconds })
        return new StepResponse(lock, lock)
      } catch (error) {
        if (Date.now() >= giveUpAt) throw error
      }
      await sleep(200)
    }
  },
  async (lock, { container }) => {
    if (lock) await container.resolve(Modules.LOCKING).release(lock.key, { ownerId: lock.ownerId })
  }
)

export const releasePaymentLockStep = createStep(
  "release-crypto-payment-lock",
  async (lock: PaymentLock, { container }) => {
    await container.resolve(Modules.LOCKING).release(lock.key, { ownerId: lock.ownerId })
    return new StepResponse(undefined)
  }
)
