import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import type { AdminCryptoRefundSentType } from "../../../validators"
import { currentPaymentDetail, ledgerRowOr404 } from "../load"
import { coinsOfRecords } from "../../../../../../lib/domain/owed"
import { recordsSent } from "../../../../../../lib/domain/owed-sent"
import { paymentLockKeys, underPaymentLock } from "../../../../../../workflows/steps/payment-lock"
import { AdminSawChanged, answerSawChanged } from "../../../conflict"
import { sayDeprecated } from "../../../deprecation"

/** When the body without owed_ids (or total and as_of) was deprecated; it goes in the release after. */
const UNNAMED_DEPRECATED_AT = new Date(Date.UTC(2026, 10, 27))

/**
 * POST /admin/crypto/payments/:paymentId/refund-sent — the admin sent the owed records they saw (409 when
 * that changed meanwhile). Under the capture's lock: a remainder's capture that withdraws records never
 * interleaves.
 */
export async function POST(req: AuthenticatedMedusaRequest<AdminCryptoRefundSentType>, res: MedusaResponse) {
  const { cryptoPayment, row } = await ledgerRowOr404(req.scope, req.params.paymentId)
  const now = new Date()
  const body = req.validatedBody ?? {}
  const reference = body.reference ?? null
  const keys = await paymentLockKeys(req.scope, row.payment_id)
  let deprecated = false
  try {
    await underPaymentLock(req.scope, keys, async () => {
      const choice = recordsSent(await cryptoPayment.ledger.listOwed([row.payment_id]), body)
      if ("refused" in choice) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, choice.refused)
      if ("conflict" in choice) throw new AdminSawChanged(choice.conflict)
      deprecated = !!choice.deprecated
      const sent = await cryptoPayment.ledger.markOwedSent(
        row.payment_id,
        choice.records.map((r) => r.id),
        reference,
        sentNote(row.coin, choice.records, reference),
        now
      )
      if (!sent) throw new AdminSawChanged("What is owed changed while it was being marked sent: look again.")
    })
  } catch (error) {
    if (answerSawChanged(res, error)) return
    throw error
  }
  if (deprecated)
    sayDeprecated(res, UNNAMED_DEPRECATED_AT, "name the records sent (owed_ids), or the total and as_of you read")
  res.json({ payment: await currentPaymentDetail(req.scope, row.payment_id) })
}

function sentNote(coin: string | null, sent: Array<{ coin_amount: string | null }>, reference: string | null) {
  const coins = coinsOfRecords(coin, sent)
  return `${coins ? `${coins} ${coin}` : "the owed amount"} owed to the customer marked sent${reference ? ` (${reference})` : ""}.`
}
