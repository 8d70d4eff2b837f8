/**
 * Errors of the crypto payment service client. They carry what a caller needs to decide
 * (status, details, whether a retry may help, how long to wait) and never the API key,
 * the request headers or the raw upstream body.
 */

export type CryptoApiErrorKind =
  /** The service answered with a non-2xx status. */
  | "http"
  /** No answer: connection refused/reset, DNS. */
  | "network"
  /** No answer within the hard timeout. */
  | "timeout"
  /**
   * A create's connection was reset before its whole answer came: the service may have created it or
   * not, and it is never sent again (a second invoice for one session); the caller asks to try again.
   */
  | "outcome_unknown"
  /** The service answered 2xx with a body that does not match the spec. */
  | "invalid_response"
  /** We refused to send a request that breaks the spec's rules. */
  | "invalid_request"

export class CryptoApiError extends Error {
  override readonly name = "CryptoApiError"

  constructor(
    readonly kind: CryptoApiErrorKind,
    message: string,
    readonly info: {
      method: string
      path: string
      status?: number
      /** The service's own error text (error envelope `error`), for logs only. */
      serviceError?: string
      details?: Record<string, string>
      retryAfterMs?: number
      /** Whether the request may have reached the service (a POST might then have created something). */
      maybeProcessed?: boolean
    }
  ) {
    super(message)
  }

  /**
   * The CryptoApiError behind `error`, also after a workflow engine turned it into a plain object
   * (it keeps name, message, kind and info), or undefined.
   */
  static from(error: unknown): CryptoApiError | undefined {
    if (error instanceof CryptoApiError) return error
    const e = error as { name?: unknown; kind?: unknown; message?: unknown; info?: unknown } | null
    if (e && e.name === "CryptoApiError" && typeof e.kind === "string" && e.info && typeof e.info === "object") {
      return new CryptoApiError(e.kind as CryptoApiErrorKind, String(e.message ?? ""), e.info as CryptoApiError["info"])
    }
    return undefined
  }

  get status(): number | undefined {
    return this.info.status
  }

  get details(): Record<string, string> | undefined {
    return this.info.details
  }

  get retryAfterMs(): number | undefined {
    return this.info.retryAfterMs
  }

  /**
   * 429, 5xx, timeouts, network failures and a create of unknown outcome may succeed later (a create
   * as a new one, never resent: `maybeProcessed`); 4xx and bad shapes will not.
   */
  get transient(): boolean {
    if (this.kind === "network" || this.kind === "timeout" || this.kind === "outcome_unknown") return true
    if (this.kind === "http") return this.info.status === 429 || (this.info.status ?? 0) >= 500
    return false
  }

  get rateLimited(): boolean {
    return this.kind === "http" && this.info.status === 429
  }

  get notFound(): boolean {
    return this.kind === "http" && this.info.status === 404
  }
}
