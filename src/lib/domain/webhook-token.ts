import { createHmac, timingSafeEqual } from "node:crypto"

/**
 * The webhook URL is the credential (the service signs nothing): `{backendUrl}/hooks/crypto/{token}`
 * where the token is `<session id>.<HMAC-SHA256(secret, session id)>` in base64url. Only this store
 * can mint a token for a session, and a token names exactly one session.
 */

const CONTEXT = "medusa-payment-crypto:webhook:v1:"

/** The signing secret: the configured webhookSecret, or one derived from the API key. */
export function webhookSigningKey(options: { apiKey: string; webhookSecret?: string }): Buffer {
  const material = options.webhookSecret ?? options.apiKey
  return createHmac("sha256", "medusa-payment-crypto:webhook-secret").update(material).digest()
}

function signature(sessionId: string, key: Buffer): string {
  return createHmac("sha256", key)
    .update(CONTEXT + sessionId)
    .digest("base64url")
}

export function signWebhookToken(sessionId: string, key: Buffer): string {
  return `${sessionId}.${signature(sessionId, key)}`
}

/** The session id a token was minted for, or null when the token is not ours (constant-time check). */
export function verifyWebhookToken(token: unknown, key: Buffer): string | null {
  if (typeof token !== "string" || token.length > 256) return null
  const dot = token.lastIndexOf(".")
  if (dot <= 0) return null
  const sessionId = token.slice(0, dot)
  if (!/^[A-Za-z0-9_-]+$/.test(sessionId)) return null
  const given = Buffer.from(token.slice(dot + 1))
  const expected = Buffer.from(signature(sessionId, key))
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  return sessionId
}

export function webhookUrl(backendUrl: string, token: string): string {
  return `${backendUrl.replace(/\/+$/, "")}/hooks/crypto/${token}`
}
