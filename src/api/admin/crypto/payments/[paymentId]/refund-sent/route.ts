import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { adminPaymentDetail } from "../../../admin-payment-view"
import type { AdminCryptoRefundSentType } from "../../../validators"
import { ledgerRowOr404 } from "../load"
import { coinsOfRecords } from "../../../../../../lib/domain/owed"
import { paymentLockKeys, underPaymentLock } from "../../../../../../workflows/steps/payment-lock"

/**
 * POST /admin/crypto/payments/:paymentId/refund-sent — the admin sent what is owed now from the
 * service's dashboard: every open owed record of the payment is marked sent, with one optional
 * reference (a transaction hash, say). Records that arrive later stay owed.
 */
export async function POST(req: AuthenticatedMedusaRequest<AdminCryptoRefundSentType>, res: MedusaResponse) {
  const { ledger, row } = await ledgerRowOr404(req.scope, req.params.paymentId)
  const now = new Date()
  const reference = req.validatedBody?.reference ?? null
  // under the lock a capture takes: a remainder's capture that withdraws these records never interleaves
  const keys = await paymentLockKeys(req.scope, row.payment_id)
  const sent = await underPaymentLock(req.scope, keys, () => ledger.markOwedSent(row.payment_id, reference, now))
  if (!sent.length) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Nothing is owed to the customer for this crypto payment.")
  }
  const sentCoins = coinsOfRecords(row.coin, sent)
  const coins = sentCoins ? `${sentCoins} ${row.coin}` : "the owed amount"
  const entries = ((row.timeline as { entries?: unknown[] } | null)?.entries ?? []) as unknown[]
  // a refund recorded meanwhile keeps the payment owed (its own write raises the flag after its insert)
  const stillOwed = (await ledger.listOwed([row.payment_id])).some((r) => !r.sent_at)
  await ledger.updateCryptoPayments({
    id: row.id,
    refund_owed: stillOwed,
    timeline: {
      entries: [
        ...entries,
        {
          at: now.toISOString(),
          source: "admin",
          status: row.status,
          outcome: "refund_sent",
          confirmations: row.confirmations,
          received: row.received_amount ?? "0",
          note: `${coins} owed to the customer marked sent${reference ? ` (${reference})` : ""}.`,
        },
      ],
    },
  })
  res.json({ payment: await adminPaymentDetail(req.scope, await ledger.retrieveByPaymentId(row.payment_id)) })
}
