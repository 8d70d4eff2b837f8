import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { CRYPTO_PROVIDER } from "../../../modules/crypto-payment/core"
import { EXPIRING_SET_MAX_ENTRIES, ExpiringSet } from "../../../lib/runtime/expiring-set"
import { pluginLog } from "../../../lib/runtime/log"
import { CRYPTO_PAYMENT_MODULE } from "../../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../../modules/crypto-payment/service"
import { sendStoreRouteError } from "./route-errors"

/** How many crypto payments one payment collection may have created in a minute. */
export const SESSIONS_PER_COLLECTION_PER_MINUTE = 6

const WINDOW_MS = 60_000

/** A payment collection's id as Medusa makes them (`pay_col_` and a ULID), the only keys `seen` holds. */
const COLLECTION_ID = /^pay_col_[0-9A-Za-z]{1,40}$/

/**
 * Collections this process created a crypto session for within the window: a checkout's first session
 * (nearly every checkout has one) costs no query; the ledger is counted from the second on. Several
 * processes each let one first session through unread: the bound is the limit plus one per process.
 * Remembered for the window, at most EXPIRING_SET_MAX_ENTRIES (checkouts of a minute, with room for a
 * flood): a collection forgotten early only costs its count query.
 */
const seen = new ExpiringSet(WINDOW_MS, EXPIRING_SET_MAX_ENTRIES)

/**
 * Before Medusa's POST /store/payment-collections/:id/payment-sessions: a crypto session creates an
 * invoice at the payment service, polled for a day, and anyone with the publishable key may ask for
 * one. Once the collection has had SESSIONS_PER_COLLECTION_PER_MINUTE crypto payments created in the
 * last minute, the request is answered 429 with `Retry-After` (until the oldest of them is a minute
 * old) and nothing is created. Other providers pass; so does every request when the ledger cannot be
 * read: the bookkeeping never blocks a checkout. `req.body` is parsed here: the framework's ApiLoader
 * mounts the body parsers on "/" before any route middleware, and Medusa's own middlewares for this
 * route (the body's validation) run before a plugin's.
 */
export async function boundCryptoSessionCreation(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  const providerId = (req.body as { provider_id?: unknown } | undefined)?.provider_id
  if (typeof providerId !== "string" || !CRYPTO_PROVIDER.test(providerId)) return next()
  const collectionId = req.params.id
  // an id of another form is no collection of this shop (Medusa answers it 404): nothing is kept for it
  if (!COLLECTION_ID.test(collectionId)) return next()
  if (!seen.has(collectionId)) {
    seen.add(collectionId)
    return next()
  }

  const now = Date.now()
  let created: { count: number; oldest: Date | null }
  try {
    const cryptoPayment: CryptoPaymentModuleService = req.scope.resolve(CRYPTO_PAYMENT_MODULE)
    created = await cryptoPayment.ledger.createdForCollectionSince(collectionId, new Date(now - WINDOW_MS))
  } catch (error) {
    pluginLog(req.scope.resolve(ContainerRegistrationKeys.LOGGER)).warn(
      `payment sessions of ${collectionId} not counted, creation not bounded: ${(error as Error).message}`
    )
    return next()
  }
  if (created.count < SESSIONS_PER_COLLECTION_PER_MINUTE) return next()

  // another may be created once the oldest of them has left the window
  const freeAt = (created.oldest?.getTime() ?? now) + WINDOW_MS
  res.setHeader("Retry-After", String(Math.max(1, Math.ceil((freeAt - now) / 1000))))
  return sendStoreRouteError(req, res, 429, "too_many_requests", "crypto.too_many_sessions")
}
