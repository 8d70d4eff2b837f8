import { MedusaError } from "@medusajs/framework/utils"
import { CryptoApiError } from "../../lib/crypto-api/errors"
import type { PluginLog } from "../../lib/log"

/** A ledger read or write; a failure becomes a MedusaError saying what could not be done. */
export type LedgerCall = <T>(call: () => Promise<T>, action: string) => Promise<T>

/** The provider's LedgerCall: what could not be done is written to the shop's log, and the MedusaError says it. */
export function ledgerCallLogging(log: PluginLog): LedgerCall {
  return async <T>(call: () => Promise<T>, action: string): Promise<T> => {
    try {
      return await call()
    } catch (error) {
      if (error instanceof MedusaError) throw error
      log.error(`could not ${action}: ${(error as Error)?.message}`)
      throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `Could not ${action}. Please try again.`)
    }
  }
}

/** The session names no payment of the ledger: the customer starts a new one. */
export function noPaymentError(): MedusaError {
  return new MedusaError(
    MedusaError.Types.INVALID_DATA,
    "This payment session holds no crypto payment. Please start a new payment."
  )
}

/**
 * Turns a client error into a MedusaError whose message a customer or shop owner can act on.
 * The message never carries the API key, a token or the service's own body.
 */
export function toMedusaError(error: unknown, action: string): MedusaError {
  if (error instanceof MedusaError) return error
  if (!(error instanceof CryptoApiError)) {
    return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `Could not ${action}. Please try again in a moment.`)
  }
  switch (error.kind) {
    case "invalid_request":
      return new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `Could not ${action}: the request is not valid for the crypto payment service (${Object.keys(error.details ?? {}).join(", ") || "request"}).`
      )
    case "timeout":
    case "network":
      return new MedusaError(
        MedusaError.Types.UNEXPECTED_STATE,
        `Could not ${action}: the crypto payment service is not reachable right now. Please try again in a moment.`
      )
    case "invalid_response":
      return new MedusaError(
        MedusaError.Types.UNEXPECTED_STATE,
        `Could not ${action}: the crypto payment service gave an unexpected answer. Please try again later.`
      )
    case "http":
      break
  }
  const status = error.status ?? 0
  if (status === 400) {
    return new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `Could not ${action}: the crypto payment service refused the request${error.details ? ` (${Object.keys(error.details).join(", ")})` : ""}.`
    )
  }
  if (status === 401 || status === 403) {
    return new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Could not ${action}: crypto payments are not available right now (the shop's access to the payment service was refused).`
    )
  }
  if (status === 404) {
    return new MedusaError(
      MedusaError.Types.NOT_FOUND,
      `Could not ${action}: the crypto payment service does not know this payment.`
    )
  }
  if (status === 429) {
    return new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Could not ${action}: the crypto payment service is busy. Please try again in a minute.`
    )
  }
  return new MedusaError(
    MedusaError.Types.UNEXPECTED_STATE,
    `Could not ${action}: the crypto payment service had a problem. Please try again in a moment.`
  )
}
