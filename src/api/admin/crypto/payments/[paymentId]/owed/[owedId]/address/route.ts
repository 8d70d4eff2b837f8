import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import type { AdminCryptoRefundAddressType } from "../../../../../validators"
import { owedOr404 } from "../load"
import { checkAddressGiven } from "../../../../../../../../lib/domain/refund-address-given"
import {
  answerAddressRefused,
  refundPageView,
  sendAddressConfirmation,
} from "../../../../../../../store/crypto/refunds/refund-page"
import { pluginLog } from "../../../../../../../../lib/runtime/log"
import { currentPaymentDetail } from "../../../load"

/**
 * POST /admin/crypto/payments/:paymentId/owed/:owedId/address — an address the customer gave by another
 * channel, checked as theirs would be and confirmed to them by email (masked), so an address nobody
 * asked for does not go unnoticed.
 */
export async function POST(req: AuthenticatedMedusaRequest<AdminCryptoRefundAddressType>, res: MedusaResponse) {
  const { cryptoPayment, row, owed } = await owedOr404(req.scope, req.params.paymentId, req.params.owedId)
  const checked = checkAddressGiven(
    refundPageView({ owed, payment: row }).networks.map((n) => n.coin),
    req.validatedBody
  )
  if (!checked.ok) return answerAddressRefused(res, checked)
  const actor = req.auth_context?.actor_id ?? "admin"
  const given = await cryptoPayment.refundAddresses.give(owed.id, checked.coin, checked.address, actor)
  if (!given) throw new MedusaError(MedusaError.Types.NOT_FOUND, "These coins are no longer owed: look again.")
  if (given.outcome === "frozen" || given.outcome === "sent")
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "The payout of these coins has started: the address can no longer change."
    )
  if (given.outcome === "saved") {
    pluginLog(req.scope.resolve(ContainerRegistrationKeys.LOGGER)).info(
      `refund address for ${row.payment_id} (${owed.kind}) recorded by admin ${actor} on ${checked.coin}`
    )
    await sendAddressConfirmation(req.scope, { owed: given.owed, payment: row }, given.change.id)
  }
  res.json({ payment: await currentPaymentDetail(req.scope, row.payment_id) })
}
