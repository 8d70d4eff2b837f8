import http from "node:http"
import https from "node:https"
import axios, { AxiosInstance, AxiosResponse } from "axios"
import { isLosslessNumber, parse as parseLossless } from "lossless-json"
import type { z } from "zod"
import { CryptoApiError } from "./errors"
import {
  CreateInvoiceRequest,
  createInvoiceRequestSchema,
  CreatePaymentRequest,
  createPaymentRequestSchema,
  CurrencyBalance,
  currencyBalanceSchema,
  envelopeOf,
  errorEnvelopeSchema,
  Invoice,
  invoiceSchema,
  MerchantSummary,
  merchantSummarySchema,
  Payment,
  paymentSchema,
  StatusRecord,
  statusRecordSchema,
  WebhookTarget,
  webhookTargetSchema,
} from "./schemas"
import { Coin, COINS } from "./constants"
import { serviceAdapter } from "./transport"

export type RetryPolicy = {
  /** Extra attempts after the first. */
  retries: number
  baseDelayMs: number
  maxDelayMs: number
  /** A Retry-After longer than this is not waited for: the error goes to the caller. */
  maxRetryAfterMs: number
}

/**
 * Below the 5 s idle timeout of Node's own HTTP servers and most proxies: an idle connection is closed here
 * before the service closes it, so a create rarely meets a connection reset as it is reused (and when it does,
 * it is not sent again: outcome_unknown).
 */
export const IDLE_CONNECTION_MS = 4_000

export type CryptoApiClientOptions = {
  baseUrl: string
  /** The key, or where to get the one in force (a key saved from the admin replaces medusa-config's while the process runs). */
  apiKey: string | (() => string | Promise<string>)
  timeoutMs: number
  retry?: Partial<RetryPolicy>
  /**
   * How long a kept-alive connection may sit idle before it is closed on our side (IDLE_CONNECTION_MS), or
   * sooner when the service's Keep-Alive header announces a shorter timeout: a create is never sent twice, so
   * it must not go out on a connection the service is about to close.
   */
  idleConnectionMs?: number
  /** Receives one line per call (method, path, status, time); never the key or a body. */
  log?: (line: string) => void
  /** Injectable; defaults to a real timer. */
  sleep?: (ms: number) => Promise<void>
}

/**
 * Built once: zod compiles an object schema on its first parse, which per call would be the costliest
 * part of a session's create.
 */
const ANSWERS = {
  invoice: envelopeOf(invoiceSchema),
  payment: envelopeOf(paymentSchema),
  balances: envelopeOf(merchantSummarySchema),
  balance: envelopeOf(currencyBalanceSchema),
}

const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 300, maxDelayMs: 5_000, maxRetryAfterMs: 30_000 }

/** Reads Retry-After (seconds or an HTTP date) as milliseconds. */
export function parseRetryAfter(value: unknown, now = Date.now()): number | undefined {
  if (typeof value !== "string" || !value.trim()) return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** Exponential backoff with full jitter, capped. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt)
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}

/** The service's base URL without a trailing slash or a trailing /v1 (paths carry /v1 themselves). */
export function normaliseBaseUrl(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, "").replace(/\/v1$/i, "")
}

type Call = {
  method: "GET" | "POST"
  path: string
  body?: Record<string, unknown>
  authenticated: boolean
  /** Whether the call may be repeated after it might have reached the service. */
  idempotent: boolean
}

/**
 * The service's five endpoints. GETs are retried on network errors, 429 and 5xx; POSTs that create money
 * requests only when the service cannot have processed them (a 429, a connection refused or a name not
 * resolved), never after they may have reached it. The API key goes only in X-API-Key, never into a log
 * or an error.
 */
export class CryptoApiClient {
  private readonly http: AxiosInstance
  private readonly retry: RetryPolicy
  private readonly apiKey: () => string | Promise<string>
  private readonly log: (line: string) => void
  private readonly sleep: (ms: number) => Promise<void>
  private readonly timeoutMs: number
  /**
   * Whether a call needs a deadline of its own: axios's http adapter (kept where a proxy is set)
   * counts `timeout` as the socket's idle time, our transport over the whole exchange.
   */
  private readonly needsDeadline: boolean

  constructor(options: CryptoApiClientOptions) {
    const { apiKey } = options
    this.apiKey = typeof apiKey === "function" ? apiKey : () => apiKey
    this.retry = { ...DEFAULT_RETRY, ...options.retry }
    this.log = options.log ?? (() => {})
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)))
    this.timeoutMs = options.timeoutMs
    // Node's agents heed the service's Keep-Alive timeout hint (less a second) only when given a timeout of their own
    const idle = { keepAlive: true, timeout: options.idleConnectionMs ?? IDLE_CONNECTION_MS }
    const agents = { http: new http.Agent(idle), https: new https.Agent(idle) }
    const adapter = serviceAdapter(agents)
    this.needsDeadline = adapter === "http"
    this.http = axios.create({
      baseURL: normaliseBaseUrl(options.baseUrl),
      timeout: options.timeoutMs,
      headers: { Accept: "application/json", "Content-Type": "application/json" },
      validateStatus: () => true,
      maxRedirects: 0,
      // connections kept open between calls (a session's create and the status reads that follow
      // reuse one socket instead of opening one each), through the lean transport (transport.ts)
      adapter,
      httpAgent: agents.http,
      httpsAgent: agents.https,
      // The body is parsed by us, so a malformed one is an invalid_response, not a crash.
      transformResponse: [(data) => data],
      responseType: "text",
    })
  }

  /** The longest one status read can take: every attempt timing out, and the longest Retry-After honoured between them. */
  get worstReadMs(): number {
    return (this.retry.retries + 1) * this.timeoutMs + this.retry.retries * this.retry.maxRetryAfterMs
  }

  async createInvoice(input: CreateInvoiceRequest, webhook?: WebhookTarget): Promise<Invoice> {
    const body = this.requestBody(createInvoiceRequestSchema, input, webhook, "/v1/create_invoice")
    return this.send(
      { method: "POST", path: "/v1/create_invoice", body, authenticated: true, idempotent: false },
      ANSWERS.invoice
    ).then((r) => r.data)
  }

  async createPayment(input: CreatePaymentRequest, webhook?: WebhookTarget): Promise<Payment> {
    const body = this.requestBody(createPaymentRequestSchema, input, webhook, "/v1/create_payment")
    return this.send(
      { method: "POST", path: "/v1/create_payment", body, authenticated: true, idempotent: false },
      ANSWERS.payment
    ).then((r) => r.data)
  }

  /** The status record of a payment or invoice (public endpoint: no key is sent). */
  async getStatus(paymentId: string): Promise<StatusRecord> {
    if (!paymentId || typeof paymentId !== "string") {
      throw new CryptoApiError("invalid_request", "a paymentId is required to read a status", {
        method: "GET",
        path: "/v1/invoice/{paymentId}/status",
      })
    }
    const path = `/v1/invoice/${encodeURIComponent(paymentId)}/status`
    const record = await this.send({ method: "GET", path, authenticated: false, idempotent: true }, statusRecordSchema)
    if (record.paymentId !== paymentId) {
      throw new CryptoApiError("invalid_response", "the status record names another payment", { method: "GET", path })
    }
    return record
  }

  async getBalances(): Promise<MerchantSummary> {
    const path = "/v1/merchant/balance"
    return this.send({ method: "GET", path, authenticated: true, idempotent: true }, ANSWERS.balances).then(
      (r) => r.data
    )
  }

  async getBalance(currency: Coin): Promise<CurrencyBalance> {
    if (!(COINS as readonly string[]).includes(currency)) {
      throw new CryptoApiError("invalid_request", `currency must be one of ${COINS.join(", ")}`, {
        method: "GET",
        path: "/v1/merchant/balance/{currency}",
      })
    }
    const path = `/v1/merchant/balance/${currency}`
    return this.send({ method: "GET", path, authenticated: true, idempotent: true }, ANSWERS.balance).then(
      (r) => r.data
    )
  }

  private requestBody<S extends z.ZodType>(
    schema: S,
    input: unknown,
    webhook: WebhookTarget | undefined,
    path: string
  ): Record<string, unknown> {
    const parsed = schema.safeParse(input)
    if (!parsed.success) {
      const details: Record<string, string> = {}
      for (const issue of parsed.error.issues) details[String(issue.path[0] ?? "body")] ??= issue.message
      throw new CryptoApiError(
        "invalid_request",
        `refused to send an invalid request (${Object.keys(details).join(", ")})`,
        { method: "POST", path, details }
      )
    }
    const body = { ...(parsed.data as Record<string, unknown>) }
    if (webhook) {
      const target = webhookTargetSchema.safeParse(webhook)
      if (!target.success) {
        throw new CryptoApiError("invalid_request", "the webhook target is not a valid field name and URL", {
          method: "POST",
          path,
        })
      }
      body[target.data.field] = target.data.url
    }
    return body
  }

  private async send<S extends z.ZodType>(call: Call, schema: S): Promise<z.output<S>> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(call, schema)
      } catch (error) {
        const wait = this.retryDelay(call, error as CryptoApiError, attempt)
        if (wait === undefined) throw error
        this.log(
          `crypto service ${call.method} ${call.path}: retry ${attempt + 1}/${this.retry.retries} in ${wait} ms (${(error as CryptoApiError).message})`
        )
        await this.sleep(wait)
      }
    }
  }

  private retryDelay(call: Call, error: CryptoApiError, attempt: number): number | undefined {
    if (!(error instanceof CryptoApiError) || attempt >= this.retry.retries || !error.transient) return undefined
    // A POST is repeated only when the service cannot have processed it: one that may have reached the
    // service (or of which nobody said) could create a second money request.
    if (!call.idempotent && error.info.maybeProcessed !== false) return undefined
    if (error.retryAfterMs !== undefined) {
      return error.retryAfterMs <= this.retry.maxRetryAfterMs ? error.retryAfterMs : undefined
    }
    return backoffDelay(attempt, this.retry)
  }

  private async once<S extends z.ZodType>(call: Call, schema: S): Promise<z.output<S>> {
    const started = Date.now()
    let response: AxiosResponse<string>
    try {
      const headers = call.authenticated ? { "X-API-Key": await this.apiKey() } : {}
      response = await this.http.request<string>({
        method: call.method,
        url: call.path,
        data: call.body === undefined ? undefined : requestJson(call.body),
        headers,
        signal: this.needsDeadline ? AbortSignal.timeout(this.timeoutMs + 1_000) : undefined,
      })
    } catch (error) {
      throw this.transportError(call, error)
    }
    const { status } = response
    this.log(`crypto service ${call.method} ${call.path} → ${status} in ${Date.now() - started} ms`)
    const json = parseJson(response.data)

    if (status < 200 || status >= 300) {
      const envelope = errorEnvelopeSchema.safeParse(json)
      const info = envelope.success ? envelope.data : {}
      const retryAfterMs = parseRetryAfter(response.headers["retry-after"])
      throw new CryptoApiError("http", `the crypto payment service answered ${status} to ${call.method} ${call.path}`, {
        method: call.method,
        path: call.path,
        status,
        serviceError: info.error,
        details: info.details,
        retryAfterMs,
        // 429 means refused before processing; anything else after sending may have been processed.
        maybeProcessed: status !== 429,
      })
    }
    const parsed = schema.safeParse(json)
    if (!parsed.success) {
      const fields = [...new Set(parsed.error.issues.map((i) => i.path.join(".") || "body"))].slice(0, 5)
      throw new CryptoApiError(
        "invalid_response",
        `unexpected response from ${call.method} ${call.path} (fields: ${fields.join(", ")})`,
        {
          method: call.method,
          path: call.path,
          status,
          maybeProcessed: true,
        }
      )
    }
    return parsed.data
  }

  private transportError(call: Call, error: unknown): CryptoApiError {
    const e = error as { code?: string; name?: string }
    const timedOut =
      e.code === "ECONNABORTED" || e.code === "ETIMEDOUT" || e.name === "TimeoutError" || e.name === "CanceledError"
    const refused = e.code === "ECONNREFUSED" || e.code === "ENOTFOUND" || e.code === "EAI_AGAIN"
    // A create's connection reset before its whole answer: the service may have created it. Never sent
    // again (the transport resends only reads), and the caller asks the customer to try again.
    if (!call.idempotent && (e.code === "ECONNRESET" || e.code === "EPIPE")) {
      return new CryptoApiError(
        "outcome_unknown",
        `the connection to the crypto payment service was reset during ${call.method} ${call.path} (${e.code}): it may have been processed, so it is not sent again`,
        { method: call.method, path: call.path, maybeProcessed: true }
      )
    }
    return new CryptoApiError(
      timedOut ? "timeout" : "network",
      timedOut
        ? `the crypto payment service did not answer ${call.method} ${call.path} within ${this.timeoutMs} ms`
        : `could not reach the crypto payment service for ${call.method} ${call.path} (${e.code ?? "network error"})`,
      // A connection refused at connect (through a proxy: the proxy's; the service behind it answers a
      // 502 instead) or a name not resolved: not a byte of the request was written, it never reached the
      // service. Anything else might have.
      { method: call.method, path: call.path, maybeProcessed: !refused }
    )
  }
}

/** Keys whose numbers are coin amounts: their exact text is kept (a JS number holds about 17 digits, wei has 18 decimals). */
const AMOUNT_KEYS = new Set(["amount", "cryptoAmount", "currentBalance", "requiredAmount"])

/**
 * Parses an answer's JSON with every coin amount as its exact decimal text, whatever the service
 * wrote it as; other numbers are plain numbers.
 */
export function parseJson(text: unknown): unknown {
  if (typeof text !== "string") return text
  if (!text) return undefined
  try {
    return parseLossless(text, (key, value) =>
      isLosslessNumber(value) ? (AMOUNT_KEYS.has(key) ? value.value : Number(value.value)) : value
    )
  } catch {
    return undefined
  }
}

/**
 * A request body as JSON, its `amount` (plain decimal text, checked by the request's schema) written
 * as a JSON number with exactly its digits: never rounded through a JS number, never with an exponent.
 */
export function requestJson(body: Record<string, unknown>): string {
  const { amount, ...rest } = body
  if (typeof amount !== "string") return JSON.stringify(body)
  const others = JSON.stringify(rest).slice(1, -1)
  return `{"amount":${amount}${others ? `,${others}` : ""}}`
}
