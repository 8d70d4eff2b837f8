import { randomBytes } from "node:crypto"

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

/**
 * An id as Medusa writes them (`<prefix>_<ULID>`), with its randomness from one call: Medusa's
 * generateEntityId draws one random byte per character, 16 calls into OpenSSL, a tenth of a
 * millisecond of a session's create on a busy store.
 */
export function entityId(prefix: string, now = Date.now()): string {
  let time = ""
  for (let rest = now, i = 0; i < 10; i++, rest = Math.floor(rest / 32)) time = CROCKFORD[rest % 32] + time
  const bytes = randomBytes(10)
  let random = ""
  // 80 bits as 16 characters of 5 bits each
  for (let bit = 0; bit < 80; bit += 5) {
    const byte = bit >> 3
    const offset = bit & 7
    const word = (bytes[byte] << 8) | (bytes[byte + 1] ?? 0)
    random += CROCKFORD[(word >> (11 - offset)) & 31]
  }
  return `${prefix}_${time}${random}`
}
