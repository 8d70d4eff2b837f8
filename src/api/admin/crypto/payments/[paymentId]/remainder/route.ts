import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError, Modules, PaymentSessionStatus } from "@medusajs/framework/utils"
import { cryptoCore, inLedger } from "../../../../../../modules/crypto-payment/core"
import { currentPaymentDetail, ledgerRowOr404 } from "../load"
import { answerServiceError } from "../../../service-errors"
import { lateUnderway } from "../../../../../../lib/domain/checkout-payment"
import { paymentLockKeys, underPaymentLock } from "../../../../../../workflows/steps/payment-lock"

/**
 * POST /admin/crypto/payments/:paymentId/remainder — the remainder of a short payment that expired, on
 * the same session (reopened, so the storefront shows its address). Answers `{ payment }`: the remainder.
 */
export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const { cryptoPayment, row } = await ledgerRowOr404(req.scope, req.params.paymentId)
  // under the lock a capture or cancel of the collection takes: the first payment is read afresh and
  // assessed (its coins confirmed) with nothing changing the session meanwhile
  const keys = await paymentLockKeys(req.scope, row.payment_id)
  const remainder = await underPaymentLock(req.scope, keys, async (fence) => {
    if (await orderCanceled(req, row.payment_collection_id)) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        "The order of this crypto payment was canceled when it expired: a remainder would arrive as a late payment. Refund what arrived from the service's dashboard, or create a new order."
      )
    }
    const checkout = await cryptoPayment.ledger.checkoutOf(row.payment_id)
    if (checkout && lateUnderway(checkout)) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        "What arrived for this crypto payment is being sent back to the customer (its payout started, or it was sent): a remainder cannot complete it. Create a new payment for the whole amount instead."
      )
    }
    try {
      const core = await cryptoCore(req.scope, row.provider_id)
      fence()
      const answer = inLedger(await core.remainder(row.payment_id), row.payment_id)
      if (answer.created && answer.sessionData) {
        fence()
        await reopenSession(req, row.session_id, answer.sessionData)
      }
      return answer
    } catch (error) {
      if (answerServiceError(res, error, "request the remainder")) return undefined
      throw error
    }
  })
  if (!remainder) return
  res.json({ payment: await currentPaymentDetail(req.scope, remainder.paymentId) })
}

async function orderCanceled(req: AuthenticatedMedusaRequest, collectionId: string | null): Promise<boolean> {
  if (!collectionId) return false
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order_payment_collection",
    fields: ["order.status"],
    filters: { payment_collection_id: collectionId },
  })
  return (data[0] as { order?: { status?: string } } | undefined)?.order?.status === "canceled"
}

/** The session shows the remainder's public data and is open again, when it still exists. */
async function reopenSession(req: AuthenticatedMedusaRequest, sessionId: string, data: Record<string, unknown>) {
  const payments = req.scope.resolve(Modules.PAYMENT)
  const [session] = await payments.listPaymentSessions({ id: sessionId })
  if (!session) return
  await payments.updatePaymentSession({
    id: session.id,
    amount: session.amount,
    currency_code: session.currency_code,
    data: { ...(session.data ?? {}), ...data },
    status: PaymentSessionStatus.PENDING,
  })
}
