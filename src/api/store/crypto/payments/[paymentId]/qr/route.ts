import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import QRCode from "qrcode"
import { sendStoreRouteError } from "../../../route-errors"
import { publicPaymentView } from "../../public-payment-view"

/**
 * GET /store/crypto/payments/:paymentId/qr — the payment's QR code as SVG, encoding the spec's
 * payload `<coin>:<address>?amount=<amount>`. 404 until a coin (and so an address) is known; errors in the
 * request's locale.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const view = await publicPaymentView(req.scope, req.params.paymentId)
  if (!view) {
    return sendStoreRouteError(req, res, 404, "not_found", "crypto.payment_not_found")
  }
  if (!view.qrCode) {
    return sendStoreRouteError(req, res, 404, "not_found", "crypto.no_address_yet")
  }
  const svg = await QRCode.toString(view.qrCode, { type: "svg", errorCorrectionLevel: "M", margin: 2 })
  res.setHeader("Content-Type", "image/svg+xml; charset=utf-8")
  res.setHeader("Cache-Control", "private, max-age=300")
  return res.send(svg)
}
