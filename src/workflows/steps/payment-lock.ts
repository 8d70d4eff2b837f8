import { randomUUID } from "node:crypto"
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { setTimeout as sleep } from "node:timers/promises"
import { CRYPTO_PAYMENT_MODULE } from "../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../modules/crypto-payment/service"

export type PaymentLock = { keys: string[]; ownerId: string }

/**
 * What a run that may capture or cancel must hold: its payment collection (every payment of a cart
 * shares it, before and after the order exists) and, once the collection belongs to an order, the
 * order (its checkout collection and those of its edits, claims and exchanges). Always in that
 * order, so two runs never wait on each other crosswise. A payment without a collection (rows
 * from before the ledger knew it) locks on its own id.
 */
export const paymentLockKeysStep = createStep(
  "crypto-payment-lock-keys",
  async (input: { payment_id: string }, { container }) => {
    const ledger: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
    const { collectionId, orderId } = (await ledger.lockScopeOf(input.payment_id)) ?? {}
    if (!collectionId) return new StepResponse([`crypto-payment:${input.payment_id}`])
    return new StepResponse([`crypto-collection:${collectionId}`, ...(orderId ? [`crypto-order:${orderId}`] : [])])
  }
)

/**
 * Takes the locks one key after the other, waiting up to `timeoutSeconds` in all, with an owner id
 * unique to this run: a shared lock provider (Redis, Postgres) then refuses them to any other run,
 * in any process, until they are released or their TTL ends. Keys taken before a timeout are given
 * back; the compensation releases them all when a later step fails.
 */
export const acquirePaymentLockStep = createStep(
  "acquire-crypto-payment-lock",
  async (input: { keys: string[]; ttlSeconds: number; timeoutSeconds: number }, { container }) => {
    const locking = container.resolve(Modules.LOCKING)
    const lock: PaymentLock = { keys: input.keys, ownerId: `crypto-${randomUUID()}` }
    const giveUpAt = Date.now() + input.timeoutSeconds * 1000
    const held: string[] = []
    for (const key of lock.keys) {
      for (;;) {
        try {
          await locking.acquire(key, { ownerId: lock.ownerId, expire: input.ttlSeconds })
          held.push(key)
          break
        } catch (error) {
          if (Date.now() >= giveUpAt) {
            if (held.length) await locking.release(held, { ownerId: lock.ownerId }).catch(() => undefined)
            throw error
          }
        }
        await sleep(200)
      }
    }
    return new StepResponse(lock, lock)
  },
  async (lock, { container }) => {
    if (lock) await container.resolve(Modules.LOCKING).release(lock.keys, { ownerId: lock.ownerId })
  }
)

export const releasePaymentLockStep = createStep(
  "release-crypto-payment-lock",
  async (lock: PaymentLock, { container }) => {
    await container.resolve(Modules.LOCKING).release(lock.keys, { ownerId: lock.ownerId })
    return new StepResponse(undefined)
  }
)
