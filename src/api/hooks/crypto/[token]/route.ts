import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { pluginLog } from "../../../../lib/runtime/log"
import { RunCoalescer } from "./run-coalescer"
import { readNotificationBody } from "./notification-body"
import { paymentIdOf } from "../../../../lib/domain/notification-hint"
import { applyCryptoNotificationWorkflow } from "../../../../workflows/apply-crypto-notification"
import type { NotifiedPaymentInput } from "../../../../workflows/steps/read-notified-payment"

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
  // the body is read no further than the payment id it names: it may be hostile
  const hinted = paymentIdOf(read.hint)
  const input: NotifiedPaymentInput = { token: req.params.token, ...(hinted ? { payment_id: hinted } : {}) }
  // duplicates are the same token naming the same payment
  const { status, body } = await notifications.run(`${input.token}\n${hinted ?? ""}`, () => apply(req.scope, input))
  res.status(status).json(body)
}

async function apply(scope: MedusaContainer, input: NotifiedPaymentInput): Promise<Answer> {
  const log = pluginLog(scope.resolve(ContainerRegistrationKeys.LOGGER))
  try {
    const { result } = await applyCryptoNotificationWorkflow(scope).run({ input })
    const { report, applied } = result
    if (!report) return { status: 200, body: { received: true, ignored: "no crypto payment of this shop" } }
    if (!report.assessment) {
      log.warn(`webhook for ${report.paymentId}, which the service does not know`)
      return { status: 200, body: { received: true, ignored: "payment unknown to the service" } }
    }
    log.info(`webhook for ${report.paymentId}: service says ${report.assessment.status}, applied ${applied}`)
    return { status: 200, body: { received: true, status: report.assessment.status, applied } }
  } catch (error) {
    // the workflow's errors keep their type, not always their class
    if ((error as MedusaError).type === MedusaError.Types.UNAUTHORIZED) {
      log.warn("webhook with an invalid token refused")
      return { status: 401, body: { message: "Invalid webhook token." } }
    }
    // a failure of the apply step names its payment (counted against it already); the read's names none
    const paymentId = (error as { payment_id?: unknown }).payment_id
    const about = typeof paymentId === "string" ? ` for ${paymentId}` : ""
    log.error(`webhook${about} not applied, asking for a retry: ${(error as Error).message}`)
    return { status: 503, body: { message: "Temporarily unable to process the notification; retry later." } }
  }
}
