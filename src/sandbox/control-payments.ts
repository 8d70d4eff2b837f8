import type { ServerResponse } from "node:http"
import { Coin, EXPIRATION_MINUTES, isCoin, REQUIRED_CONFIRMATIONS } from "./spec-facts"
import { fromUnits } from "./decimal"
import { PaymentBook, SandboxConflict } from "./payment-book"
import type { BookEntry } from "./book-entry"
import { CURRENCY_DETAILS, detailsOf, paymentSchema } from "./validation"
import { fail, sendJson } from "./http"
import type { ControlContext, ControlHandler } from "./control-context"

/** The control API's payment routes: the records as tests see them, what moves one along, bulk creation, the clock. */

/** The re-prices the control API accepts, in percent of an invoice's creation quote. */
export const REPRICE_PERCENT = { min: -90, max: 1000 } as const
const REPRICE_ERROR = `percent must be a number from ${REPRICE_PERCENT.min} to ${REPRICE_PERCENT.max}`

/** How many payments one POST /__sandbox/payments/bulk may create (benchmarks of a large payment book). */
export const BULK_PAYMENTS_MAX = 200_000
const BULK_COUNT_ERROR = `count must be a whole number from 1 to ${BULK_PAYMENTS_MAX}`

export function isRepricePercent(value: unknown): value is number {
  return (
    typeof value === "number" && Number.isFinite(value) && value >= REPRICE_PERCENT.min && value <= REPRICE_PERCENT.max
  )
}

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

export const listPayments: ControlHandler = (sandbox, { res }) =>
  sendJson(res, 200, { payments: sandbox.book.all().map((record) => controlView(sandbox, record)) })

export const showPayment: ControlHandler = (sandbox, { res, params }) => {
  const record = requireRecord(sandbox.book, params.id, res)
  return record && sendJson(res, 200, controlView(sandbox, record))
}

/**
 * `count` payments exactly as create_payment makes them (its validation and default expiry), without a
 * webhook URL: a book of 100,000 open payments in one call rather than 100,000 requests.
 */
export const bulkCreatePayments: ControlHandler = ({ book, config }, { res, body }) => {
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
export const runPaymentAction: ControlHandler = (sandbox, { res, params, body }) => {
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

export const advanceClock: ControlHandler = ({ book }, { res, body }) => {
  const ms = Number(body?.advanceMs ?? 0) + Number(body?.advanceMinutes ?? 0) * 60_000
  if (!Number.isFinite(ms) || ms < 0) return fail(res, 400, "advanceMs/advanceMinutes must be non-negative numbers")
  book.advanceClock(ms)
  return sendJson(res, 200, { now: book.now().toISOString() })
}
