import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { refundLinkOf } from "../../../../../../../../workflows/refund-links"
import { owedOr404 } from "../load"

/**
 * GET /admin/crypto/payments/:paymentId/owed/:owedId/link — the customer's refund-address link of one
 * owed record ("copy link", as often as needed): its URL (the storefront's `/crypto-refund#<token>`),
 * and when it stops working.
 */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const { owed } = await owedOr404(req.scope, req.params.paymentId, req.params.owedId)
  res.json({ link: await refundLinkOf(req.scope, owed) })
}

/** POST …/link — renews the link: it works again for 30 days from now (the same URL). */
export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const { cryptoPayment } = await owedOr404(req.scope, req.params.paymentId, req.params.owedId)
  const renewed = await cryptoPayment.refundAddresses.renewLink(req.params.owedId)
  res.json({ link: await refundLinkOf(req.scope, renewed!) })
}
