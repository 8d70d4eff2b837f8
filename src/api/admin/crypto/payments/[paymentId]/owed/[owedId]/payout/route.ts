import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import type { AdminCryptoPayoutType } from "../../../../../validators"
import { owedOr404 } from "../load"
import { openRemainderOf } from "../../../../../../../../lib/domain/checkout-payment"
import { paymentLockKeys, underPaymentLock } from "../../../../../../../../workflows/steps/payment-lock"
import { AdminSawChanged, answerSawChanged } from "../../../../../conflict"
import { sayDeprecated } from "../../../../../deprecation"
import { currentPaymentDetail } from "../../../load"

/** When the body without the address shown was deprecated; it goes in the release after. */
const ADDRESSLESS_DEPRECATED_AT = new Date(Date.UTC(2026, 10, 27))

/**
 * POST /admin/crypto/payments/:paymentId/owed/:owedId/payout { address } — freezes the address the admin
 * was shown (409 when it changed since). Refused while a remainder of the checkout is open: its capture
 * would pay with coins that are leaving.
 */
export async function POST(req: AuthenticatedMedusaRequest<AdminCryptoPayoutType>, res: MedusaResponse) {
  const { cryptoPayment, row } = await owedOr404(req.scope, req.params.paymentId, req.params.owedId)
  const shown = req.validatedBody?.address
  const keys = await paymentLockKeys(req.scope, row.payment_id)
  let deprecated = false
  try {
    await underPaymentLock(req.scope, keys, async (fence) => {
      const owed = await cryptoPayment.refundAddresses.owed(req.params.owedId)
      if (!owed) throw new AdminSawChanged("These coins are no longer owed (withdrawn meanwhile): look again.")
      if (owed.sent_at) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "These coins were already marked sent.")
      if (!owed.refund_address)
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          "The customer has not given a refund address yet: copy the refund link and send it to them first."
        )
      if (shown === undefined) {
        // the body before the address (deprecated): safe only while the address never changed once given
        if ((await cryptoPayment.refundAddresses.changes([owed.id])).length > 1)
          throw new AdminSawChanged(
            "The customer changed the refund address since it was first given: confirm the address you send to (address)."
          )
        deprecated = true
      } else if (shown !== owed.refund_address) {
        throw new AdminSawChanged(
          "The customer changed the refund address since you loaded it: check the new address before starting the payout."
        )
      }
      const checkout = await cryptoPayment.ledger.checkoutOf(row.payment_id)
      const open = checkout && openRemainderOf(checkout)
      if (open)
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          `The remainder ${open.payment_id} of this checkout is still open: if it is paid, these coins pay the order. Start the payout once it has expired.`
        )
      fence()
      await cryptoPayment.refundAddresses.startPayout(owed.id, req.auth_context?.actor_id ?? null)
    })
  } catch (error) {
    if (answerSawChanged(res, error)) return
    throw error
  }
  if (deprecated) sayDeprecated(res, ADDRESSLESS_DEPRECATED_AT, "send the address you were shown (address)")
  res.json({ payment: await currentPaymentDetail(req.scope, row.payment_id) })
}
