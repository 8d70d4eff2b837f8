import type { IncomingMessage, ServerResponse } from "node:http"
import { DEFAULT_PAYMENT_BOOK_RULES, PaymentBook, UnselectedStyle } from "./payment-book"
import type { BookEntry } from "./book-entry"
import { WebhookDispatcher } from "./webhooks"
import { FaultInjector, RateLimit } from "./faults"
import { ServiceConfig, SpecApi, specApi } from "./spec-api"
import { CONTROL_PREFIX, controlApi } from "./control-api"
import type { ControlCall } from "./control-context"
import { fail, matchPath, readRequest, sendText, serve } from "./http"
import { hostedPage, qrPayload, qrSvg } from "./page"
import { LoggedRequest, logRequest } from "./request-log"
import { ECB_FILE_PATH, EcbFeed } from "./ecb-feed"

export { CONTROL_PREFIX } from "./control-api"
export type { Chaos, Fault, FaultKind, RateLimit } from "./faults"
export type { LoggedRequest } from "./request-log"
export { ECB_FILE_PATH } from "./ecb-feed"

export type SandboxOptions = {
  port?: number
  host?: string
  apiKey?: string
  /** Base of invoiceUrl links (defaults to the listening address). */
  publicUrl?: string
  /** Body field of create_invoice/create_payment that carries the webhook URL. */
  webhookField?: string
  rateLimit?: RateLimit | null
  webhookRetryBaseMs?: number
  webhookMaxAttempts?: number
  /** Adds one confirmation to every transaction at this interval (0: only by hand). */
  blockIntervalMs?: number
  /** How a status record shows currency/address before an invoice's coin is chosen. */
  unselectedStyle?: UnselectedStyle
}

export type Sandbox = {
  url: string
  port: number
  apiKey: string
  /** The service's own record of its invoices and payments. */
  book: PaymentBook
  /** @deprecated The same as `book` (renamed: "ledger" is the plugin's table); removed in the next minor release. */
  ledger: PaymentBook
  webhooks: WebhookDispatcher
  requests: LoggedRequest[]
  close(): Promise<void>
}

const DEFAULT_API_KEY = "sandbox_test_key"
const NOT_FOUND_PAGE = "<!doctype html><title>Not found</title><h1>Payment not found</h1>"

/** The parts of a running sandbox that answer its requests. */
type SandboxParts = {
  book: PaymentBook
  webhooks: WebhookDispatcher
  faults: FaultInjector
  requests: LoggedRequest[]
  ecb: EcbFeed
  statusRecord: (record: BookEntry) => Record<string, unknown>
  serviceRoute: SpecApi
  controlRoute: (call: ControlCall) => void
}

/** One request to the sandbox, its body read: as text (raw), and parsed if it is JSON (json). */
type SandboxRequest = {
  req: IncomingMessage
  res: ServerResponse
  method: string
  path: string
  query: URLSearchParams
} & NonNullable<Awaited<ReturnType<typeof readRequest>>>

/** A route of the hosted page, with the parameters of its path. */
type PageHandler = (sandbox: SandboxParts, res: ServerResponse, params: Record<string, string>) => Promise<void> | void

/** GET /pay/:paymentId: the hosted payment page. */
const showPage: PageHandler = ({ book }, res, params) => {
  const record = book.get(params.paymentId)
  if (!record) return sendText(res, 404, "text/html; charset=utf-8", NOT_FOUND_PAGE)
  return sendText(res, 200, "text/html; charset=utf-8", hostedPage(record.paymentId))
}

/** GET /pay/:paymentId/qr.svg: the QR code of the payment, once its coin (and so its address) is known. */
const showQrCode: PageHandler = async ({ book, statusRecord }, res, params) => {
  const record = book.get(params.paymentId)
  const payload = record && qrPayload(statusRecord(record))
  if (!payload) return fail(res, 404, "no address yet: choose a coin first")
  return sendText(res, 200, "image/svg+xml; charset=utf-8", await qrSvg(payload))
}

/** "METHOD /path" → handler of the hosted page, tried in this order after the control API. */
const PAGE_ROUTES: Record<string, PageHandler> = {
  "GET /pay/:paymentId": showPage,
  "GET /pay/:paymentId/qr.svg": showQrCode,
}

const PAGE_ROUTE_TABLE = Object.entries(PAGE_ROUTES).map(([key, handler]) => {
  const [method, pattern] = key.split(" ")
  return { method, pattern, handler }
})

/**
 * The service's endpoints and the ECB's file: logged, then a fault or the rate limit may answer instead.
 * The control API and the page are never logged nor faulted.
 */
function serveService(sandbox: SandboxParts, { req, res, method, path, raw, json }: SandboxRequest) {
  const { faults, requests, ecb } = sandbox
  logRequest(requests, req, res, { method, path, body: json.ok ? json.value : raw })
  const fault = faults.take(method, path)
  if (fault) return faults.apply(fault, res)
  // the ECB's file stands for another service: it counts against no rate limit of the payment service's
  if (path === ECB_FILE_PATH) return ecb.answer(method, res)
  if (faults.rateLimited(res)) return
  if (!json.ok) return fail(res, 400, "Validation failure", { body: "Request body must be valid JSON" })
  return sandbox.serviceRoute(req, res, path, json.value, raw)
}

/** The control API (under /__sandbox), for tests, the demo and the hosted page. */
function serveControl(sandbox: SandboxParts, { res, method, path, query, json }: SandboxRequest) {
  if (!json.ok) return fail(res, 400, "body must be JSON")
  return sandbox.controlRoute({ method, res, path, body: json.value, query })
}

/** Every request to the sandbox: the control API, else the hosted page, else the service. */
async function handleRequest(sandbox: SandboxParts, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? "/", "http://sandbox.local")
  const path = url.pathname
  const method = req.method ?? "GET"
  const read = await readRequest(req, res)
  if (!read) return
  const request: SandboxRequest = { req, res, method, path, query: url.searchParams, ...read }

  if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) return serveControl(sandbox, request)
  for (const route of PAGE_ROUTE_TABLE) {
    const params = matchPath(route.pattern, path)
    if (params && route.method === method) return route.handler(sandbox, res, params)
  }
  return serveService(sandbox, request)
}

/** The config the sandbox starts with (and POST /__sandbox/reset restores). */
function initialConfigOf(options: SandboxOptions): ServiceConfig {
  return {
    webhookField: options.webhookField ?? "webhookUrl",
    unselectedStyle: options.unselectedStyle ?? "absent",
    repricePercent: null,
    apiKeys: null,
    ...DEFAULT_PAYMENT_BOOK_RULES,
  }
}

/** The sandbox's parts, wired together; `invoiceUrl` links a payment's hosted page. */
function assembleSandbox(
  options: SandboxOptions,
  apiKey: string,
  invoiceUrl: (paymentId: string) => string
): SandboxParts {
  const initialConfig = initialConfigOf(options)
  const config = { ...initialConfig }
  const faults = new FaultInjector(options.rateLimit ?? null)
  const requests: LoggedRequest[] = []

  const statusRecord = (record: BookEntry) => book.statusRecord(record, config.unselectedStyle)
  const webhooks = new WebhookDispatcher(
    {
      enabled: true,
      maxAttempts: options.webhookMaxAttempts ?? 8,
      retryBaseMs: options.webhookRetryBaseMs ?? 1000,
      timeoutMs: 10_000,
    },
    statusRecord
  )
  const book: PaymentBook = new PaymentBook((change) => webhooks.onStatusChange(change), config)
  const ecb = new EcbFeed(() => book.now())
  const serviceRoute = specApi({ apiKey, book, config, statusRecord, invoiceUrl })
  const controlRoute = controlApi({
    book,
    webhooks,
    faults,
    requests,
    ecb,
    config,
    initialConfig,
    statusRecord,
    invoiceUrl,
  })
  return { book, webhooks, faults, requests, ecb, statusRecord, serviceRoute, controlRoute }
}

/** Starts the sandbox's clocks: expiry every second, and a block every `blockIntervalMs` if set; returns their stop. */
function startClocks(book: PaymentBook, blockIntervalMs: number | undefined): () => void {
  const sweeper = setInterval(() => book.sweep(), 1000)
  sweeper.unref()
  const miner = blockIntervalMs ? setInterval(() => book.mineBlock(), blockIntervalMs) : undefined
  miner?.unref()
  return () => {
    clearInterval(sweeper)
    if (miner) clearInterval(miner)
  }
}

/**
 * Starts the sandbox of the crypto payment service: every endpoint of the spec, a hosted
 * payment page, webhooks with retries, and a control API under /__sandbox for tests; also the ECB's daily
 * file of euro reference rates (GET /ecb/eurofxref-daily.xml), for a shop's currency conversion.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const apiKey = options.apiKey ?? DEFAULT_API_KEY
  // known once the server listens, unless given
  let publicUrl = options.publicUrl ?? ""
  const invoiceUrl = (paymentId: string) => `${publicUrl}/pay/${encodeURIComponent(paymentId)}`
  const sandbox = assembleSandbox(options, apiKey, invoiceUrl)
  const { book, webhooks, faults, requests, ecb } = sandbox

  const handle = (req: IncomingMessage, res: ServerResponse) => handleRequest(sandbox, req, res)
  const served = await serve(handle, options.port ?? 0, options.host ?? "127.0.0.1")
  const port = served.port
  const url = `http://${options.host && options.host !== "0.0.0.0" ? options.host : "127.0.0.1"}:${port}`
  publicUrl ||= url

  const stopClocks = startClocks(book, options.blockIntervalMs)
  const close = () => {
    stopClocks()
    webhooks.close()
    faults.close()
    ecb.close()
    return served.close()
  }
  return { url, port, apiKey, book, ledger: book, webhooks, requests, close }
}
