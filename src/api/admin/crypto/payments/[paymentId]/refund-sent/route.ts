import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { adminPaymentDetail } from "../../../payment-view"
import type { AdminCryptoRefundSentType } from "../../../validators"
import { ledgerRowOr404 } from "../load"

/**
 * POST /admin/crypto/payments/:paymentId/refund-sent — the admin sent the owed coins from the
 * service's dashboard: the refund is no longer owed (with an optional transaction reference).
 */
export async function POST(req: AuthenticatedMedusaRequest<AdminCryptoRefundSentType>, res: MedusaResponse) {
  const { ledger, row } = await ledgerRowOr404(req.scope, req.params.paymentId)
  if (!row.refund_owed) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "No refund is owed for this crypto payment.")
  }
  const entries = ((row.timeline as { entries?: unknown[] } | null)?.entries ?? []) as unknown[]
  const now = new Date()
  const reference = req.validatedBody?.reference ?? null
  await ledger.updateCryptoPayments({
    id: row.id,
    refund_owed: false,
    refund_sent_at: now,
    refund_reference: reference,
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
          note: `Refund of ${row.refund_amount ?? "the owed amount"} ${row.coin ?? ""} marked sent${reference ? ` (${reference})` : ""}.`,
        },
      ],
    },
  })
  res.json({ payment: await adminPaymentDetail(req.scope, await ledger.retrieveByPaymentId(row.payment_id)) })
}
