import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import QRCode from "qrcode"
import { publicPaymentView } from "../../public-payment-view"

/**
 * GET /store/crypto/payments/:paymentId/qr — the payment's QR code as SVG, encoding the spec's
 * payload `<coin>:<address>?amount=<amount>`. 404 until a coin (and so an address) is known.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const view = await publicPaymentView(req.scope, req.params.paymentId)
  if (!view) {
    return res.status(404).json({ type: "not_found", message: "Crypto payment not found." })
  }
  if (!view.qrCode) {
    return res.status(404).json({ type: "not_found", message: "No address yet: the customer has not chosen a coin." })
  }
  const svg = await QRCode.toString(view.qrCode, { type: "svg", errorCorrectionLevel: "M", margin: 2 })
  res.setHeader("Content-Type", "image/svg+xml; charset=utf-8")
  res.setHeader("Cache-Control", "private, max-age=300")
  return res.send(svg)
}
