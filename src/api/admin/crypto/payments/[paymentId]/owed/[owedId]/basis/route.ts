import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { adminPaymentDetail } from "../../../../../admin-payment-view"
import type { AdminCryptoRefundBasisType } from "../../../../../validators"
import { owedOr404 } from "../load"
import { coinsBeyond, rateOf, sumCoins } from "../../../../../../../../lib/domain/owed"
import { refundCoinsOf } from "../../../../../../../../lib/domain/refund-basis"
import { paymentLockKeys, underPaymentLock } from "../../../../../../../../workflows/steps/payment-lock"

/**
 * POST /admin/crypto/payments/:paymentId/owed/:owedId/basis { basis, coins?, fee_percent? } — the coins
 * an owed record sends back: `rate_then` (its store amount at the rate the payment was priced at) or
 * `fixed_coins` (typed), less the fee, capped at what arrived and is not owed by its other records.
 * Recorded with who chose it; refused once the coins were sent.
 */
export async function POST(req: AuthenticatedMedusaRequest<AdminCryptoRefundBasisType>, res: MedusaResponse) {
  const body = req.validatedBody
  if (body.basis === "fixed_coins" && !body.coins)
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "coins is required with basis fixed_coins.")
  const { ledger, row, owed } = await owedOr404(req.scope, req.params.paymentId, req.params.owedId)
  if (owed.sent_at) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "These coins were already marked sent.")
  // a remainder's owed money is priced at its first payment's terms
  const terms = row.remainder_of ? ((await ledger.retrieveByPaymentId(row.remainder_of)) ?? row) : row
  const rate = rateOf(terms)
  if (!rate)
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "The payment's coin amount is not known yet: its rate cannot price a refund."
    )
  const keys = await paymentLockKeys(req.scope, row.payment_id)
  await underPaymentLock(req.scope, keys, async () => {
    const others = (await ledger.listOwed([row.payment_id])).filter((r) => r.id !== owed.id)
    const arrived = sumCoins(rate.coin, [row.received_amount ?? "0"])
    const cap = coinsBeyond(
      rate.coin,
      arrived,
      sumCoins(
        rate.coin,
        others.map((r) => r.coin_amount)
      )
    )
    const { coins } = refundCoinsOf(
      { basis: body.basis, coins: body.coins, feePercent: body.fee_percent },
      owed,
      rate,
      cap
    )
    await ledger.refundAddresses.chooseBasis(
      owed.id,
      { basis: body.basis, feePercent: body.fee_percent ?? null, coins },
      req.auth_context?.actor_id ?? null
    )
  })
  res.json({ payment: await adminPaymentDetail(req.scope, await ledger.retrieveByPaymentId(row.payment_id)) })
}
