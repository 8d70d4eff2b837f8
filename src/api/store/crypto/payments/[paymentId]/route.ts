import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { CryptoApiError } from "../../../../../lib/crypto-api/errors"
import { publicPaymentView, stalePaymentView, STATUS_TTL_MS } from "../../../../../lib/payment-view"

/**
 * GET /store/crypto/payments/:paymentId — the public status of one of this store's crypto payments,
 * for storefront polling. All pollers share one cached read of the service per payment.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const { paymentId } = req.params
  try {
    const view = await publicPaymentView(req.scope, paymentId)
    if (!view) {
      return res.status(404).json({ type: "not_found", message: "Crypto payment not found." })
    }
    res.setHeader("Cache-Control", `private, max-age=${Math.floor(STATUS_TTL_MS / 1000)}`)
    return res.json({ payment: view })
  } catch (error) {
    const stale = stalePaymentView(paymentId)
    if (stale && CryptoApiError.from(error)?.transient) {
      res.setHeader("Cache-Control", "no-store")
      return res.json({ payment: stale, stale: true })
    }
    req.scope.resolve(ContainerRegistrationKeys.LOGGER).warn(`medusa-payment-crypto: status of ${paymentId} unavailable: ${(error as Error).message}`)
    res.setHeader("Retry-After", String(Math.floor(STATUS_TTL_MS / 1000)))
    return res.status(503).json({ type: "unavailable", message: "The payment status is not available right now. Try again shortly." })
  }
}
