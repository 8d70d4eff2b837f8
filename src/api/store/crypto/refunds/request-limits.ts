import type { IncomingMessage } from "node:http"
import { isIP } from "node:net"
import proxyaddr from "proxy-addr"
import { RateWindow } from "../../../../lib/runtime/rate-window"

type Taken = { allowed: true } | { allowed: false; retryAfterSeconds: number }

/**
 * Per process. A client is charged only for tokens that opened nothing; an opened link is counted by its
 * owed record alone, so customers behind one proxy never close each other's form.
 */
export class RequestLimits {
  constructor(
    private readonly failuresPerClient: RateWindow,
    private readonly perLink: RateWindow
  ) {}

  /** Refused while this client's failed tokens fill their window (nothing is charged here). */
  refused(client: string): Taken {
    return this.failuresPerClient.peek(client)
  }

  /** A token that opened nothing, charged to the client that sent it. */
  failed(client: string): void {
    this.failuresPerClient.take(client)
  }

  take(owedId: string): Taken {
    return this.perLink.take(owedId)
  }

  get held(): { keys: number; characters: number } {
    return {
      keys: this.failuresPerClient.size + this.perLink.size,
      characters: this.failuresPerClient.keyLength + this.perLink.keyLength,
    }
  }
}

/** A client as the limits count it: its IP when it is one, else a key all malformed addresses share. */
export function clientKey(ip: string | undefined): string {
  return ip && ip.length <= 45 && isIP(ip) ? ip : "invalid"
}

/**
 * The client's address behind `trustedHops` of the shop's own proxies (0: the socket's peer). Medusa
 * fixes Express's `trust proxy` at 1 for the whole app; this reads the header with the shop's count.
 */
export function clientAddressOf(req: IncomingMessage, trustedHops: number): string {
  return clientKey(proxyaddr(req, (_address, hop) => hop < trustedHops))
}
