import type { IncomingMessage, ServerResponse } from "node:http"
import { timingSafeEqual } from "node:crypto"
import { Coin, COINS, EXPIRATION_MINUTES } from "./spec-facts"
import { amountNumber, Ledger, LedgerRecord, LedgerRules, UnselectedStyle } from "./ledger"
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
 * What the spec leaves open and the sandbox lets tests choose (PUT /__sandbox/config); with the ledger's
 * rules: expiredStays (an EXPIRED record never completes) and decimals (the precision of new records' amounts).
 */
export type ServiceConfig = LedgerRules & {
  /** Body field of create_invoice/create_payment that carries the webhook URL. */
  webhookField: string
  /** How a status record shows currency/address before an invoice's coin is chosen. */
  unselectedStyle: UnselectedStyle
  /**
   * Re-price of every invoice at coin choice, in percent of its creation quote, unless the invoice has
   * its own; null: quotes are locked (the required amount is the creation quote).
   */
  repricePercent: number | null
}

export type SpecApiContext = {
  apiKey: string
  ledger: Ledger
  config: ServiceConfig
  statusRecord: (record: LedgerRecord) => Record<string, unknown>
  invoiceUrl: (paymentId: string) => string
}

/** One request to the service: its body parsed, and as the text it was sent (numbers exactly as written). */
export type SpecApi = (req: IncomingMessage, res: ServerResponse, path: string, body: unknown, raw: string) => void

function keyMatches(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== "string") return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The service's endpoints as the spec describes them: create_invoice, create_payment, status, balances. */
export function specApi({ apiKey, ledger, config, statusRecord, invoiceUrl }: SpecApiContext): SpecApi {
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
    const amount = amountNumber(record.requiredUnits ?? 0n, ledger.decimals(record), record.precision)
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

  function requireKey(req: IncomingMessage, res: ServerResponse): boolean {
    if (keyMatches(req.headers["x-api-key"], apiKey)) return true
    fail(res, 401, "Invalid API key")
    return false
  }

  function create(kind: "invoice" | "payment", body: unknown, raw: string, res: ServerResponse) {
    const schema = kind === "invoice" ? invoiceSchema(config.webhookField) : paymentSchema(config.webhookField)
    const parsed = schema.safeParse(body ?? {})
    // the amount as written: a JS number keeps about 17 significant digits, a request may send more
    const amountText = numberLiterals(raw).get("amount")
    const details = parsed.success ? {} : detailsOf(parsed.error)
    if (amountText !== undefined && /[eE]/.test(amountText)) details.amount = AMOUNT_EXPONENT_DETAILS
    if (!parsed.success || details.amount) {
      return fail(res, 400, "Validation failure", details)
    }
    const input = parsed.data as Record<string, unknown>
    const common = {
      amount: amountText ?? (input.amount as number),
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

  return function serviceRoute(req, res, path, body, raw) {
    const method = req.method ?? "GET"
    if (method === "POST" && path === "/v1/create_invoice") {
      return requireKey(req, res) && create("invoice", body, raw, res)
    }
    if (method === "POST" && path === "/v1/create_payment") {
      return requireKey(req, res) && create("payment", body, raw, res)
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
}
