import type { MedusaResponse } from "@medusajs/framework/http"
import { CryptoApiError } from "../../../lib/crypto-api/errors"

/**
 * Never the key or the service's body. The service's 401 (our API key refused) is a 502, not a 401 that
 * would look like the admin's own session expiring. False when the error is not the service's.
 */
export function answerServiceError(res: MedusaResponse, error: unknown, action: string): boolean {
  const apiError = CryptoApiError.from(error)
  if (!apiError) return false
  if (apiError.status === 401) {
    res.status(502).json({
      type: "service_refused_key",
      message: `Could not ${action}: the crypto payment service refused the API key. Check apiKey of the crypto provider in medusa-config.ts.`,
    })
    return true
  }
  if (apiError.rateLimited) {
    const seconds = Math.max(1, Math.ceil((apiError.retryAfterMs ?? 60_000) / 1000))
    res.setHeader("Retry-After", String(seconds))
    res.status(503).json({
      type: "service_rate_limited",
      message: `Could not ${action}: the crypto payment service is rate-limiting this shop. Try again in ${seconds} s.`,
    })
    return true
  }
  res.status(502).json({
    type: "service_unavailable",
    message: `Could not ${action}: the crypto payment service did not answer properly. Try again shortly.`,
  })
  return true
}
