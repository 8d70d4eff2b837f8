import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto"

/**
 * Secrets sealed under CRYPTO_SECRETS_KEY from the environment, so a database dump alone gives nothing
 * away. The sealed text names its version (the scheme can change without a migration), and its row is
 * authenticated with it, so a value copied into another row does not open.
 */

export const SECRETS_KEY_ENV = "CRYPTO_SECRETS_KEY"
/** Shortest material taken: 32 characters, as `openssl rand -base64 32` prints (44). */
export const SECRETS_KEY_MIN_LENGTH = 32

const VERSION = "v1"
const IV_BYTES = 12
const TAG_BYTES = 16
const HKDF_INFO = "medusa-payment-crypto:secrets:v1"

/** A sealing key, derived from the environment's material (never the material itself). */
export type SecretsKey = { readonly key: Buffer }

/** What a sealed value belongs to: bound into the seal, so it opens only in its own row. */
export type SealContext = { providerId: string; name: string }

/**
 * The key from CRYPTO_SECRETS_KEY, or null when it is not set (secrets then come from medusa-config
 * only). Material shorter than 32 characters is refused, naming the variable and never its value.
 */
export function secretsKeyFrom(material: string | undefined): SecretsKey | null {
  const given = material?.trim()
  if (!given) return null
  if (given.length < SECRETS_KEY_MIN_LENGTH)
    throw new Error(
      `${SECRETS_KEY_ENV} must be at least ${SECRETS_KEY_MIN_LENGTH} characters (make one with: openssl rand -base64 32).`
    )
  return { key: Buffer.from(hkdfSync("sha256", given, Buffer.alloc(0), HKDF_INFO, 32)) }
}

function aad({ providerId, name }: SealContext): Buffer {
  return Buffer.from(`${providerId}\u0000${name}`, "utf8")
}

/** `v1.<iv>.<ciphertext>.<tag>` in base64url: a fresh 96-bit IV each time. */
export function seal(secretsKey: SecretsKey, context: SealContext, plaintext: string): string {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv("aes-256-gcm", secretsKey.key, iv, { authTagLength: TAG_BYTES })
  cipher.setAAD(aad(context))
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
  return [VERSION, iv, body, cipher.getAuthTag()]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".")
}

/** The plaintext, or null when the seal does not open (another key, another row, a damaged value). */
export function open(secretsKey: SecretsKey, context: SealContext, sealed: string): string | null {
  const parts = sealed.split(".")
  if (parts.length !== 4 || parts[0] !== VERSION) return null
  const [, iv, body, tag] = parts.map((p) => Buffer.from(p, "base64url"))
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return null
  try {
    const decipher = createDecipheriv("aes-256-gcm", secretsKey.key, iv, { authTagLength: TAG_BYTES })
    decipher.setAAD(aad(context))
    decipher.setAuthTag(tag)
    return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8")
  } catch {
    return null
  }
}

/** A new webhook secret: 32 random bytes, base64url (43 characters). */
export function generateSecret(): string {
  return randomBytes(32).toString("base64url")
}

/** What the admin may see of a key: its last four characters. */
export function lastFour(secret: string): string {
  return secret.trim().slice(-4)
}

/**
 * Whether `typed` is the last four characters of `secret`, compared in constant time (as digests of
 * one length): a wrong guess tells nothing of how close it came.
 */
export function isLastFourOf(secret: string, typed: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest()
  return timingSafeEqual(digest(lastFour(secret)), digest(typed.trim()))
}
