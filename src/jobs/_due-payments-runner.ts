import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { cryptoCores, inLedger, type PaymentCore } from "../modules/crypto-payment/core"
import { pluginLog } from "../lib/runtime/log"
import { CryptoApiError } from "../lib/crypto-api/errors"
import { failedReadDelaySeconds } from "../lib/domain/read-schedule"
import { CRYPTO_PAYMENT_MODULE } from "../modules/crypto-payment"
import type { DuePayment } from "../modules/crypto-payment/ledger"
import type CryptoPaymentModuleService from "../modules/crypto-payment/service"
import { reconcileCryptoPaymentWorkflow, type ReconcileCryptoPaymentInput } from "../workflows/reconcile-crypto-payment"
import { isPaymentLockBusy } from "../workflows/steps/payment-lock"

/** Held by the process running a tick (the scheduled job), so only one reads at a time. */
export const RECONCILE_TICK_LOCK = "crypto-payment:reconcile-tick"

/** The share of each tick's budget settled payments may use (at least one read), after the open ones. */
export function settledShare(budget: number): number {
  return Math.max(1, Math.floor(budget / 10))
}

export type TickReport = {
  /** Rows the due queries returned (never more than the budget). */
  loaded: number
  checked: number
  failed: number
  /** Reads whose decision acted in Medusa (a capture, a cancel). */
  changed: number
  /** The service answered 429: the job pauses until Retry-After. */
  rateLimited: boolean
  /** The job was paused by an earlier 429 and read nothing. */
  paused: boolean
  /** The tick's lease was lost (a renewal failed): the tick stopped before its next read. */
  tickLost: boolean
}

/** A tick's two steps outside the ledger: the shop's cores, and the workflow that applies one payment's status. */
export type TickSteps = {
  cores(): Promise<PaymentCore[]>
  apply(input: ReconcileCryptoPaymentInput): Promise<{ decision: { action: string } }>
}

function tickSteps(container: MedusaContainer): TickSteps {
  return {
    cores: () => cryptoCores(container),
    apply: async (input) => (await reconcileCryptoPaymentWorkflow(container).run({ input })).result,
  }
}

/**
 * The due-payments runner, the job's work (a plain function, not a workflow: each payment it reads is
 * applied by the reconcile workflow, one run per payment, so one payment's failure never undoes
 * another's). It sits beside the job; the leading underscore keeps Medusa's job loader from taking
 * this file for a scheduled job of its own.
 *
 * One reconciliation tick: reads the payments of the ledger that are due (the due index: not
 * settled, next_check_at passed, oldest first, at most the budget of reads per tick) and applies
 * each status through the same workflow as webhooks. A 429 pauses the whole job until Retry-After;
 * a failed read postpones only its payment. Memory and queries per tick do not depend on the size
 * of the ledger.
 */
export async function runDuePayments(
  container: MedusaContainer,
  now = new Date(),
  steps: TickSteps = tickSteps(container),
  tickHeld: () => boolean = () => true
): Promise<TickReport> {
  const cryptoPayment: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
  const log = pluginLog(container.resolve(ContainerRegistrationKeys.LOGGER))
  const report: TickReport = {
    loaded: 0,
    checked: 0,
    failed: 0,
    changed: 0,
    rateLimited: false,
    paused: false,
    tickLost: false,
  }
  if (cryptoPayment.reconciliationPausedUntil() > now.getTime()) {
    report.paused = true
    return report
  }
  const cores = await steps.cores()
  if (!cores.length) return report
  // a row written before the ledger recorded providers, or of one removed since, is read by the first
  const coreOf = (row: DuePayment): PaymentCore => cores.find((core) => core.providerId === row.provider_id) ?? cores[0]

  /** Reads and applies one payment; false when the tick must stop (429, or its lease lost). */
  const readOne = async (row: DuePayment): Promise<boolean> => {
    // another process may hold the tick by now: its reads, not both (each payment keeps its own lock)
    if (!tickHeld()) {
      report.tickLost = true
      log.warn(`reconciliation tick stopped: this process no longer holds the tick's lock`)
      return false
    }
    report.checked++
    const core = coreOf(row)
    const interval = core.options.reconcileIntervalSeconds
    try {
      const answer = inLedger(await core.report(row.payment_id, "fresh"), row.payment_id)
      if (!answer.assessment) {
        const missing = await cryptoPayment.ledger.recordMissing(
          row.payment_id,
          answer.policy.reconcileIntervalSeconds,
          now
        )
        if (missing?.firstTime)
          log.warn(`the service does not know payment ${row.payment_id} (404); flagged for attention`)
        return true
      }
      const result = await steps.apply({
        payment_id: row.payment_id,
        assessment: answer.assessment,
        policy: answer.policy,
        source: "reconcile",
      })
      if (result.decision.action !== "none") report.changed++
      return true
    } catch (error) {
      report.failed++
      if (isPaymentLockBusy(error)) {
        // another run holds the payment (or a dead process's lock has not expired yet): not a failure of
        // the payment or the service, so read again at the next interval, never backed off
        await cryptoPayment.ledger.readAgainAt(row.payment_id, new Date(now.getTime() + interval * 1000))
        log.info(`reconciliation of ${row.payment_id} waits for its lock; next try in ${interval} s`)
        return true
      }
      const apiError = CryptoApiError.from(error)
      const waitSeconds = apiError?.rateLimited
        ? Math.max(interval, Math.ceil((apiError.retryAfterMs ?? 0) / 1000))
        : failedReadDelaySeconds(interval, row.check_failures + 1)
      const message = (error as Error).message
      const failure = await cryptoPayment.ledger.recordFailure(
        row.payment_id,
        message,
        { nextCheckAt: new Date(now.getTime() + waitSeconds * 1000) },
        now
      )
      log.warn(`reconciliation of ${row.payment_id} failed (${message}); next try in ${waitSeconds} s`)
      if (failure?.firstFlag)
        log.warn(`payment ${row.payment_id} needs attention: ${failure.failures} runs failed in a row`)
      if (!apiError?.rateLimited) return true
      report.rateLimited = true
      cryptoPayment.pauseReconciliation(now.getTime() + Math.max(1000, apiError.retryAfterMs ?? interval * 1000))
      return false
    }
  }

  // the providers' budget of reads; settled payments (watched for money after the fact) come last, within a small share of it
  const budget = Math.max(...cores.map((core) => core.options.reconcileBatchSize))
  const settled = await cryptoPayment.ledger.listDueSettled(now, settledShare(budget))
  // their share is kept free of open payments (a budget of one is open payments' alone)
  const reserved = budget > 1 ? settled.length : 0
  const due = await cryptoPayment.ledger.listDue(now, budget - reserved)
  report.loaded += due.length
  for (const row of due) {
    if (!(await readOne(row))) return report
  }
  const watched = settled.slice(0, Math.max(0, budget - report.checked))
  report.loaded += watched.length
  for (const row of watched) {
    if (!(await readOne(row))) return report
  }
  return report
}
