import type { IncomingMessage, ServerResponse } from "node:http"
import { DEFAULT_LEDGER_RULES, Ledger, LedgerRecord, UnselectedStyle } from "./ledger"
import { WebhookDispatcher } from "./webhooks"
import { FaultInjector, RateLimit } from "./faults"
import { ServiceConfig, specApi } from "./spec-api"
import { CONTROL_PREFIX, controlApi } from "./control-api"
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
  ledger: Ledger
  webhooks: WebhookDispatcher
  requests: LoggedRequest[]
  close(): Promise<void>
}

const DEFAULT_API_KEY = "sandbox_test_key"
const NOT_FOUND_PAGE = "<!doctype html><title>Not found</title><h1>Payment not found</h1>"

/**
 * Starts the sandbox of the crypto payment service: every endpoint of the spec, a hosted
 * payment page, webhooks with retries, and a control API under /__sandbox for tests; also the ECB's daily
 * file of euro reference rates (GET /ecb/eurofxref-daily.xml), for a shop's currency conversion.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const apiKey = options.apiKey ?? DEFAULT_API_KEY
  const initialConfig: ServiceConfig = {
    webhookField: options.webhookField ?? "webhookUrl",
    unselectedStyle: options.unselectedStyle ?? "absent",
    repricePercent: null,
    ...DEFAULT_LEDGER_RULES,
  }
  const config = { ...initialConfig }
  const faults = new FaultInjector(options.rateLimit ?? null)
  const requests: LoggedRequest[] = []
  let publicUrl = options.publicUrl ?? ""

  const statusRecord = (record: LedgerRecord) => ledger.statusRecord(record, config.unselectedStyle)
  const webhooks = new WebhookDispatcher(
    {
      enabled: true,
      maxAttempts: options.webhookMaxAttempts ?? 8,
      retryBaseMs: options.webhookRetryBaseMs ?? 1000,
      timeoutMs: 10_000,
    },
    statusRecord
  )
  const ledger: Ledger = new Ledger((change) => webhooks.onStatusChange(change), config)
  const ecb = new EcbFeed(() => ledger.now())
  const invoiceUrl = (paymentId: string) => `${publicUrl}/pay/${encodeURIComponent(paymentId)}`
  const serviceRoute = specApi({ apiKey, ledger, config, statusRecord, invoiceUrl })
  const controlRoute = controlApi({
    ledger,
    webhooks,
    faults,
    requests,
    ecb,
    config,
    initialConfig,
    statusRecord,
    invoiceUrl,
  })

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://sandbox.local")
    const path = url.pathname
    const method = req.method ?? "GET"
    const read = await readRequest(req, res)
    if (!read) return
    const { raw, json } = read

    if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) {
      if (!json.ok) return fail(res, 400, "body must be JSON")
      return controlRoute({ method, res, path, body: json.value, query: url.searchParams })
    }
    const page = matchPath("/pay/:paymentId", path)
    if (method === "GET" && page) {
      const record = ledger.get(page.paymentId)
      if (!record) return sendText(res, 404, "text/html; charset=utf-8", NOT_FOUND_PAGE)
      return sendText(res, 200, "text/html; charset=utf-8", hostedPage(record.paymentId))
    }
    const qr = matchPath("/pay/:paymentId/qr.svg", path)
    if (method === "GET" && qr) {
      const record = ledger.get(qr.paymentId)
      const payload = record && qrPayload(statusRecord(record))
      if (!payload) return fail(res, 404, "no address yet: choose a coin first")
      return sendText(res, 200, "image/svg+xml; charset=utf-8", await qrSvg(payload))
    }

    // only the service's endpoints and the ECB's file are logged and faulted: the control API and the page never are
    logRequest(requests, req, res, { method, path, body: json.ok ? json.value : raw })

    const fault = faults.take(method, path)
    if (fault) return faults.apply(fault, res)
    // the ECB's file stands for another service: it counts against no rate limit of the payment service's
    if (path === ECB_FILE_PATH) return ecb.answer(method, res)
    if (faults.rateLimited(res)) return
    if (!json.ok) return fail(res, 400, "Validation failure", { body: "Request body must be valid JSON" })
    return serviceRoute(req, res, path, json.value, raw)
  }

  const served = await serve(handle, options.port ?? 0, options.host ?? "127.0.0.1")
  const port = served.port
  const url = `http://${options.host && options.host !== "0.0.0.0" ? options.host : "127.0.0.1"}:${port}`
  publicUrl ||= url

  const sweeper = setInterval(() => ledger.sweep(), 1000)
  sweeper.unref()
  const miner = options.blockIntervalMs ? setInterval(() => ledger.mineBlock(), options.blockIntervalMs) : undefined
  miner?.unref()

  const close = () => {
    clearInterval(sweeper)
    if (miner) clearInterval(miner)
    webhooks.close()
    faults.close()
    ecb.close()
    return served.close()
  }
  return { url, port, apiKey, ledger, webhooks, requests, close }
}
