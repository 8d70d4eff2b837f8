import { MedusaError } from "@medusajs/framework/utils"
import { CryptoApiError } from "../../../lib/crypto-api/errors"
import { cryptoError } from "../../../lib/domain/customer-errors"

const { INVALID_DATA, NOT_FOUND, UNEXPECTED_STATE } = MedusaError.Types

/** The session names no payment of the ledger: the customer starts a new one. */
export function noPaymentError(): MedusaError {
  return cryptoError(INVALID_DATA, "crypto.no_payment")
}

function fieldsOf(error: CryptoApiError): string {
  return Object.keys(error.details ?? {}).join(", ")
}

/**
 * Turns a client error into a MedusaError whose message a customer or shop owner can act on, with the
 * code a storefront translates (src/lib/domain/customer-errors.ts). The message never carries the API key, a
 * token or the service's own body.
 */
export function toMedusaError(error: unknown, action: string): MedusaError {
  if (error instanceof MedusaError) return error
  if (!(error instanceof CryptoApiError)) return cryptoError(UNEXPECTED_STATE, "crypto.unexpected_error", { action })
  switch (error.kind) {
    case "invalid_request":
      return cryptoError(INVALID_DATA, "crypto.request_invalid", { action, fields: fieldsOf(error) || "request" })
    case "timeout":
    case "network":
    // a create reset unanswered: not sent again, the customer's new attempt is a new create
    case "outcome_unknown":
      return cryptoError(UNEXPECTED_STATE, "crypto.service_unreachable", { action })
    case "invalid_response":
      return cryptoError(UNEXPECTED_STATE, "crypto.service_bad_answer", { action })
    case "http":
      break
  }
  const status = error.status ?? 0
  if (status === 400) {
    const fields = error.details ? ` (${fieldsOf(error)})` : ""
    return cryptoError(INVALID_DATA, "crypto.request_refused", { action, fields })
  }
  if (status === 401 || status === 403)
    return cryptoError(UNEXPECTED_STATE, "crypto.service_access_refused", { action })
  if (status === 404) return cryptoError(NOT_FOUND, "crypto.payment_unknown", { action })
  if (status === 429) return cryptoError(UNEXPECTED_STATE, "crypto.service_busy", { action })
  return cryptoError(UNEXPECTED_STATE, "crypto.service_error", { action })
}
