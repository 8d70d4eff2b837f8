import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { pluginLog } from "../lib/log"
import { reconcileDuePayments, RECONCILE_TICK_LOCK } from "../workflows/reconcile-due-payments"

/**
 * Webhooks get lost: every few seconds, read the crypto payments of the ledger that are due (each
 * at most once per reconcileIntervalSeconds, within reconcileBatchSize reads per tick) and capture
 * or cancel them like a webhook would. Only one process runs a tick at a time (the locking module;
 * use Redis locking when several Medusa instances run).
 */
export default async function reconcileCryptoPayments(container: MedusaContainer) {
  const locking = container.resolve(Modules.LOCKING)
  const log = pluginLog(container.resolve(ContainerRegistrationKeys.LOGGER))
  const owner = `crypto-reconcile-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`
  try {
    await locking.acquire(RECONCILE_TICK_LOCK, { ownerId: owner, expire: 300 })
  } catch {
    log.debug("reconciliation tick skipped, another process is running one")
    return
  }
  const began = new Date()
  try {
    const report = await reconcileDuePayments(container)
    if (report.checked) {
      log.info(
        `reconciled ${report.checked - report.failed}/${report.checked} due crypto payments${report.rateLimited ? " (paused on 429)" : ""}`
      )
    }
  } catch (error) {
    log.error(`reconciliation tick failed: ${(error as Error).message}`)
  } finally {
    // the span of every tick and the heap at its end (LOG_LEVEL=debug): ticks of several processes laid side
    // by side (the reliability suite), the tick's time and memory with a large ledger (the bench's P4)
    const { heapUsed } = process.memoryUsage()
    log.debug(`reconciliation tick ${began.toISOString()} → ${new Date().toISOString()}, heap ${heapUsed}`)
    await locking.release(RECONCILE_TICK_LOCK, { ownerId: owner }).catch(() => undefined)
  }
}

export const config = {
  name: "medusa-payment-crypto-reconcile",
  // The tick is frequent; each payment is still read at most once per reconcileIntervalSeconds.
  schedule: { interval: 5000 },
}
