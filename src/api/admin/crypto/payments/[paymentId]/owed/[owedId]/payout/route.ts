import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { adminPaymentDetail } from "../../../../../admin-payment-view"
import { owedOr404 } from "../load"

/**
 * POST /admin/crypto/payments/:paymentId/owed/:owedId/payout — the admin starts sending the coins: the
 * customer's address is frozen from now on (the link shows it, and refuses changes). Needs an address.
 */
export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const { ledger, row, owed } = await owedOr404(req.scope, req.params.paymentId, req.params.owedId)
  if (owed.sent_at) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "These coins were already marked sent.")
  if (!owed.refund_address)
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "The customer has not given a refund address yet: copy the refund link and send it to them first."
    )
  await ledger.refundAddresses.startPayout(owed.id, req.auth_context?.actor_id ?? null)
  res.json({ payment: await adminPaymentDetail(req.scope, await ledger.retrieveByPaymentId(row.payment_id)) })
}
