import { createHash } from "node:crypto"
import { isIP } from "node:net"
import { RateWindow } from "../../../../lib/runtime/rate-window"

/**
 * How often the refund link routes answer one client and one link, per process. Every key a window
 * holds is shaped here, never the raw request: a path segment may be 16 KB, and 10,000 of them kept
 * as keys would pin hundreds of megabytes. A client is its IP when `req.ip` is one, else the one key
 * "invalid" (a forged forwarding header cannot make new keys); a link is the SHA-256 of its token
 * (43 characters, whatever was sent). The client's window is charged first and the link's only when
 * the client was let through, so a refused request stores nothing new.
 */
export class RequestLimits {
  constructor(
    private readonly perClient: RateWindow,
    private readonly perLink: RateWindow
  ) {}

  take(ip: string | undefined, token: string): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    const client = this.perClient.take(clientKey(ip))
    if (!client.allowed) return client
    return this.perLink.take(linkKey(token))
  }

  /** Keys held now, and their characters (the bound's test). */
  get held(): { keys: number; characters: number } {
    return {
      keys: this.perClient.size + this.perLink.size,
      characters: this.perClient.keyLength + this.perLink.keyLength,
    }
  }
}

/** A client as the limits count it: its IP when it is one, else a key all malformed addresses share. */
export function clientKey(ip: string | undefined): string {
  return ip && ip.length <= 45 && isIP(ip) ? ip : "invalid"
}

/** A link as the limits count it: a fixed-size digest of its token. */
export function linkKey(token: string): string {
  return createHash("sha256").update(token).digest("base64url")
}
