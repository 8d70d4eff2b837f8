import type { MedusaResponse } from "@medusajs/framework/http"

/**
 * Says an answer came from a deprecated form of a request (RFC 9745's Deprecation header: the date it
 * was deprecated; a Warning saying what replaces it). The form goes in the release after.
 */
export function sayDeprecated(res: MedusaResponse, since: Date, instead: string): void {
  res.setHeader("Deprecation", `@${Math.floor(since.getTime() / 1000)}`)
  res.setHeader("Warning", `299 - "${instead}"`)
}
