import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import type { AdminCryptoRefundBasisType } from "../../../../../validators"
import { owedOr404 } from "../load"
import { refundCoinsOf } from "../../../../../../../../lib/domain/refund-basis"
import { owedCapOf, payoutUnderway } from "../../../../../../../../lib/domain/checkout-payment"
import { paymentLockKeys, underPaymentLock } from "../../../../../../../../workflows/steps/payment-lock"
import { currentPaymentDetail } from "../../../load"

/**
 * POST /admin/crypto/payments/:paymentId/owed/:owedId/basis { basis, coins?, fee_percent? } — the coins an
 * owed record sends back (lib/domain/refund-basis.ts); refused once the payout started or the coins were sent.
 */
export async function POST(req: AuthenticatedMedusaRequest<AdminCryptoRefundBasisType>, res: MedusaResponse) {
  const body = req.validatedBody
  if (body.basis === "fixed_coins" && !body.coins)
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "coins is required with basis fixed_coins.")
  const { cryptoPayment, row, owed } = await owedOr404(req.scope, req.params.paymentId, req.params.owedId)
  const keys = await paymentLockKeys(req.scope, row.payment_id)
  // under the payment's lock, and the checkout's refund lock: a Medusa refund recorded meanwhile is capped
  // with this record's coins, or this one with the refund's
  await underPaymentLock(req.scope, keys, (fence) =>
    cryptoPayment.ledger.underRefundLock(row.payment_id, async (checkout, trx) => {
      const record = checkout?.records.find((r) => r.id === owed.id)
      if (!checkout || !record)
        throw new MedusaError(MedusaError.Types.NOT_FOUND, `Nothing owed ${owed.id} is recorded any more.`)
      if (payoutUnderway(record))
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          record.sent_at ? "These coins were already marked sent." : "The payout of these coins has started."
        )
      const { rate } = checkout
      const cap = owedCapOf(checkout, record.id)
      if (!rate || cap === undefined)
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          "The payment's coin amount is not known yet: its rate cannot price a refund."
        )
      const { coins } = refundCoinsOf(
        { basis: body.basis, coins: body.coins, feePercent: body.fee_percent },
        record,
        rate,
        cap
      )
      fence()
      await cryptoPayment.refundAddresses.chooseBasis(
        owed.id,
        { basis: body.basis, feePercent: body.fee_percent ?? null, coins },
        req.auth_context?.actor_id ?? null,
        trx
      )
    })
  )
  res.json({ payment: await currentPaymentDetail(req.scope, row.payment_id) })
}
