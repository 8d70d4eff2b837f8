import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { pluginLog } from "../../../../../../../../../lib/runtime/log"
import { refundLinkOf } from "../../../../../../../../../workflows/refund-links"
import { owedOr404 } from "../../load"

/**
 * POST /admin/crypto/payments/:paymentId/owed/:owedId/link/reissue — a new link for the record, working
 * for 30 days: every copy sent before (a link that leaked, an email to the wrong person) stops opening.
 */
export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const { cryptoPayment, row } = await owedOr404(req.scope, req.params.paymentId, req.params.owedId)
  const reissued = await cryptoPayment.refundAddresses.reissueLink(req.params.owedId)
  pluginLog(req.scope.resolve(ContainerRegistrationKeys.LOGGER)).info(
    `refund link of ${row.payment_id} (${reissued!.kind}) re-issued by ${req.auth_context?.actor_id ?? "an admin"}: earlier copies no longer open`
  )
  res.json({ link: await refundLinkOf(req.scope, reissued!) })
}
