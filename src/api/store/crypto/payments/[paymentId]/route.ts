import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { CryptoApiError } from "../../../../../lib/crypto-api/errors"
import { pluginLog } from "../../../../../lib/runtime/log"
import { sendStoreRouteError } from "../../route-errors"
import { publicPaymentView, stalePaymentView } from "../public-payment-view"

/** What a poller is told to wait before asking again when the status is unavailable. */
const RETRY_AFTER_SECONDS = 10

/**
 * GET /store/crypto/payments/:paymentId — the public status, for storefront polling. The view is codes
 * and numbers, the same in every language; only the errors follow the request's locale.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const { paymentId } = req.params
  try {
    const view = await publicPaymentView(req.scope, paymentId)
    if (!view) {
      return sendStoreRouteError(req, res, 404, "not_found", "crypto.payment_not_found")
    }
    // the server shares reads already; a browser cache would only hide a webhook's news
    res.setHeader("Cache-Control", view.final ? "private, max-age=300" : "private, no-cache")
    return res.json({ payment: view })
  } catch (error) {
    const stale = stalePaymentView(paymentId)
    if (stale && CryptoApiError.from(error)?.transient) {
      res.setHeader("Cache-Control", "no-store")
      return res.json({ payment: stale, stale: true })
    }
    pluginLog(req.scope.resolve(ContainerRegistrationKeys.LOGGER)).warn(
      `status of ${paymentId} unavailable: ${(error as Error).message}`
    )
    res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS))
    return sendStoreRouteError(req, res, 503, "unavailable", "crypto.status_unavailable")
  }
}
