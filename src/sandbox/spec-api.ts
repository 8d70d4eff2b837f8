import type { IncomingMessage, ServerResponse } from "node:http"
import { timingSafeEqual } from "node:crypto"
import { Coin, COINS, EXPIRATION_MINUTES } from "./spec-facts"
import { amountNumber, PaymentBook, PaymentBookRules, UnselectedStyle } from "./payment-book"
import type { BookEntry } from "./book-entry"
import { decimalText, numberLiterals } from "./json"
import {
  AMOUNT_EXPONENT_DETAILS,
  CURRENCY_DETAILS,
  currencyParam,
  detailsOf,
  invoiceSchema,
  paymentSchema,
} from "./validation"
import { fail, matchPath, ok, sendJson } from "./http"

/**
 * What the spec leaves open and the sandbox lets tests choose (PUT /__sandbox/config); with the payment
 * book's rules: expiredStays (an EXPIRED record never completes) and decimals (the precision of new records' amounts).
 */
export type ServiceConfig = PaymentBookRules & {
  /** Body field of create_invoice/create_payment that carries the webhook URL. */
  webhookField: string
  /** How a status record shows currency/address before an invoice's coin is chosen. */
  unselectedStyle: UnselectedStyle
  /**
   * Re-price of every invoice at coin choice, in percent of its creation quote, unless the invoice has
   * its own; null: quotes are locked (the required amount is the creation quote).
   */
  repricePercent: number | null
  /**
   * The API keys the merchant's dashboard holds now, when they were rotated (a new key made, the old
   * revoked or kept); null: only the key the sandbox started with.
   */
  apiKeys: string[] | null
}

export type SpecApiContext = {
  apiKey: string
  book: PaymentBook
  config: ServiceConfig
  statusRecord: (record: BookEntry) => Record<string, unknown>
  invoiceUrl: (paymentId: string) => string
}

/** One request to the service: its body parsed, and as the text it was sent (numbers exactly as written). */
export type SpecApi = (req: IncomingMessage, res: ServerResponse, path: string, body: unknown, raw: string) => void

/** One request to a spec route, with the parameters of the route's path. */
type SpecCall = {
  req: IncomingMessage
  res: ServerResponse
  body: unknown
  raw: string
  params: Record<string, string>
}

/** One spec route's handler: the service's state, and the request. */
type SpecHandler = (service: SpecApiContext, call: SpecCall) => void

function keyMatches(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== "string") return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** A route that needs the merchant's key in X-API-Key: without it, a 401 and the handler never runs. */
function withApiKey(handler: SpecHandler): SpecHandler {
  return (service, call) => {
    const keys = service.config.apiKeys ?? [service.apiKey]
    if (!keys.some((key) => keyMatches(call.req.headers["x-api-key"], key)))
      return fail(call.res, 401, "Invalid API key")
    return handler(service, call)
  }
}

function invoiceResource({ invoiceUrl }: SpecApiContext, record: BookEntry) {
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

function paymentResource({ book, invoiceUrl }: SpecApiContext, record: BookEntry) {
  const coin = record.coin as Coin
  const amount = amountNumber(record.requiredUnits ?? 0n, book.decimals(record), record.precision)
  return {
    paymentId: record.paymentId,
    amount,
    currency: coin,
    address: record.address,
    invoiceUrl: invoiceUrl(record.paymentId),
    qrCode: `${coin.toLowerCase()}:${record.address}?amount=${decimalText(amount)}`,
    expiresAt: record.expiresAt,
    ...(record.orderId !== undefined ? { orderId: record.orderId } : {}),
    ...(record.description !== undefined ? { description: record.description } : {}),
  }
}

/**
 * The body of create_invoice/create_payment validated, with the fields both share; undefined once a 400
 * has answered it. `input` is the whole parsed body, for the fields of one kind only.
 */
function parseCreation(kind: "invoice" | "payment", { config }: SpecApiContext, { res, body, raw }: SpecCall) {
  const schema = kind === "invoice" ? invoiceSchema(config.webhookField) : paymentSchema(config.webhookField)
  const parsed = schema.safeParse(body ?? {})
  // the amount as written: a JS number keeps about 17 significant digits, a request may send more
  const amountText = numberLiterals(raw).get("amount")
  const details = parsed.success ? {} : detailsOf(parsed.error)
  if (amountText !== undefined && /[eE]/.test(amountText)) details.amount = AMOUNT_EXPONENT_DETAILS
  if (!parsed.success || details.amount) {
    fail(res, 400, "Validation failure", details)
    return undefined
  }
  const input = parsed.data as Record<string, unknown>
  const common = {
    amount: amountText ?? (input.amount as number),
    amountCurrency: input.amountCurrency as string,
    orderId: input.orderId as string | undefined,
    description: input.description as string | undefined,
    webhookUrl: input[config.webhookField] as string | undefined,
  }
  return { input, common }
}

/** POST /v1/create_invoice: an invoice the customer pays in a coin of their choice. */
const createInvoice: SpecHandler = (service, call) => {
  const creation = parseCreation("invoice", service, call)
  if (!creation) return
  const { input, common } = creation
  const record = service.book.createInvoice({
    ...common,
    expirationMinutes: (input.expirationMinutes as number | undefined) ?? EXPIRATION_MINUTES.invoiceDefault,
  })
  return ok(call.res, invoiceResource(service, record), "Invoice created successfully")
}

/** POST /v1/create_payment: a payment in one coin, its address and amount known at once. */
const createPayment: SpecHandler = (service, call) => {
  const creation = parseCreation("payment", service, call)
  if (!creation) return
  const { input, common } = creation
  const record = service.book.createPayment({
    ...common,
    currency: input.currency as Coin,
    expirationMinutes: (input.expirationMinutes as number | undefined) ?? EXPIRATION_MINUTES.paymentDefault,
  })
  return ok(call.res, paymentResource(service, record), "Payment created successfully")
}

/** GET /v1/invoice/:paymentId/status (no key needed): the record's status as the service shows it. */
const showStatus: SpecHandler = ({ book, statusRecord }, { res, params }) => {
  const record = book.get(params.paymentId)
  if (!record) return fail(res, 404, "Payment not found")
  return sendJson(res, 200, statusRecord(record))
}

/** GET /v1/merchant/balance: every coin that has seen a transaction. */
const listBalances: SpecHandler = ({ book }, { res }) => {
  const balances: Record<string, unknown> = {}
  for (const coin of COINS) {
    const entry = book.balance(coin, false)
    if (entry) balances[coin] = entry
  }
  return ok(
    res,
    { merchantId: book.merchantId, businessName: book.businessName, balances },
    "Balances retrieved successfully"
  )
}

/** GET /v1/merchant/balance/:currency: one coin's balance (zeros if it never saw one), with its limits' reset times. */
const showBalance: SpecHandler = ({ book }, { res, params }) => {
  const currency = currencyParam.safeParse(params.currency)
  if (!currency.success) {
    return fail(res, 400, "Invalid currency", { currency: CURRENCY_DETAILS })
  }
  return ok(
    res,
    { currency: currency.data, balance: book.balance(currency.data, true) },
    "Balance retrieved successfully"
  )
}

/** "METHOD /path" → handler, tried in this order; any other request is a 404. */
const ROUTES: Record<string, SpecHandler> = {
  "POST /v1/create_invoice": withApiKey(createInvoice),
  "POST /v1/create_payment": withApiKey(createPayment),
  "GET /v1/invoice/:paymentId/status": showStatus,
  "GET /v1/merchant/balance": withApiKey(listBalances),
  "GET /v1/merchant/balance/:currency": withApiKey(showBalance),
}

const ROUTE_TABLE = Object.entries(ROUTES).map(([key, handler]) => {
  const [method, pattern] = key.split(" ")
  return { method, pattern, handler }
})

/** The service's endpoints as the spec describes them: create_invoice, create_payment, status, balances. */
export function specApi(service: SpecApiContext): SpecApi {
  return function serviceRoute(req, res, path, body, raw) {
    const method = req.method ?? "GET"
    for (const route of ROUTE_TABLE) {
      const params = matchPath(route.pattern, path)
      if (params && route.method === method) return route.handler(service, { req, res, body, raw, params })
    }
    return fail(res, 404, "Not found")
  }
}
