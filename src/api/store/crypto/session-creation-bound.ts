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
 * A checkout's first session costs no query; the ledger is counted from the second on, so the bound is
 * the limit plus one per process.
 */
const seen = new ExpiringSet(WINDOW_MS, EXPIRING_SET_MAX_ENTRIES)

/**
 * A crypto session creates an invoice polled for a day, and anyone with the publishable key may ask
 * for one, so sessions are bounded per collection. When the ledger cannot be read everything passes:
 * the bookkeeping never blocks a checkout. (`req.body` is parsed already: body parsers mount on "/".)
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
