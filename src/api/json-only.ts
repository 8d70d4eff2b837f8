import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"

/** Methods that change nothing: a request of these passes whatever it says its body is. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"])

/**
 * Whether a Content-Type header names JSON: `application/json`, with or without parameters
 * (`; charset=utf-8`), in any case. Nothing else is: not `text/plain`, not a form, not `+json`
 * types (Medusa's JSON body parser reads `application/json` only).
 */
export function isJsonContentType(header: string | string[] | undefined): boolean {
  if (typeof header !== "string") return false
  return header.split(";", 1)[0].trim().toLowerCase() === "application/json"
}

/**
 * 415 unless the request says its body is JSON, also without a body. A cross-site form post or `no-cors`
 * fetch goes without a CORS preflight and cannot say `application/json`, so this keeps it from acting
 * with the admin's session cookie.
 */
export function requireJson(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  if (SAFE_METHODS.has(req.method?.toUpperCase() ?? "") || isJsonContentType(req.headers["content-type"])) {
    return next()
  }
  res.status(415).json({
    type: "invalid_data",
    code: "crypto.json_required",
    message:
      'This route only accepts JSON: send the request with "Content-Type: application/json" and a JSON body ({} when there is nothing to send).',
  })
}
