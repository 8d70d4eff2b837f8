import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { CryptoGateway } from "../lib/crypto-gateway"
import { pluginLog } from "../lib/log"
import { CryptoApiError } from "../lib/crypto-api/errors"
import { failedReadDelaySeconds } from "../lib/read-schedule"
import { CRYPTO_PAYMENT_MODULE } from "../modules/crypto-payment"
import type CryptoPaymentModuleService from "../modules/crypto-payment/service"
import { reconcileCryptoPaymentWorkflow } from "./reconcile-crypto-payment"

/** Held by the process running a tick (the scheduled job), so only one reads at a time. */
export const RECONCILE_TICK_LOCK = "crypto-payment:reconcile-tick"

/** The provider's default budget, used only until its first answer states the configured one. */
const FIRST_TICK_BUDGET = 1

type DueRow = { id: string; payment_id: string; provider_id: string | null; check_failures: number }

export type TickReport = {
  /** Rows the due queries returned (never more than the budget). */
  loaded: number
  checked: number
  failed: number
  /** The service answered 429: the job pauses until Retry-After. */
  rateLimited: boolean
  /** The job was paused by an earlier 429 and read nothing. */
  paused: boolean
}

/**
 * One reconciliation tick: reads the payments of the ledger that are due (the due index: not
 * settled, next_check_at passed, oldest first, at most the budget of reads per tick) and applies
 * each status through the same workflow as webhooks. A 429 pauses the whole job until Retry-After;
 * a failed read postpones only its payment. Memory and queries per tick do not depend on the size
 * of the ledger.
 */
export async function reconcileDuePayments(container: MedusaContainer, now = new Date()): Promise<TickReport> {
  const ledger: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
  const log = pluginLog(container.resolve(ContainerRegistrationKeys.LOGGER))
  const gateway = new CryptoGateway(container.resolve(Modules.PAYMENT))
  const report: TickReport = { loaded: 0, checked: 0, failed: 0, rateLimited: false, paused: false }
  if (ledger.reconciliationPausedUntil() > now.getTime()) {
    report.paused = true
    return report
  }

  /** Reads and applies one payment; false when the job must stop (429). */
  const readOne = async (row: DueRow): Promise<boolean> => {
    report.checked++
    try {
      const answer = await gateway.assess(row)
      ledger.rememberPolicy(answer.policy)
      if (!answer.assessment) {
        const { firstTime } = await ledger.recordMissing(row.payment_id, answer.policy.reconcileIntervalSeconds, now)
        if (firstTime) log.warn(`the service does not know payment ${row.payment_id} (404); flagged for attention`)
        return true
      }
      await reconcileCryptoPaymentWorkflow(container).run({
        input: {
          payment_id: row.payment_id,
          assessment: answer.assessment,
          policy: answer.policy,
          source: "reconcile",
        },
      })
      return true
    } catch (error) {
      report.failed++
      const apiError = CryptoApiError.from(error)
      const interval = ledger.knownPolicy()?.reconcileIntervalSeconds ?? 60
      const failures = row.check_failures + 1
      const waitSeconds = apiError?.rateLimited
        ? Math.max(interval, Math.ceil((apiError.retryAfterMs ?? 0) / 1000))
        : failedReadDelaySeconds(interval, failures)
      await ledger.updateCryptoPayments({
        id: row.id,
        next_check_at: new Date(now.getTime() + waitSeconds * 1000),
        check_failures: failures,
      })
      log.warn(`reconciliation of ${row.payment_id} failed (${(error as Error).message}); next try in ${waitSeconds} s`)
      if (!apiError?.rateLimited) return true
      report.rateLimited = true
      ledger.pauseReconciliation(now.getTime() + Math.max(1000, apiError.retryAfterMs ?? interval * 1000))
      return false
    }
  }

  // The budget is the provider's option: until an answer has stated it, one payment is read first.
  // A payment read (or postponed) is due again only later, so a second due query skips it.
  let budget = ledger.knownPolicy()?.reconcileBatchSize ?? FIRST_TICK_BUDGET
  while (report.checked < budget) {
    const due = await ledger.listDue(now, budget - report.checked)
    report.loaded += due.length
    for (const row of due) {
      if (!(await readOne(row))) return report
    }
    const learnt = ledger.knownPolicy()?.reconcileBatchSize ?? budget
    if (!due.length || learnt === budget) break
    budget = learnt
  }
  return report
}
