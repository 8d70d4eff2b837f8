import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { signedByAny, type VerifyingKeys } from "./webhook-token"

/**
 * `{storefrontUrl}/crypto-refund#<owed id>.<secret>`: the secret kept on the record, so a new one revokes
 * every earlier copy and no other key of the shop mints one. After `#`, which no browser sends to a
 * server, it reaches no access log or Referer.
 */

/** How long a link works from the owed record's creation, or from the admin's renewal. */
export const REFUND_LINK_DAYS = 30

const OWED_ID = /^cryptoowed_[A-Za-z0-9]+$/
const SECRET = /^[A-Za-z0-9_-]{43}$/

export function newLinkSecret(): string {
  return randomBytes(32).toString("base64url")
}

export function refundToken(owedId: string, secret: string): string {
  return `${owedId}.${secret}`
}

/** The owed record a token names, read before its secret is checked (null: not a token's shape). */
export function owedIdOfToken(token: unknown): string | null {
  if (typeof token !== "string" || token.length > 200) return null
  const dot = token.lastIndexOf(".")
  if (dot <= 0) return null
  const owedId = token.slice(0, dot)
  return OWED_ID.test(owedId) ? owedId : null
}

/** Whether the token carries the record's current secret (constant-time). */
export function tokenOpens(token: unknown, owed: { id: string; link_secret?: string | null }): boolean {
  if (!owed.link_secret || owedIdOfToken(token) !== owed.id) return false
  const given = Buffer.from((token as string).slice(owed.id.length + 1))
  const kept = Buffer.from(owed.link_secret)
  return SECRET.test(given.toString()) && given.length === kept.length && timingSafeEqual(given, kept)
}

/** When a link stops working: its renewal's end, else REFUND_LINK_DAYS after the record's creation. */
export function refundLinkExpiry(owed: { created_at: Date | string; link_expires_at?: Date | string | null }): Date {
  if (owed.link_expires_at) return new Date(owed.link_expires_at)
  return new Date(new Date(owed.created_at).getTime() + REFUND_LINK_DAYS * 86_400_000)
}

export function refundLinkUrl(storefrontUrl: string, token: string): string {
  return `${storefrontUrl.replace(/\/+$/, "")}/crypto-refund#${token}`
}

// ---- links emailed before secrets: `<id>.<HMAC-SHA256(webhook key, context + id)>`, honoured until
// the record's `link_legacy_until` (the expiry they had when secrets came), never minted again.
const LEGACY_CONTEXT = "medusa-payment-crypto:refund-address:v1:"

function legacySignature(owedId: string, key: Buffer): string {
  return createHmac("sha256", key)
    .update(LEGACY_CONTEXT + owedId)
    .digest("base64url")
}

/** A legacy token for `owedId` under `key`, as the links of migrated records carry it. */
export function signLegacyRefundToken(owedId: string, key: Buffer): string {
  return `${owedId}.${legacySignature(owedId, key)}`
}

/** Whether a legacy token was signed with one of the keys for this owed record (constant-time). */
export function verifyLegacyRefundToken(token: unknown, owedId: string, keys: VerifyingKeys): boolean {
  if (owedIdOfToken(token) !== owedId) return false
  return signedByAny((token as string).slice(owedId.length + 1), keys, (key) => legacySignature(owedId, key))
}
