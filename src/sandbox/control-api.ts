import type { ServerResponse } from "node:http"
import { Coin, EXPIRATION_MINUTES, isCoin, REQUIRED_CONFIRMATIONS } from "./spec-facts"
import { fromUnits } from "./decimal"
import { PaymentBook, SandboxConflict } from "./payment-book"
import type { BookEntry } from "./book-entry"
import { WebhookDispatcher } from "./webhooks"
import { FAULT_KINDS, Fault, FaultInjector, FaultKind } from "./faults"
import type { ServiceConfig } from "./spec-api"
import { CURRENCY_DETAILS, detailsOf, paymentSchema } from "./validation"
import { fail, matchPath, sendJson } from "./http"
import { ECB_FILE_PATH, ECB_STATUSES, EcbFeed, ecbSettingsDetails, ecbSettingsSchema } from "./ecb-feed"

export const CONTROL_PREFIX = "/__sandbox"

/** The re-prices the control API accepts, in percent of an invoice's creation quote. */
export const REPRICE_PERCENT = { min: -90, max: 1000 } as const
const REPRICE_ERROR = `percent must be a number from ${REPRICE_PERCENT.min} to ${REPRICE_PERCENT.max}`

/** How many payments one POST /__sandbox/payments/bulk may create (benchmarks of a large payment book). */
export const BULK_PAYMENTS_MAX = 200_000
const BULK_COUNT_ERROR = `count must be a whole number from 1 to ${BULK_PAYMENTS_MAX}`

function isRepricePercent(value: unknown): value is number {
  return (
    typeof value === "number" && Number.isFinite(value) && value >= REPRICE_PERCENT.min && value <= REPRICE_PERCENT.max
  )
}

/** What the control API reads and changes: the sandbox's whole state. */
export type ControlContext = {
  book: PaymentBook
  webhooks: WebhookDispatcher
  faults: FaultInjector
  requests: Array<{ path: string }>
  /** The ECB's daily file of euro reference rates the sandbox serves. */
  ecb: EcbFeed
  config: ServiceConfig
  /** The config the sandbox was started with, restored by POST /reset. */
  initialConfig: ServiceConfig
  statusRecord: (record: BookEntry) => Record<string, unknown>
  invoiceUrl: (paymentId: string) => string
}

export type ControlCall = { method: string; res: ServerResponse; path: string; body: any; query: URLSearchParams }

/** One control route's handler: the sandbox's state, and the call with the parameters of the route's path. */
type ControlHandler = (sandbox: ControlContext, call: ControlCall & { params: Record<string, string> }) => void

/** A control action on one payment; returns what makes the request invalid (a 400), if anything. */
type PaymentAction = (
  sandbox: ControlContext,
  record: BookEntry,
  body: any
) => { error: string; details?: Record<string, string> } | void

/** The sandbox's full view of a record, for tests and the hosted page. */
function controlView({ book, statusRecord, invoiceUrl }: ControlContext, record: BookEntry) {
  const decimals = book.decimals(record)
  return {
    ...statusRecord(record),
    kind: record.kind,
    baseAmount: record.baseAmount,
    baseCurrency: record.baseCurrency,
    orderId: record.orderId ?? null,
    description: record.description ?? null,
    invoiceUrl: invoiceUrl(record.paymentId),
    conversionRates: record.conversionRates ?? null,
    repricePercent: record.repricePercent ?? null,
    requiredConfirmations: record.coin ? REQUIRED_CONFIRMATIONS[record.coin] : null,
    remainingAmount: record.coin ? fromUnits(book.remainingUnits(record), decimals) : null,
    webhookUrl: record.webhookUrl ?? null,
    transactions: record.transactions.map((tx) => ({
      amount: fromUnits(tx.units, decimals),
      confirmations: tx.confirmations,
      at: tx.at,
    })),
    now: book.now().toISOString(),
  }
}

function requireRecord(book: PaymentBook, id: string, res: ServerResponse): BookEntry | undefined {
  const record = book.get(id)
  if (!record) fail(res, 404, "Payment not found")
  return record
}

function payAmount(book: PaymentBook, record: BookEntry, body: any): string | undefined {
  if (typeof body?.amount === "string" || typeof body?.amount === "number") return String(body.amount)
  const coin = record.coin
  if (!coin) return undefined
  const remaining = book.remainingUnits(record)
  const decimals = book.decimals(record)
  switch (body?.mode) {
    case "partial":
      return fromUnits(remaining / 2n > 0n ? remaining / 2n : 1n, decimals)
    case "over":
      return fromUnits(remaining + (record.requiredUnits ?? 0n) / 10n, decimals)
    default:
      return undefined
  }
}

// a Map, so that a path segment like "constructor" finds no action
const PAYMENT_ACTIONS = new Map(
  Object.entries<PaymentAction>({
    select: ({ book, config }, record, body) => {
      if (!isCoin(body?.currency)) return { error: "Invalid currency", details: { currency: CURRENCY_DETAILS } }
      book.selectCoin(record, body.currency, config.repricePercent)
    },
    reprice: ({ book, config }, record, body) => {
      const percent = body?.percent
      if (percent !== null && !isRepricePercent(percent)) {
        return { error: REPRICE_ERROR, details: { percent: REPRICE_ERROR } }
      }
      book.reprice(record, percent, config.repricePercent)
    },
    pay: ({ book }, record, body) => void book.pay(record, payAmount(book, record, body)),
    confirm: ({ book }, record, body) => {
      const needed = (record.coin ? REQUIRED_CONFIRMATIONS[record.coin] : 1) - book.confirmations(record)
      const blocks = body?.confirmations ?? Math.max(1, needed)
      if (!Number.isInteger(blocks) || blocks < 1) return { error: "confirmations must be a positive whole number" }
      book.confirm(record, blocks)
    },
    expire: ({ book }, record) => book.expire(record),
    fail: ({ book }, record) => book.fail(record),
  })
)

/** GET / : what the control API offers. */
const listEndpoints: ControlHandler = (_sandbox, { res }) =>
  sendJson(res, 200, {
    endpoints: [
      "GET  /__sandbox/payments",
      "GET  /__sandbox/payments/:id",
      `POST /__sandbox/payments/bulk {count: 1..${BULK_PAYMENTS_MAX}, amount, amountCurrency, currency} → {paymentIds} (as create_payment, no webhook URL)`,
      "POST /__sandbox/payments/:id/select {currency}",
      `POST /__sandbox/payments/:id/reprice {percent: ${REPRICE_PERCENT.min}..${REPRICE_PERCENT.max} | null}`,
      "POST /__sandbox/payments/:id/pay {amount?|mode: full|partial|over}",
      "POST /__sandbox/payments/:id/confirm {confirmations?}",
      "POST /__sandbox/payments/:id/expire",
      "POST /__sandbox/payments/:id/fail",
      "POST /__sandbox/clock {advanceMs|advanceMinutes}",
      "GET|POST|DELETE /__sandbox/faults {kind: error|rate_limit|hang|malformed, path, method?, status?, retryAfter?, skip?, times?}",
      "PUT  /__sandbox/rate-limit {limit, windowMs} | {limit: null}",
      'PUT  /__sandbox/chaos {rate: 0..1, kinds?, path?: "/v1/", seed?} | {rate: 0}',
      "GET|DELETE /__sandbox/requests (?path=)",
      "GET  /__sandbox/webhooks, PUT /__sandbox/webhooks {enabled?, maxAttempts?, retryBaseMs?}",
      `PUT  /__sandbox/config {webhookField?, unselectedStyle?: absent|null, repricePercent?: ${REPRICE_PERCENT.min}..${REPRICE_PERCENT.max} | null, expiredStays?: boolean, decimals?: quoted|native, apiKeys?: [key, …] | null (the dashboard's keys after a rotation)}`,
      `PUT  /__sandbox/ecb {date?: YYYY-MM-DD | null, rates?: {CUR: "rate" | null}, status?: ${ECB_STATUSES.join("|")}} (the ECB's file at GET ${ECB_FILE_PATH}; rates over the defaults, null removes one; date null follows the clock)`,
      "GET  /__sandbox/ecb (settings, the file served now, served: fetches answered)",
      "POST /__sandbox/reset",
    ],
  })

const listPayments: ControlHandler = (sandbox, { res }) =>
  sendJson(res, 200, { payments: sandbox.book.all().map((record) => controlView(sandbox, record)) })

const showPayment: ControlHandler = (sandbox, { res, params }) => {
  const record = requireRecord(sandbox.book, params.id, res)
  return record && sendJson(res, 200, controlView(sandbox, record))
}

/**
 * `count` payments exactly as create_payment makes them (its validation and default expiry), without a
 * webhook URL: a book of 100,000 open payments in one call rather than 100,000 requests.
 */
const bulkCreatePayments: ControlHandler = ({ book, config }, { res, body }) => {
  const details: Record<string, string> = {}
  const count = body?.count
  if (!Number.isInteger(count) || count < 1 || count > BULK_PAYMENTS_MAX) details.count = BULK_COUNT_ERROR
  const parsed = paymentSchema(config.webhookField).safeParse({
    amount: body?.amount,
    amountCurrency: body?.amountCurrency,
    currency: body?.currency,
  })
  if (!parsed.success) Object.assign(details, detailsOf(parsed.error))
  if (!parsed.success || details.count) return fail(res, 400, "Validation failure", details)
  const input = parsed.data as Record<string, unknown>
  const paymentIds = Array.from(
    { length: count as number },
    () =>
      book.createPayment({
        amount: input.amount as number,
        amountCurrency: input.amountCurrency as string,
        currency: input.currency as Coin,
        expirationMinutes: EXPIRATION_MINUTES.paymentDefault,
      }).paymentId
  )
  return sendJson(res, 200, { paymentIds })
}

/** POST /payments/:id/:action, one of PAYMENT_ACTIONS: the record's control view after it, or why not. */
const runPaymentAction: ControlHandler = (sandbox, { res, params, body }) => {
  const record = requireRecord(sandbox.book, params.id, res)
  if (!record) return
  const action = PAYMENT_ACTIONS.get(params.action)
  if (!action) return fail(res, 404, "Not found")
  try {
    const invalid = action(sandbox, record, body)
    if (invalid) return fail(res, 400, invalid.error, invalid.details)
  } catch (error) {
    if (error instanceof SandboxConflict || error instanceof RangeError) return fail(res, 409, error.message)
    throw error
  }
  return sendJson(res, 200, controlView(sandbox, record))
}

const advanceClock: ControlHandler = ({ book }, { res, body }) => {
  const ms = Number(body?.advanceMs ?? 0) + Number(body?.advanceMinutes ?? 0) * 60_000
  if (!Number.isFinite(ms) || ms < 0) return fail(res, 400, "advanceMs/advanceMinutes must be non-negative numbers")
  book.advanceClock(ms)
  return sendJson(res, 200, { now: book.now().toISOString() })
}

const listFaults: ControlHandler = ({ faults }, { res }) => sendJson(res, 200, { faults: faults.faults })

const clearFaults: ControlHandler = ({ faults }, { res }) => {
  faults.clear()
  return sendJson(res, 200, { faults: faults.faults })
}

const addFault: ControlHandler = ({ faults }, { res, body }) => {
  if (!FAULT_KINDS.includes(body?.kind) || typeof body?.path !== "string") {
    return fail(res, 400, `a fault needs kind (${FAULT_KINDS.join(", ")}) and path`)
  }
  const fault: Fault = faults.add({
    kind: body.kind,
    path: body.path,
    method: typeof body.method === "string" ? body.method.toUpperCase() : undefined,
    status: typeof body.status === "number" ? body.status : undefined,
    retryAfter: typeof body.retryAfter === "number" ? body.retryAfter : undefined,
    skip: Number.isInteger(body.skip) && body.skip > 0 ? body.skip : undefined,
    times: Number.isInteger(body.times) && body.times > 0 ? body.times : 1,
  })
  return sendJson(res, 201, fault)
}

const setChaos: ControlHandler = ({ faults }, { res, body }) => {
  if (body?.rate === null || body?.rate === 0) {
    return sendJson(res, 200, { chaos: faults.setChaos(null) })
  }
  const chosen: FaultKind[] = Array.isArray(body?.kinds)
    ? body.kinds.filter((k: FaultKind) => FAULT_KINDS.includes(k))
    : [...FAULT_KINDS]
  if (typeof body?.rate !== "number" || body.rate < 0 || body.rate > 1 || !chosen.length) {
    return fail(res, 400, `rate (0..1) is required; kinds among ${FAULT_KINDS.join(", ")}`)
  }
  const seed = Number.isInteger(body.seed) ? body.seed : 1
  const shown = faults.setChaos({
    rate: body.rate,
    kinds: chosen,
    path: typeof body.path === "string" ? body.path : "/v1/",
    seed,
  })
  return sendJson(res, 200, { chaos: shown })
}

const setRateLimit: ControlHandler = ({ faults }, { res, body }) => {
  if (body?.limit === null || body?.limit === undefined) {
    faults.setRateLimit(null)
  } else if (Number.isInteger(body.limit) && body.limit >= 0 && Number.isInteger(body.windowMs) && body.windowMs > 0) {
    faults.setRateLimit({ limit: body.limit, windowMs: body.windowMs })
  } else {
    return fail(res, 400, "limit (whole number) and windowMs (positive whole number) are required, or limit: null")
  }
  return sendJson(res, 200, { rateLimit: faults.rateLimit })
}

const clearRequests: ControlHandler = ({ requests }, { res }) => {
  requests.length = 0
  return sendJson(res, 200, { requests })
}

const listRequests: ControlHandler = ({ requests }, { res, query }) => {
  const filter = query.get("path")
  return sendJson(res, 200, { requests: filter ? requests.filter((r) => r.path.includes(filter)) : requests })
}

const showWebhooks: ControlHandler = ({ webhooks }, { res }) =>
  sendJson(res, 200, { settings: webhooks.settings, deliveries: webhooks.deliveries })

const updateWebhooks: ControlHandler = ({ webhooks }, { res, body }) => {
  const s = webhooks.settings
  if (typeof body?.enabled === "boolean") s.enabled = body.enabled
  if (Number.isInteger(body?.maxAttempts) && body.maxAttempts > 0) s.maxAttempts = body.maxAttempts
  if (Number.isInteger(body?.retryBaseMs) && body.retryBaseMs >= 0) s.retryBaseMs = body.retryBaseMs
  return sendJson(res, 200, { settings: s })
}

/** Why a PUT /config body is refused (the first field at fault), if it is. */
function configError(body: any): string | undefined {
  if (
    body?.webhookField !== undefined &&
    (typeof body.webhookField !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(body.webhookField))
  ) {
    return "webhookField must be a plain field name"
  }
  if (body?.unselectedStyle !== undefined && body.unselectedStyle !== "absent" && body.unselectedStyle !== "null") {
    return "unselectedStyle must be absent or null"
  }
  if (body?.repricePercent !== undefined && body.repricePercent !== null && !isRepricePercent(body.repricePercent)) {
    return `repricePercent must be a number from ${REPRICE_PERCENT.min} to ${REPRICE_PERCENT.max}, or null`
  }
  if (body?.expiredStays !== undefined && typeof body.expiredStays !== "boolean") {
    return "expiredStays must be true or false"
  }
  if (body?.decimals !== undefined && body.decimals !== "quoted" && body.decimals !== "native") {
    return "decimals must be quoted or native"
  }
  if (
    body?.apiKeys !== undefined &&
    body.apiKeys !== null &&
    !(
      Array.isArray(body.apiKeys) &&
      body.apiKeys.length &&
      body.apiKeys.every((k: unknown) => typeof k === "string" && k)
    )
  ) {
    return "apiKeys must be a non-empty list of keys, or null"
  }
  return undefined
}

const updateConfig: ControlHandler = ({ config }, { res, body }) => {
  // every field is checked before any is applied: a 400 changes nothing
  const error = configError(body)
  if (error !== undefined) return fail(res, 400, error)
  if (body?.webhookField !== undefined) config.webhookField = body.webhookField
  if (body?.unselectedStyle !== undefined) config.unselectedStyle = body.unselectedStyle
  if (body?.repricePercent !== undefined) config.repricePercent = body.repricePercent
  // read by the payment book: expiredStays at every settle, decimals at each creation (a record keeps its own)
  if (body?.expiredStays !== undefined) config.expiredStays = body.expiredStays
  if (body?.decimals !== undefined) config.decimals = body.decimals
  if (body?.apiKeys !== undefined) config.apiKeys = body.apiKeys
  return sendJson(res, 200, {
    webhookField: config.webhookField,
    unselectedStyle: config.unselectedStyle,
    repricePercent: config.repricePercent,
    expiredStays: config.expiredStays,
    decimals: config.decimals,
  })
}

const showEcb: ControlHandler = ({ ecb }, { res }) => sendJson(res, 200, ecb.state())

const updateEcb: ControlHandler = ({ ecb }, { res, body }) => {
  const parsed = ecbSettingsSchema.safeParse(body ?? {})
  if (!parsed.success) return fail(res, 400, "Validation failure", ecbSettingsDetails(parsed.error))
  return sendJson(res, 200, ecb.update(parsed.data))
}

const resetSandbox: ControlHandler = (sandbox, { res }) => {
  const { book, webhooks, faults, requests, ecb, config } = sandbox
  book.reset()
  webhooks.reset()
  webhooks.settings.enabled = true
  faults.reset()
  requests.length = 0
  ecb.reset()
  Object.assign(config, sandbox.initialConfig)
  return sendJson(res, 200, { reset: true })
}

/** "METHOD /path" under the prefix → handler, tried in this order; "*" stands for any method. */
const ROUTES: Record<string, ControlHandler> = {
  "GET /": listEndpoints,
  "GET /payments": listPayments,
  "GET /payments/:id": showPayment,
  "POST /payments/bulk": bulkCreatePayments,
  "POST /payments/:id/:action": runPaymentAction,
  "POST /clock": advanceClock,
  "GET /faults": listFaults,
  "DELETE /faults": clearFaults,
  "POST /faults": addFault,
  "PUT /chaos": setChaos,
  "PUT /rate-limit": setRateLimit,
  "DELETE /requests": clearRequests,
  // any other method reads the log, as GET does
  "* /requests": listRequests,
  "GET /webhooks": showWebhooks,
  "PUT /webhooks": updateWebhooks,
  "PUT /config": updateConfig,
  "GET /ecb": showEcb,
  "PUT /ecb": updateEcb,
  "POST /reset": resetSandbox,
}

const ROUTE_TABLE = Object.entries(ROUTES).map(([key, handler]) => {
  const [method, pattern] = key.split(" ")
  return { method, pattern, handler }
})

/** The control API of the sandbox (under /__sandbox), for tests, the demo and the hosted page. */
export function controlApi(sandbox: ControlContext): (call: ControlCall) => void {
  return function controlRoute(call) {
    const sub = call.path.slice(CONTROL_PREFIX.length) || "/"
    for (const { method, pattern, handler } of ROUTE_TABLE) {
      const params = matchPath(pattern, sub)
      if (params && (method === "*" || method === call.method)) return handler(sandbox, { ...call, params })
    }
    return fail(call.res, 404, "Not found")
  }
}
