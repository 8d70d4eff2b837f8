import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import QRCode from "qrcode"
import { sendStoreRouteError } from "../../../route-errors"
import { publicPaymentView } from "../../public-payment-view"

/**
 * GET /store/crypto/payments/:paymentId/qr — the wallet URI as an SVG QR code; 404 until a coin is known
 * and once nothing is left to send.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const view = await publicPaymentView(req.scope, req.params.paymentId)
  if (!view) {
    return sendStoreRouteError(req, res, 404, "not_found", "crypto.payment_not_found")
  }
  if (!view.walletUri) {
    const code = view.address ? "crypto.nothing_to_send" : "crypto.no_address_yet"
    return sendStoreRouteError(req, res, 404, "not_found", code)
  }
  const svg = await QRCode.toString(view.walletUri, { type: "svg", errorCorrectionLevel: "M", margin: 2 })
  res.setHeader("Content-Type", "image/svg+xml; charset=utf-8")
  // the amount changes when part of it arrives: revalidated each time (Express's ETag answers 304 while it holds)
  res.setHeader("Cache-Control", "private, no-cache")
  return res.send(svg)
}
