import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { reconcileOpenPayments } from "../lib/reconciliation"

const TICK_LOCK = "crypto-payment:reconcile-tick"

/**
 * Webhooks get lost: every few seconds, re-check the open crypto payments that are due (each at
 * most once per reconcileIntervalSeconds) and capture or cancel them like a webhook would.
 * Only one process runs a tick at a time (the locking module; use Redis or Postgres locking when
 * several Medusa instances run).
 */
export default async function reconcileCryptoPayments(container: MedusaContainer) {
  const locking = container.resolve(Modules.LOCKING)
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const owner = `crypto-reconcile-${process.pid}-${Date.now()}`
  try {
    await locking.acquire(TICK_LOCK, { ownerId: owner, expire: 300 })
  } catch {
    return // another process is running a tick
  }
  try {
    const report = await reconcileOpenPayments(container)
    if (report.checked) {
      logger.info(
        `medusa-payment-crypto: reconciled ${report.checked - report.failed}/${report.checked} of ${report.due} due crypto payments${report.rateLimited ? " (stopped on 429)" : ""}`
      )
    }
  } catch (error) {
    logger.error(`medusa-payment-crypto: reconciliation tick failed: ${(error as Error).message}`)
  } finally {
    await locking.release(TICK_LOCK, { ownerId: owner }).catch(() => undefined)
  }
}

export const config = {
  name: "medusa-payment-crypto-reconcile",
  // The tick is frequent; each payment is still read at most once per reconcileIntervalSeconds.
  schedule: { interval: 5000 },
}
