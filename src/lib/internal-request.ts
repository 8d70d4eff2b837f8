import type { ProviderWebhookPayload } from "@medusajs/framework/types"

/**
 * Requests the plugin's own route and job send to the provider through the payment module's
 * getWebhookActionAndData (the provider holds the options, the secret and the client). They are
 * branded with a registered symbol, which no HTTP body can carry, so a request arriving through
 * Medusa's public /hooks/payment route can never pose as one.
 */
export const INTERNAL_REQUEST = Symbol.for("medusa-payment-crypto.internal-request")

export type InternalRequest =
  | { op: "verify"; token: string }
  | { op: "assess"; sessionId: string; sessionData: Record<string, unknown> }
  | { op: "settings" }

export function internalPayload(request: InternalRequest): ProviderWebhookPayload["payload"] {
  return { data: { ...request, [INTERNAL_REQUEST]: true }, rawData: "", headers: {} }
}

export function readInternalRequest(data: unknown): InternalRequest | undefined {
  if (data && typeof data === "object" && (data as Record<symbol, unknown>)[INTERNAL_REQUEST] === true) {
    return data as InternalRequest
  }
  return undefined
}

/** The provider's answer to "settings". */
export type ProviderSettings = {
  placeOrder: "before_payment" | "after_payment"
  reconcileIntervalSeconds: number
  reconcileBatchSize: number
}
