import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { adminPaymentDetail } from "../../admin-payment-view"
import { ledgerRowOr404 } from "./load"

/** GET /admin/crypto/payments/:paymentId — one payment of the ledger, with its cart, order and timeline. */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const { row } = await ledgerRowOr404(req.scope, req.params.paymentId)
  res.json({ payment: await adminPaymentDetail(req.scope, row) })
}
