import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"

/**
 * Every request under /hooks/crypto is logged by Medusa (its request logger, at `http`) with the path
 * its `originalUrl` holds when the answer goes out: the token is replaced there, never in `url`, which
 * Express routes by.
 */
export function hideWebhookToken(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  req.originalUrl = req.originalUrl.replace(/^\/hooks\/crypto\/[^/?#]*/, "/hooks/crypto/:token")
  next()
}
