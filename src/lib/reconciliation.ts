import { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { CryptoGateway, CRYPTO_PROVIDER_ID } from "./crypto-gateway"
import { CryptoApiError } from "./crypto-api/errors"
import { CRYPTO_PAYMENT_MODULE } from "../modules/crypto-payment"
import type CryptoPaymentModuleService from "../modules/crypto-payment/service"
import { reconcileCryptoPaymentWorkflow } from "../workflows/reconcile-crypto-payment"

/** Sessions Medusa still considers open: a customer may be paying, or an order awaits payment. */
const OPEN_SESSION_STATUSES = ["pending", "pending_authorization", "requires_more"]
/** The longest wait between two reads of a payment whose reads keep failing. */
const MAX_BACKOFF_SECONDS = 3600

export type TickReport = {
  open: number
  due: number
  checked: number
  failed: number
  /** The service answered 429: the tick stopped and the payment waits for Retry-After. */
  rateLimited: boolean
}

/**
 * One reconciliation tick: re-checks the open crypto payments that are due, oldest first, within
 * the per-tick budget of status reads, through the same workflow as webhooks. A payment is read
 * at most once per interval; a failing one backs off; a 429 ends the tick.
 */
export async function reconcileOpenPayments(container: MedusaContainer, now = new Date()): Promise<TickReport> {
  const payments = container.resolve(Modules.PAYMENT)
  const records: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const gateway = new CryptoGateway(payments)
  const settings = await gateway.settings()

  const sessions = await payments.listPaymentSessions(
    { provider_id: CRYPTO_PROVIDER_ID, status: OPEN_SESSION_STATUSES } as Parameters<typeof payments.listPaymentSessions>[0],
    { select: ["id", "created_at", "data"], order: { created_at: "ASC" }, take: 5000 }
  )
  const report: TickReport = { open: sessions.length, due: 0, checked: 0, failed: 0, rateLimited: false }
  if (!sessions.length) return report

  const known = new Map(
    (await records.listCryptoPayments({ session_id: sessions.map((s) => s.id) }, { take: sessions.length })).map((r) => [r.session_id, r])
  )
  const due = sessions
    .map((s) => ({ session: s, record: known.get(s.id), dueAt: dueAt(known.get(s.id), s.created_at, settings.reconcileIntervalSeconds) }))
    .filter(({ record, dueAt }) => !record?.settled && dueAt <= now.getTime())
    .sort((a, b) => a.dueAt - b.dueAt)
  report.due = due.length

  for (const { session, record } of due.slice(0, settings.reconcileBatchSize)) {
    try {
      report.checked++
      await reconcileCryptoPaymentWorkflow(container).run({
        input: { session_id: session.id, source: "reconcile", recheck_after_seconds: settings.reconcileIntervalSeconds },
      })
    } catch (error) {
      report.failed++
      const failures = (record?.check_failures ?? 0) + 1
      const apiError = CryptoApiError.from(error)
      const waitSeconds = apiError?.rateLimited
        ? Math.max(settings.reconcileIntervalSeconds, Math.ceil((apiError.retryAfterMs ?? 0) / 1000))
        : Math.min(MAX_BACKOFF_SECONDS, settings.reconcileIntervalSeconds * 2 ** failures)
      await postpone(records, session, record, new Date(now.getTime() + waitSeconds * 1000), failures)
      logger.warn(`medusa-payment-crypto: reconciliation of ${session.id} failed (${(error as Error).message}); next try in ${waitSeconds} s`)
      if (apiError?.rateLimited) {
        report.rateLimited = true
        break
      }
    }
  }
  return report
}

/** When a payment should be read next: as its record says, or one interval after the session began. */
function dueAt(record: { next_check_at?: Date | string | null } | undefined, createdAt: Date | string, intervalSeconds: number): number {
  if (record?.next_check_at) return new Date(record.next_check_at).getTime()
  if (record) return 0
  return new Date(createdAt).getTime() + intervalSeconds * 1000
}

/** Moves a payment's next read later; a payment never read successfully gets its first record here. */
async function postpone(
  records: CryptoPaymentModuleService,
  session: { id: string; data?: Record<string, unknown> | null },
  record: { id: string } | undefined,
  nextCheckAt: Date,
  failures: number
) {
  if (record) {
    await records.updateCryptoPayments({ id: record.id, next_check_at: nextCheckAt, check_failures: failures })
    return
  }
  await records.createCryptoPayments({
    session_id: session.id,
    payment_id: String(session.data?.paymentId ?? ""),
    kind: session.data?.kind === "payment" ? "payment" : "invoice",
    status: "UNKNOWN",
    outcome: "unknown",
    next_check_at: nextCheckAt,
    check_failures: failures,
    timeline: { entries: [] },
  })
}
