import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { cryptoCore, inLedger } from "../../../../../../modules/crypto-payment/core"
import { reconcileCryptoPaymentWorkflow } from "../../../../../../workflows/reconcile-crypto-payment"
import { currentPaymentDetail, ledgerRowOr404 } from "../load"
import { answerServiceError } from "../../../service-errors"

/**
 * POST /admin/crypto/payments/:paymentId/reconcile — re-check now: read the service's status and
 * apply it through the same workflow as webhooks; answers the payment's new state.
 */
export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const { cryptoPayment, row } = await ledgerRowOr404(req.scope, req.params.paymentId)
  try {
    const core = await cryptoCore(req.scope, row.provider_id)
    const answer = inLedger(await core.report(row.payment_id, "fresh"), row.payment_id)
    if (!answer.assessment) {
      await cryptoPayment.ledger.recordMissing(row.payment_id, answer.policy.reconcileIntervalSeconds)
    } else {
      await reconcileCryptoPaymentWorkflow(req.scope).run({
        input: { payment_id: row.payment_id, assessment: answer.assessment, policy: answer.policy, source: "admin" },
      })
    }
  } catch (error) {
    if (answerServiceError(res, error, "re-check the payment")) return
    throw error
  }
  res.json({ payment: await currentPaymentDetail(req.scope, row.payment_id) })
}
