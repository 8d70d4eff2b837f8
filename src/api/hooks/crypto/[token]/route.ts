import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { notifiedReport, type PaymentReport } from "../../../../modules/crypto-payment/core"
import { pluginLog } from "../../../../lib/runtime/log"
import { RunCoalescer } from "./run-coalescer"
import { readNotificationBody } from "./notification-body"
import { paymentIdOf } from "../../../../lib/domain/notification-hint"
import { reconcileCryptoPaymentWorkflow } from "../../../../workflows/reconcile-crypto-payment"
import { CRYPTO_PAYMENT_MODULE } from "../../../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../../../modules/crypto-payment/service"

type Answer = { status: number; body: Record<string, unknown> }

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
  // duplicates are the same token naming the same payment (the body is read no further: it may be hostile)
  const key = `${req.params.token}\n${paymentIdOf(read.hint) ?? ""}`
  const { status, body } = await notifications.run(key, () => apply(req.scope, req.params.token, read.hint))
  res.status(status).json(body)
}

async function apply(scope: MedusaContainer, token: string, hint: unknown): Promise<Answer> {
  const log = pluginLog(scope.resolve(ContainerRegistrationKeys.LOGGER))
  const retryLater = (): Answer => ({
    status: 503,
    body: { message: "Temporarily unable to process the notification; retry later." },
  })

  let answer: PaymentReport | null
  try {
    answer = await notifiedReport(scope, token, hint ?? {})
  } catch (error) {
    if (error instanceof MedusaError && error.type === MedusaError.Types.UNAUTHORIZED) {
      log.warn("webhook with an invalid token refused")
      return { status: 401, body: { message: "Invalid webhook token." } }
    }
    log.error(`webhook not applied, asking for a retry: ${(error as Error).message}`)
    return retryLater()
  }
  if (!answer) {
    return { status: 200, body: { received: true, ignored: "no crypto payment of this shop" } }
  }
  if (!answer.assessment) {
    log.warn(`webhook for ${answer.paymentId}, which the service does not know`)
    return { status: 200, body: { received: true, ignored: "payment unknown to the service" } }
  }
  const { assessment } = answer

  try {
    const { result } = await reconcileCryptoPaymentWorkflow(scope).run({
      input: {
        payment_id: answer.paymentId,
        assessment,
        policy: answer.policy,
        source: "webhook",
        ...(answer.readAgainBy ? { read_again_by: answer.readAgainBy } : {}),
      },
    })
    log.info(`webhook for ${answer.paymentId}: service says ${assessment.status}, applied ${result.decision.action}`)
    return { status: 200, body: { received: true, status: assessment.status, applied: result.decision.action } }
  } catch (error) {
    const message = (error as Error).message
    log.error(`webhook for ${answer.paymentId} not applied, asking for a retry: ${message}`)
    // counted like the job's failures: after three in a row the payment needs attention
    const cryptoPayment: CryptoPaymentModuleService = scope.resolve(CRYPTO_PAYMENT_MODULE)
    await cryptoPayment.ledger.recordFailure(answer.paymentId, message).catch(() => undefined)
    return retryLater()
  }
}
