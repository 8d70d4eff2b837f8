import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { Modules } from "@medusajs/framework/utils"
import { CryptoGateway, inLedger } from "../../../../../../lib/provider-door/gateway"
import { reconcileCryptoPaymentWorkflow } from "../../../../../../workflows/reconcile-crypto-payment"
import { adminPaymentDetail } from "../../../admin-payment-view"
import { ledgerRowOr404 } from "../load"
import { answerServiceError } from "../../../service-errors"

/**
 * POST /admin/crypto/payments/:paymentId/reconcile — re-check now: read the service's status and
 * apply it through the same workflow as webhooks; answers the payment's new state.
 */
export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const { ledger, row } = await ledgerRowOr404(req.scope, req.params.paymentId)
  const gateway = new CryptoGateway(req.scope.resolve(Modules.PAYMENT))
  try {
    const answer = inLedger(
      await gateway.call({ op: "report", paymentId: row.payment_id, freshness: "fresh", providerId: row.provider_id }),
      row.payment_id
    )
    if (!answer.assessment) {
      await ledger.recordMissing(row.payment_id, answer.policy.reconcileIntervalSeconds)
    } else {
      await reconcileCryptoPaymentWorkflow(req.scope).run({
        input: { payment_id: row.payment_id, assessment: answer.assessment, policy: answer.policy, source: "admin" },
      })
    }
  } catch (error) {
    if (answerServiceError(res, error, "re-check the payment")) return
    throw error
  }
  res.json({ payment: await adminPaymentDetail(req.scope, await ledger.retrieveByPaymentId(row.payment_id)) })
}
