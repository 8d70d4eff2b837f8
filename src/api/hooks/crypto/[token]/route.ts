import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { pluginLog, type PluginLog } from "../../../../lib/runtime/log"
import { RunCoalescer } from "./run-coalescer"
import { readNotificationBody } from "./notification-body"
import { paymentIdOf } from "../../../../lib/domain/notification-hint"
import { reconcileCryptoPaymentWorkflow } from "../../../../workflows/reconcile-crypto-payment"
import { CRYPTO_PAYMENT_MODULE } from "../../../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../../../modules/crypto-payment/service"
import { notifiedReport } from "../../../../modules/crypto-payment/core"
import type { PaymentReport } from "../../../../modules/crypto-payment/core/types"

type Answer = { status: number; body: Record<string, unknown> }

type NotifiedPayment = {
  /** The token of the webhook's URL: the credential, an HMAC of the payment session's id. */
  token: string
  /** The payment id the body named (a hint: only a payment of that session counts). */
  payment_id?: string
}

/**
 * Duplicate notifications arriving together share a run that began after each arrived, so 200 still
 * means applied, and fifty duplicates cost two runs instead of fifty waits for the payment's lock.
 */
const notifications = new RunCoalescer<Answer>()

/**
 * The service's webhook for one payment session. The token in the URL is the credential (an HMAC of the
 * session id); the body is only a hint, never read for the status.
 *
 *   401  the token is not ours: nothing happens
 *   200  the decision is applied in Medusa (or there was nothing to do: no payment of the shop)
 *   503  not applied (service unreachable, lock busy, capture not confirmed, database): retry
 */
export async function POST(req: MedusaRequest<unknown>, res: MedusaResponse) {
  const read = await readNotificationBody(req)
  if (!read.ok) return res.status(read.status).json({ message: "The notification is too large." })
  // the body is read no further than the payment id it names: it may be hostile
  const hinted = paymentIdOf(read.hint)
  const input: NotifiedPayment = { token: req.params.token, ...(hinted ? { payment_id: hinted } : {}) }
  // duplicates are the same token naming the same payment
  const { status, body } = await notifications.run(`${input.token}\n${hinted ?? ""}`, () => apply(req.scope, input))
  res.status(status).json(body)
}

async function apply(scope: MedusaContainer, input: NotifiedPayment): Promise<Answer> {
  const log = pluginLog(scope.resolve(ContainerRegistrationKeys.LOGGER))
  let report: PaymentReport | null
  try {
    // the token checked by each crypto provider's keys, then the status read (or a read kept moments ago)
    report = await notifiedReport(scope, input.token, input.payment_id ? { paymentId: input.payment_id } : {})
  } catch (error) {
    // the core's errors keep their type, not always their class
    if ((error as MedusaError).type === MedusaError.Types.UNAUTHORIZED) {
      log.warn("webhook with an invalid token refused")
      return { status: 401, body: { message: "Invalid webhook token." } }
    }
    return retry(log, error)
  }
  if (!report) return { status: 200, body: { received: true, ignored: "no crypto payment of this shop" } }
  const { paymentId, assessment } = report
  if (!assessment) {
    log.warn(`webhook for ${paymentId}, which the service does not know`)
    return { status: 200, body: { received: true, ignored: "payment unknown to the service" } }
  }
  let applied: string
  try {
    // applied as the job and the admin's re-check apply a status: one run of the reconcile workflow
    const { result } = await reconcileCryptoPaymentWorkflow(scope).run({
      input: {
        payment_id: paymentId,
        assessment,
        policy: report.policy,
        source: "webhook",
        ...(report.readAgainBy ? { read_again_by: report.readAgainBy } : {}),
      },
    })
    applied = result.decision.action
  } catch (error) {
    // counted against the payment as the job counts its own: three in a row and it needs attention
    const cryptoPayment: CryptoPaymentModuleService = scope.resolve(CRYPTO_PAYMENT_MODULE)
    await cryptoPayment.ledger.recordFailure(paymentId, (error as Error).message).catch(() => undefined)
    return retry(log, error, paymentId)
  }
  log.info(`webhook for ${paymentId}: service says ${assessment.status}, applied ${applied}`)
  return { status: 200, body: { received: true, status: assessment.status, applied } }
}

/** Not applied (service unreachable, lock busy, capture not confirmed, database): one log line, and a retry asked. */
function retry(log: PluginLog, error: unknown, paymentId?: string): Answer {
  const about = paymentId ? ` for ${paymentId}` : ""
  log.error(`webhook${about} not applied, asking for a retry: ${(error as Error).message}`)
  return { status: 503, body: { message: "Temporarily unable to process the notification; retry later." } }
}
