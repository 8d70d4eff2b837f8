import { createServer, IncomingMessage, Server, ServerResponse } from "node:http"
import type { AddressInfo, Socket } from "node:net"
import { timingSafeEqual } from "node:crypto"
import { Coin, COIN_DECIMALS, COINS, EXPIRATION_MINUTES, isCoin, REQUIRED_CONFIRMATIONS } from "../lib/crypto-api/constants"
import { fromUnits, numberToDecimalString } from "../lib/decimal"
import { Ledger, LedgerRecord, SandboxConflict, UnselectedStyle } from "./ledger"
import { WebhookDispatcher } from "./webhooks"
import { CURRENCY_DETAILS, currencyParam, detailsOf, invoiceSchema, paymentSchema } from "./validation"
import { BodyTooLarge, fail, matchPath, ok, readBody, sendJson, sendText } from "./http"
import { hostedPage } from "./page"

export const CONTROL_PREFIX = "/__sandbox"

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

export type RateLimit = { limit: number; windowMs: number }

export type FaultKind = "error" | "rate_limit" | "hang" | "malformed"
export type Fault = {
  id: number
  kind: FaultKind
  /** Substring of the request path (without the query) the fault applies to. */
  path: string
  method?: string
  status?: number
  retryAfter?: number
  /** Matching requests let through before the fault starts (to fail, say, the second status read). */
  skip?: number
  times: number
}

/** Random faults on a share of the service's requests (seeded, so a run can be repeated). */
export type Chaos = { rate: number; kinds: FaultKind[]; path: string; seed: number }

export type LoggedRequest = {
  at: string
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  body: unknown
  status?: number
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

function keyMatches(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== "string") return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

function redactHeaders(headers: IncomingMessage["headers"]): LoggedRequest["headers"] {
  const out: LoggedRequest["headers"] = { ...headers }
  if (out["x-api-key"] !== undefined) out["x-api-key"] = "[redacted]"
  return out
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (!text) return { ok: true, value: undefined }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

/**
 * Starts the sandbox of the crypto payment service: every endpoint of the spec, a hosted
 * payment page, webhooks with retries, and a control API under /__sandbox for tests.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const apiKey = options.apiKey ?? DEFAULT_API_KEY
  const config = {
    webhookField: options.webhookField ?? "webhookUrl",
    unselectedStyle: options.unselectedStyle ?? ("absent" as UnselectedStyle),
    rateLimit: options.rateLimit ?? null,
  }
  let rateWindow = { start: Date.now(), count: 0 }
  let faults: Fault[] = []
  let nextFaultId = 1
  let chaos: (Chaos & { random: () => number }) | null = null
  const requests: LoggedRequest[] = []
  const hanging = new Set<ServerResponse>()
  const sockets = new Set<Socket>()
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
  const ledger: Ledger = new Ledger((change) => webhooks.onStatusChange(change))

  const invoiceUrl = (paymentId: string) => `${publicUrl}/pay/${encodeURIComponent(paymentId)}`

  function invoiceResource(record: LedgerRecord) {
    return {
      paymentId: record.paymentId,
      baseAmount: record.baseAmount,
      baseCurrency: record.baseCurrency,
      conversionRates: record.conversionRates,
      invoiceUrl: invoiceUrl(record.paymentId),
      allowCurrencySelection: true,
      ...(record.orderId !== undefined ? { orderId: record.orderId } : {}),
      expiresAt: record.expiresAt,
    }
  }

  function paymentResource(record: LedgerRecord) {
    const coin = record.coin as Coin
    const amount = Number(fromUnits(record.requiredUnits ?? 0n, COIN_DECIMALS[coin]))
    return {
      paymentId: record.paymentId,
      amount,
      currency: coin,
      address: record.address,
      invoiceUrl: invoiceUrl(record.paymentId),
      qrCode: `${coin.toLowerCase()}:${record.address}?amount=${numberToDecimalString(amount)}`,
      expiresAt: record.expiresAt,
      ...(record.orderId !== undefined ? { orderId: record.orderId } : {}),
      ...(record.description !== undefined ? { description: record.description } : {}),
    }
  }

  /** The sandbox's full view of a record, for tests and the hosted page. */
  function controlView(record: LedgerRecord) {
    const decimals = record.coin ? COIN_DECIMALS[record.coin] : 2
    return {
      ...statusRecord(record),
      kind: record.kind,
      baseAmount: record.baseAmount,
      baseCurrency: record.baseCurrency,
      orderId: record.orderId ?? null,
      description: record.description ?? null,
      invoiceUrl: invoiceUrl(record.paymentId),
      conversionRates: record.conversionRates ?? null,
      requiredConfirmations: record.coin ? REQUIRED_CONFIRMATIONS[record.coin] : null,
      remainingAmount: record.coin ? fromUnits(ledger.remainingUnits(record), decimals) : null,
      webhookUrl: record.webhookUrl ?? null,
      transactions: record.transactions.map((tx) => ({
        amount: fromUnits(tx.units, decimals),
        confirmations: tx.confirmations,
        at: tx.at,
      })),
      now: ledger.now().toISOString(),
    }
  }

  // ---- the service's endpoints -------------------------------------------------------------

  function requireKey(req: IncomingMessage, res: ServerResponse): boolean {
    if (keyMatches(req.headers["x-api-key"], apiKey)) return true
    fail(res, 401, "Invalid API key")
    return false
  }

  function create(kind: "invoice" | "payment", body: unknown, res: ServerResponse) {
    const schema = kind === "invoice" ? invoiceSchema(config.webhookField) : paymentSchema(config.webhookField)
    const parsed = schema.safeParse(body ?? {})
    if (!parsed.success) {
      return fail(res, 400, "Validation failure", detailsOf(parsed.error))
    }
    const input = parsed.data as Record<string, unknown>
    const common = {
      amount: input.amount as number,
      amountCurrency: input.amountCurrency as string,
      orderId: input.orderId as string | undefined,
      description: input.description as string | undefined,
      webhookUrl: input[config.webhookField] as string | undefined,
    }
    if (kind === "invoice") {
      const record = ledger.createInvoice({
        ...common,
        expirationMinutes: (input.expirationMinutes as number | undefined) ?? EXPIRATION_MINUTES.invoiceDefault,
      })
      return ok(res, invoiceResource(record), "Invoice created successfully")
    }
    const record = ledger.createPayment({
      ...common,
      currency: input.currency as Coin,
      expirationMinutes: (input.expirationMinutes as number | undefined) ?? EXPIRATION_MINUTES.paymentDefault,
    })
    return ok(res, paymentResource(record), "Payment created successfully")
  }

  function serviceRoute(req: IncomingMessage, res: ServerResponse, path: string, body: unknown) {
    const method = req.method ?? "GET"
    if (method === "POST" && path === "/v1/create_invoice") {
      return requireKey(req, res) && create("invoice", body, res)
    }
    if (method === "POST" && path === "/v1/create_payment") {
      return requireKey(req, res) && create("payment", body, res)
    }
    const status = matchPath("/v1/invoice/:paymentId/status", path)
    if (method === "GET" && status) {
      const record = ledger.get(status.paymentId)
      if (!record) return fail(res, 404, "Payment not found")
      return sendJson(res, 200, statusRecord(record))
    }
    if (method === "GET" && path === "/v1/merchant/balance") {
      if (!requireKey(req, res)) return
      const balances: Record<string, unknown> = {}
      for (const coin of COINS) {
        const entry = ledger.balance(coin, false)
        if (entry) balances[coin] = entry
      }
      return ok(
        res,
        { merchantId: ledger.merchantId, businessName: ledger.businessName, balances },
        "Balances retrieved successfully"
      )
    }
    const single = matchPath("/v1/merchant/balance/:currency", path)
    if (method === "GET" && single) {
      if (!requireKey(req, res)) return
      const currency = currencyParam.safeParse(single.currency)
      if (!currency.success) {
        return fail(res, 400, "Invalid currency", { currency: CURRENCY_DETAILS })
      }
      return ok(
        res,
        { currency: currency.data, balance: ledger.balance(currency.data, true) },
        "Balance retrieved successfully"
      )
    }
    return fail(res, 404, "Not found")
  }

  /** Consumes the first queued fault that matches the request, if any. */
  function takeFault(method: string, path: string): Fault | undefined {
    const fault = faults.find((f) => path.includes(f.path) && (!f.method || f.method === method))
    if (!fault) return undefined
    if (fault.skip) {
      fault.skip -= 1
      return undefined
    }
    fault.times -= 1
    if (fault.times <= 0) faults = faults.filter((f) => f !== fault)
    return fault
  }

  /** A fault of a random kind for a `chaos.rate` share of the requests under `chaos.path`. */
  function chaosFault(path: string): Fault | undefined {
    if (!chaos || !path.startsWith(chaos.path) || chaos.random() >= chaos.rate) return undefined
    const kind = chaos.kinds[Math.floor(chaos.random() * chaos.kinds.length)]
    return { id: 0, kind, path, times: 1, ...(kind === "rate_limit" ? { retryAfter: 1 } : {}) }
  }

  function applyFault(fault: Fault, res: ServerResponse) {
    switch (fault.kind) {
      case "error":
        return fail(res, fault.status ?? 500, "Internal server error")
      case "rate_limit":
        return fail(res, 429, "Rate limit exceeded", undefined, fault.retryAfter !== undefined ? { "retry-after": String(fault.retryAfter) } : {})
      case "malformed":
        return sendText(res, 200, "application/json; charset=utf-8", '{"success": tru')
      case "hang":
        hanging.add(res)
        res.on("close", () => hanging.delete(res))
        return
    }
  }

  function rateLimited(res: ServerResponse): boolean {
    const limit = config.rateLimit
    if (!limit) return false
    const now = Date.now()
    if (now - rateWindow.start >= limit.windowMs) rateWindow = { start: now, count: 0 }
    rateWindow.count += 1
    if (rateWindow.count <= limit.limit) return false
    const retryAfter = Math.max(1, Math.ceil((rateWindow.start + limit.windowMs - now) / 1000))
    fail(res, 429, "Rate limit exceeded", undefined, { "retry-after": String(retryAfter) })
    return true
  }

  // ---- the control API -----------------------------------------------------------------------

  function requireRecord(id: string, res: ServerResponse): LedgerRecord | undefined {
    const record = ledger.get(id)
    if (!record) fail(res, 404, "Payment not found")
    return record
  }

  function payAmount(record: LedgerRecord, body: any): string | undefined {
    if (typeof body?.amount === "string" || typeof body?.amount === "number") return String(body.amount)
    const coin = record.coin
    if (!coin) return undefined
    const remaining = ledger.remainingUnits(record)
    const decimals = COIN_DECIMALS[coin]
    switch (body?.mode) {
      case "partial":
        return fromUnits(remaining / 2n > 0n ? remaining / 2n : 1n, decimals)
      case "over":
        return fromUnits(remaining + (record.requiredUnits ?? 0n) / 10n, decimals)
      default:
        return undefined
    }
  }

  function controlRoute(req: IncomingMessage, res: ServerResponse, path: string, body: any, query: URLSearchParams) {
    const method = req.method ?? "GET"
    const sub = path.slice(CONTROL_PREFIX.length) || "/"

    if (method === "GET" && sub === "/") {
      return sendJson(res, 200, {
        endpoints: [
          "GET  /__sandbox/payments",
          "GET  /__sandbox/payments/:id",
          "POST /__sandbox/payments/:id/select {currency}",
          "POST /__sandbox/payments/:id/pay {amount?|mode: full|partial|over}",
          "POST /__sandbox/payments/:id/confirm {confirmations?}",
          "POST /__sandbox/payments/:id/expire",
          "POST /__sandbox/payments/:id/fail",
          "POST /__sandbox/clock {advanceMs|advanceMinutes}",
          "GET|POST|DELETE /__sandbox/faults {kind: error|rate_limit|hang|malformed, path, method?, status?, retryAfter?, skip?, times?}",
          "PUT  /__sandbox/rate-limit {limit, windowMs} | {limit: null}",
          "PUT  /__sandbox/chaos {rate: 0..1, kinds?, path?: \"/v1/\", seed?} | {rate: 0}",
          "GET|DELETE /__sandbox/requests (?path=)",
          "GET  /__sandbox/webhooks, PUT /__sandbox/webhooks {enabled?, maxAttempts?, retryBaseMs?}",
          "PUT  /__sandbox/config {webhookField?, unselectedStyle?: absent|null}",
          "POST /__sandbox/reset",
        ],
      })
    }
    if (method === "GET" && sub === "/payments") {
      return sendJson(res, 200, { payments: ledger.all().map(controlView) })
    }
    const one = matchPath("/payments/:id", sub)
    if (method === "GET" && one) {
      const record = requireRecord(one.id, res)
      return record && sendJson(res, 200, controlView(record))
    }
    const action = matchPath("/payments/:id/:action", sub)
    if (method === "POST" && action) {
      const record = requireRecord(action.id, res)
      if (!record) return
      try {
        switch (action.action) {
          case "select":
            if (!isCoin(body?.currency)) return fail(res, 400, "Invalid currency", { currency: CURRENCY_DETAILS })
            ledger.selectCoin(record, body.currency)
            break
          case "pay":
            ledger.pay(record, payAmount(record, body))
            break
          case "confirm": {
            const blocks =
              body?.confirmations ?? Math.max(1, (record.coin ? REQUIRED_CONFIRMATIONS[record.coin] : 1) - ledger.confirmations(record))
            if (!Number.isInteger(blocks) || blocks < 1) return fail(res, 400, "confirmations must be a positive whole number")
            ledger.confirm(record, blocks)
            break
          }
          case "expire":
            ledger.expire(record)
            break
          case "fail":
            ledger.fail(record)
            break
          default:
            return fail(res, 404, "Not found")
        }
      } catch (error) {
        if (error instanceof SandboxConflict || error instanceof RangeError) return fail(res, 409, error.message)
        throw error
      }
      return sendJson(res, 200, controlView(record))
    }
    if (method === "POST" && sub === "/clock") {
      const ms = Number(body?.advanceMs ?? 0) + Number(body?.advanceMinutes ?? 0) * 60_000
      if (!Number.isFinite(ms) || ms < 0) return fail(res, 400, "advanceMs/advanceMinutes must be non-negative numbers")
      ledger.advanceClock(ms)
      return sendJson(res, 200, { now: ledger.now().toISOString() })
    }
    if (sub === "/faults") {
      if (method === "GET") return sendJson(res, 200, { faults })
      if (method === "DELETE") {
        faults = []
        return sendJson(res, 200, { faults })
      }
      if (method === "POST") {
        const kinds: FaultKind[] = ["error", "rate_limit", "hang", "malformed"]
        if (!kinds.includes(body?.kind) || typeof body?.path !== "string") {
          return fail(res, 400, `a fault needs kind (${kinds.join(", ")}) and path`)
        }
        const fault: Fault = {
          id: nextFaultId++,
          kind: body.kind,
          path: body.path,
          method: typeof body.method === "string" ? body.method.toUpperCase() : undefined,
          status: typeof body.status === "number" ? body.status : undefined,
          retryAfter: typeof body.retryAfter === "number" ? body.retryAfter : undefined,
          skip: Number.isInteger(body.skip) && body.skip > 0 ? body.skip : undefined,
          times: Number.isInteger(body.times) && body.times > 0 ? body.times : 1,
        }
        faults.push(fault)
        return sendJson(res, 201, fault)
      }
    }
    if (method === "PUT" && sub === "/chaos") {
      if (body?.rate === null || body?.rate === 0) {
        chaos = null
        return sendJson(res, 200, { chaos: null })
      }
      const kinds: FaultKind[] = ["error", "rate_limit", "hang", "malformed"]
      const chosen: FaultKind[] = Array.isArray(body?.kinds) ? body.kinds.filter((k: FaultKind) => kinds.includes(k)) : kinds
      if (typeof body?.rate !== "number" || body.rate < 0 || body.rate > 1 || !chosen.length) {
        return fail(res, 400, `rate (0..1) is required; kinds among ${kinds.join(", ")}`)
      }
      const seed = Number.isInteger(body.seed) ? body.seed : 1
      chaos = { rate: body.rate, kinds: chosen, path: typeof body.path === "string" ? body.path : "/v1/", seed, random: seeded(seed) }
      const { random: _random, ...shown } = chaos
      return sendJson(res, 200, { chaos: shown })
    }
    if (method === "PUT" && sub === "/rate-limit") {
      if (body?.limit === null || body?.limit === undefined) {
        config.rateLimit = null
      } else if (Number.isInteger(body.limit) && body.limit >= 0 && Number.isInteger(body.windowMs) && body.windowMs > 0) {
        config.rateLimit = { limit: body.limit, windowMs: body.windowMs }
        rateWindow = { start: Date.now(), count: 0 }
      } else {
        return fail(res, 400, "limit (whole number) and windowMs (positive whole number) are required, or limit: null")
      }
      return sendJson(res, 200, { rateLimit: config.rateLimit })
    }
    if (sub === "/requests") {
      if (method === "DELETE") {
        requests.length = 0
        return sendJson(res, 200, { requests })
      }
      const filter = query.get("path")
      return sendJson(res, 200, { requests: filter ? requests.filter((r) => r.path.includes(filter)) : requests })
    }
    if (sub === "/webhooks") {
      if (method === "GET") return sendJson(res, 200, { settings: webhooks.settings, deliveries: webhooks.deliveries })
      if (method === "PUT") {
        const s = webhooks.settings
        if (typeof body?.enabled === "boolean") s.enabled = body.enabled
        if (Number.isInteger(body?.maxAttempts) && body.maxAttempts > 0) s.maxAttempts = body.maxAttempts
        if (Number.isInteger(body?.retryBaseMs) && body.retryBaseMs >= 0) s.retryBaseMs = body.retryBaseMs
        return sendJson(res, 200, { settings: s })
      }
    }
    if (method === "PUT" && sub === "/config") {
      if (body?.webhookField !== undefined) {
        if (typeof body.webhookField !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(body.webhookField)) {
          return fail(res, 400, "webhookField must be a plain field name")
        }
        config.webhookField = body.webhookField
      }
      if (body?.unselectedStyle !== undefined) {
        if (body.unselectedStyle !== "absent" && body.unselectedStyle !== "null") {
          return fail(res, 400, "unselectedStyle must be absent or null")
        }
        config.unselectedStyle = body.unselectedStyle
      }
      return sendJson(res, 200, { webhookField: config.webhookField, unselectedStyle: config.unselectedStyle })
    }
    if (method === "POST" && sub === "/reset") {
      ledger.reset()
      webhooks.reset()
      webhooks.settings.enabled = true
      faults = []
      chaos = null
      requests.length = 0
      config.rateLimit = options.rateLimit ?? null
      config.webhookField = options.webhookField ?? "webhookUrl"
      config.unselectedStyle = options.unselectedStyle ?? "absent"
      return sendJson(res, 200, { reset: true })
    }
    return fail(res, 404, "Not found")
  }

  // ---- dispatch -------------------------------------------------------------------------------

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://sandbox.local")
    const path = url.pathname
    const method = req.method ?? "GET"
    let raw: string
    try {
      raw = await readBody(req)
    } catch (error) {
      if (error instanceof BodyTooLarge) return fail(res, 413, "Request body too large")
      throw error
    }
    const json = parseJson(raw)

    if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) {
      if (!json.ok) return fail(res, 400, "body must be JSON")
      return controlRoute(req, res, path, json.value, url.searchParams)
    }
    const page = matchPath("/pay/:paymentId", path)
    if (method === "GET" && page) {
      const record = ledger.get(page.paymentId)
      if (!record) return sendText(res, 404, "text/html; charset=utf-8", "<!doctype html><title>Not found</title><h1>Payment not found</h1>")
      return sendText(res, 200, "text/html; charset=utf-8", hostedPage(record.paymentId))
    }

    const entry: LoggedRequest = {
      at: new Date().toISOString(),
      method,
      path,
      headers: redactHeaders(req.headers),
      body: json.ok ? json.value : raw,
    }
    requests.push(entry)
    res.on("finish", () => (entry.status = res.statusCode))

    const fault = takeFault(method, path) ?? chaosFault(path)
    if (fault) return applyFault(fault, res)
    if (rateLimited(res)) return
    if (!json.ok) return fail(res, 400, "Validation failure", { body: "Request body must be valid JSON" })
    return serviceRoute(req, res, path, json.value)
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) fail(res, 500, "Internal server error")
      // eslint-disable-next-line no-console
      console.error("sandbox error", error)
    })
  })
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const url = `http://${options.host && options.host !== "0.0.0.0" ? options.host : "127.0.0.1"}:${port}`
  publicUrl ||= url

  const sweeper = setInterval(() => ledger.sweep(), 1000)
  sweeper.unref()
  const miner = options.blockIntervalMs ? setInterval(() => ledger.mineBlock(), options.blockIntervalMs) : undefined
  miner?.unref()

  return {
    url,
    port,
    apiKey,
    ledger,
    webhooks,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(sweeper)
        if (miner) clearInterval(miner)
        webhooks.close()
        hanging.forEach((res) => res.destroy())
        sockets.forEach((socket) => socket.destroy())
        server.close(() => resolve())
      }),
  }
}


/** A small seeded random generator (mulberry32): the same seed gives the same faults. */
function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
