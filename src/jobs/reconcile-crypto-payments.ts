import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { pluginLog } from "../lib/runtime/log"
import { cryptoCores } from "../modules/crypto-payment/core"
import { runDuePayments, RECONCILE_TICK_LOCK } from "./_due-payments-runner"
import { CRYPTO_PAYMENT_MODULE } from "../modules/crypto-payment"
import type CryptoPaymentModuleService from "../modules/crypto-payment/service"
import { LEASE_SECONDS } from "../lib/runtime/lock-lease"

/** The longest a tick may hold the tick's lock: a budget of reads, each bounded by the client's timeouts. */
const TICK_HOLD_SECONDS = 300

/**
 * Webhooks get lost: every few seconds, read the ledger's due payments and apply them as a webhook
 * would. One process runs a tick at a time, but every process first delivers the events no process
 * delivered yet.
 */
export default async function reconcileCryptoPayments(container: MedusaContainer) {
  const locking = container.resolve(Modules.LOCKING)
  const log = pluginLog(container.resolve(ContainerRegistrationKeys.LOGGER))
  const cryptoPayment: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
  await cryptoPayment.outbox.deliver()
  // expired locks a killed process left (Postgres locking keeps them for ever): this tick's, a collection's, a cart's
  const cleared = await cryptoPayment.clearExpiredLocks().catch((error) => {
    log.warn(`expired locks not cleared: ${(error as Error).message}`)
    return 0
  })
  if (cleared) log.info(`cleared ${cleared} expired lock${cleared === 1 ? "" : "s"} a stopped process left behind`)
  const owner = `crypto-reconcile-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`
  try {
    await locking.acquire(RECONCILE_TICK_LOCK, { ownerId: owner, expire: LEASE_SECONDS })
  } catch {
    log.debug("reconciliation tick skipped, another process is running one")
    return
  }
  // a lease, renewed while the tick runs: a process killed mid-tick stops blocking the others within
  // LEASE_SECONDS. Losing it costs at most reads, never money: each payment is applied under its own lock.
  cryptoPayment.leaseLock(locking, [RECONCILE_TICK_LOCK], owner, TICK_HOLD_SECONDS)
  const began = new Date()
  try {
    const tickHeld = () => !!cryptoPayment.leases.get(owner)?.held()
    const report = await runDuePayments(container, began, undefined, tickHeld)
    // info only when a tick captured or canceled, or could not read; a tick of reads that changed nothing is debug
    if (report.checked) {
      const line = `reconciled ${report.checked - report.failed}/${report.checked} due crypto payments, ${report.changed} decided${report.rateLimited ? " (paused on 429)" : ""}`
      if (report.changed || report.failed) log.info(line)
      else log.debug(line)
    }
  } catch (error) {
    log.error(`reconciliation tick failed: ${(error as Error).message}`)
  }
  // order display ids the ledger lacks (the admin lists and filters by them), a few hundred a tick
  await cryptoPayment.paymentList
    .backfillOrderDisplayIds(300)
    .catch((error) => log.warn(`order display ids not copied to the ledger: ${(error as Error).message}`))
  // every tick, not every N minutes: with nothing old it is two index probes, and a backlog (a first
  // upgrade) is worked off in bounded batches instead of waiting for the next window
  await cryptoPayment.pruneOld().then(
    ({ outbox, emails, days }) => {
      if (outbox || emails)
        log.info(
          `pruned ${outbox} outbox row${outbox === 1 ? "" : "s"} and ${emails} email record${emails === 1 ? "" : "s"} older than ${days} day${days === 1 ? "" : "s"}`
        )
    },
    (error) => log.warn(`old events and email records not pruned: ${(error as Error).message}`)
  )
  try {
    for (const core of await cryptoCores(container)) {
      await core
        .exchangeRates("refresh")
        .catch((error) => log.warn(`exchange rates of ${core.providerId} not refreshed: ${(error as Error).message}`))
    }
  } catch (error) {
    log.warn(`exchange rates not refreshed: ${(error as Error).message}`)
  } finally {
    // the span of every tick and the heap at its end (LOG_LEVEL=debug): to lay several processes' ticks
    // side by side, and to watch a tick's time and memory on a large ledger
    const { heapUsed } = process.memoryUsage()
    log.debug(`reconciliation tick ${began.toISOString()} → ${new Date().toISOString()}, heap ${heapUsed}`)
    cryptoPayment.leases.end(owner)
    await locking.release(RECONCILE_TICK_LOCK, { ownerId: owner }).catch(() => undefined)
  }
}

export const config = {
  name: "medusa-payment-crypto-reconcile",
  // The tick is frequent; each payment is still read at most once per reconcileIntervalSeconds.
  schedule: { interval: 5000 },
}
