import { createHmac, timingSafeEqual } from "node:crypto"

/**
 * The webhook URL is the credential (the service signs nothing): `{backendUrl}/hooks/crypto/{token}`
 * where the token is `<session id>.<HMAC-SHA256(secret, session id)>` in base64url. Only this store
 * can mint a token for a session, and a token names exactly one session.
 */

const CONTEXT = "medusa-payment-crypto:webhook:v1:"

/** The signing key made from a secret (a webhookSecret, an accepted older one, the generated one, or the API key). */
export function signingKeyOf(material: string): Buffer {
  return createHmac("sha256", "medusa-payment-crypto:webhook-secret").update(material).digest()
}

/** The signing key of medusa-config's options alone: the configured webhookSecret, or one derived from the API key. */
export function webhookSigningKey(options: { apiKey: string; webhookSecret?: string }): Buffer {
  return signingKeyOf(options.webhookSecret ?? options.apiKey)
}

/** Keys that verify: the one that mints first, then older ones still accepted (a rotation). */
export type VerifyingKeys = Buffer | readonly Buffer[]

/** Whether `given` is one of the signatures `signatureWith` makes with the keys (each compared in constant time). */
export function signedByAny(given: string, keys: VerifyingKeys, signatureWith: (key: Buffer) => string): boolean {
  const givenBytes = Buffer.from(given)
  let found = false
  for (const key of Buffer.isBuffer(keys) ? [keys] : keys) {
    const expected = Buffer.from(signatureWith(key))
    // every key is tried, so the time taken does not say which one matched
    if (givenBytes.length === expected.length && timingSafeEqual(givenBytes, expected)) found = true
  }
  return found
}

function signature(sessionId: string, key: Buffer): string {
  return createHmac("sha256", key)
    .update(CONTEXT + sessionId)
    .digest("base64url")
}

export function signWebhookToken(sessionId: string, key: Buffer): string {
  return `${sessionId}.${signature(sessionId, key)}`
}

/** The session id a token was minted for with one of the keys, or null when the token is not ours (constant-time check). */
export function verifyWebhookToken(token: unknown, keys: VerifyingKeys): string | null {
  if (typeof token !== "string" || token.length > 256) return null
  const dot = token.lastIndexOf(".")
  if (dot <= 0) return null
  const sessionId = token.slice(0, dot)
  if (!/^[A-Za-z0-9_-]+$/.test(sessionId)) return null
  return signedByAny(token.slice(dot + 1), keys, (key) => signature(sessionId, key)) ? sessionId : null
}

export function webhookUrl(backendUrl: string, token: string): string {
  return `${backendUrl.replace(/\/+$/, "")}/hooks/crypto/${token}`
}
