import { createHmac } from "node:crypto"
import { signedByAny, type VerifyingKeys } from "./webhook-token"

/**
 * The customer's refund-address link: `{storefrontUrl}/crypto-refund/{token}` where the token is
 * `<owed record id>.<HMAC-SHA256(key, context + id)>` in base64url. The key is the provider's webhook
 * signing key, in a context of its own: a webhook token never opens a refund page, nor the reverse.
 * The token names exactly one owed record; when it stops working is kept on the record (renewable).
 */
const CONTEXT = "medusa-payment-crypto:refund-address:v1:"

/** How long a link works from the owed record's creation, or from the admin's renewal. */
export const REFUND_LINK_DAYS = 30

const OWED_ID = /^cryptoowed_[A-Za-z0-9]+$/

function signature(owedId: string, key: Buffer): string {
  return createHmac("sha256", key)
    .update(CONTEXT + owedId)
    .digest("base64url")
}

export function signRefundToken(owedId: string, key: Buffer): string {
  return `${owedId}.${signature(owedId, key)}`
}

/** The owed record a token names, read before its signature is checked (null: not a token's shape). */
export function owedIdOfToken(token: unknown): string | null {
  if (typeof token !== "string" || token.length > 200) return null
  const dot = token.lastIndexOf(".")
  if (dot <= 0) return null
  const owedId = token.slice(0, dot)
  return OWED_ID.test(owedId) ? owedId : null
}

/** Whether the token was minted with one of the keys for this owed record (constant-time). */
export function verifyRefundToken(token: unknown, owedId: string, keys: VerifyingKeys): boolean {
  if (owedIdOfToken(token) !== owedId) return false
  return signedByAny((token as string).slice(owedId.length + 1), keys, (key) => signature(owedId, key))
}

/** When a link stops working: its renewal's end, else REFUND_LINK_DAYS after the record's creation. */
export function refundLinkExpiry(owed: { created_at: Date | string; link_expires_at?: Date | string | null }): Date {
  if (owed.link_expires_at) return new Date(owed.link_expires_at)
  return new Date(new Date(owed.created_at).getTime() + REFUND_LINK_DAYS * 86_400_000)
}

export function refundLinkUrl(storefrontUrl: string, token: string): string {
  return `${storefrontUrl.replace(/\/+$/, "")}/crypto-refund/${token}`
}
