import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import type { AdminCryptoRefundSentType } from "../../../validators"
import { currentPaymentDetail, ledgerRowOr404 } from "../load"
import { openRemainderOf } from "../../../../../../lib/domain/checkout-payment"
import { coinsOfRecords } from "../../../../../../lib/domain/owed"
import { sendableCoinsOf } from "../../../../../../lib/domain/money"
import { recordsSent } from "../../../../../../lib/domain/owed-sent"
import { paymentLockKeys, underPaymentLock } from "../../../../../../workflows/steps/payment-lock"
import { AdminSawChanged, answerSawChanged } from "../../../conflict"

/**
 * POST /admin/crypto/payments/:paymentId/refund-sent { owed: [{ id, coin_amount }], reference? } — the admin
 * sent the owed records they saw, each with the coins it showed (exact, or as shown to send: rounded down to
 * what a wallet sends, which settles the record in full): 409 when one is no longer open or its coins changed
 * meanwhile. Under the capture's lock, which a basis choice (the one write of an open record's coins)
 * and a remainder's capture that withdraws records take too: what is compared is what is marked.
 */
export async function POST(req: AuthenticatedMedusaRequest<AdminCryptoRefundSentType>, res: MedusaResponse) {
  const { cryptoPayment, row } = await ledgerRowOr404(req.scope, req.params.paymentId)
  const now = new Date()
  const body = req.validatedBody
  const reference = body.reference ?? null
  const keys = await paymentLockKeys(req.scope, row.payment_id)
  try {
    await underPaymentLock(req.scope, keys, async (fence) => {
      const choice = recordsSent(await cryptoPayment.ledger.listOwed([row.payment_id]), body)
      if ("refused" in choice) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, choice.refused)
      if ("conflict" in choice) throw new AdminSawChanged(choice.conflict)
      // late coins a remainder may still complete: marked sent, they could pay the order and leave it too
      const checkout = choice.records.some((r) => r.kind === "late")
        ? await cryptoPayment.ledger.checkoutOf(row.payment_id)
        : undefined
      const open = checkout && openRemainderOf(checkout)
      if (open)
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          `The remainder ${open.payment_id} of this checkout is not settled yet: if it is paid, these coins pay the order. Mark them sent once it has expired or been captured.`
        )
      fence()
      const sent = await cryptoPayment.ledger.markOwedSent(
        row.payment_id,
        choice.records.map((r) => r.id),
        reference,
        sentNote(row.coin, choice.records, reference),
        now
      )
      if (!sent)
        throw new AdminSawChanged(
          "The amount owed changed while it was being marked sent: reload the payment and mark sent what it shows now."
        )
    })
  } catch (error) {
    if (answerSawChanged(res, error)) return
    throw error
  }
  res.json({ payment: await currentPaymentDetail(req.scope, row.payment_id) })
}

/** The timeline's line: the coins as they were shown to send (the exact ones stay on the records). */
function sentNote(coin: string | null, sent: Array<{ coin_amount: string | null }>, reference: string | null) {
  const coins = sendableCoinsOf(coin, coinsOfRecords(coin, sent))
  return `${coins ? `${coins} ${coin}` : "the owed amount"} owed to the customer marked sent${reference ? ` (${reference})` : ""}.`
}
