import { z } from "zod"
import {
  COINS,
  EXPIRATION_MINUTES,
  INVOICE_AMOUNT_CURRENCIES,
  PAYMENT_AMOUNT_CURRENCIES,
  PAYMENT_STATUSES,
} from "./constants"
import { numberToDecimalString, plainDecimal } from "../domain/decimal"
import { isWebUrl } from "../domain/web-url"

/*
 * Requests are checked strictly; responses leniently where the spec is vague (extra fields, decimals as
 * strings or numbers, no currency before a coin is chosen) and strictly where we decide.
 */

// ---- requests ----------------------------------------------------------------------------------

/**
 * An amount to send, as a number or decimal text: kept as plain decimal text greater than zero,
 * which the client writes into the body as a JSON number (never with an exponent, never rounded).
 */
const amount = z
  .union([z.string(), z.number().finite()])
  .transform((v) => (typeof v === "number" ? numberToDecimalString(v) : v.trim()))
  .refine((v) => /^\d+(\.\d+)?$/.test(v) && /[1-9]/.test(v), "must be a decimal amount greater than 0")
const expirationMinutes = z.number().int().min(EXPIRATION_MINUTES.min).max(EXPIRATION_MINUTES.max)

/** A page the shop links to: http(s) only (a `javascript:` or `data:` URL would run when clicked). */
const webUrl = z.string().url().refine(isWebUrl, "must be an http or https URL")

export const createInvoiceRequestSchema = z.object({
  amount,
  amountCurrency: z.enum(INVOICE_AMOUNT_CURRENCIES),
  orderId: z.string().min(1).optional(),
  description: z.string().optional(),
  expirationMinutes: expirationMinutes.optional(),
})
/** What a caller passes (the amount as a number or decimal text). */
export type CreateInvoiceRequest = z.input<typeof createInvoiceRequestSchema>

export const createPaymentRequestSchema = z.object({
  amount,
  amountCurrency: z.enum(PAYMENT_AMOUNT_CURRENCIES),
  currency: z.enum(COINS),
  orderId: z.string().min(1).optional(),
  description: z.string().optional(),
  expirationMinutes: expirationMinutes.optional(),
})
export type CreatePaymentRequest = z.input<typeof createPaymentRequestSchema>

/** The webhook URL travels in a body field whose name the spec does not give (option `webhookUrlField`). */
export const webhookTargetSchema = z.object({
  field: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
  url: z.string().url(),
})
export type WebhookTarget = z.infer<typeof webhookTargetSchema>

// ---- responses ---------------------------------------------------------------------------------

/**
 * A decimal amount as the service may send it: a string ("0.0012") or a number, which the client's
 * parser hands over as its exact text (18 decimals survive). Kept as plain decimal text.
 */
const decimalString = z
  .union([z.string(), z.number().finite().min(0)])
  .transform((v) => plainDecimal(typeof v === "number" ? numberToDecimalString(v) : v.trim()))
  .refine((v) => /^\d+(\.\d+)?$/.test(v), "must be a non-negative decimal amount")

const timestamp = z.string().min(1)
const id = z.string().min(1)

export const invoiceSchema = z.looseObject({
  paymentId: id,
  baseAmount: z.number().finite(),
  baseCurrency: z.string(),
  conversionRates: z
    .record(z.string(), z.looseObject({ cryptoAmount: decimalString, price: z.number().finite() }))
    .optional(),
  invoiceUrl: webUrl,
  allowCurrencySelection: z.boolean().optional(),
  orderId: z.string().optional(),
  expiresAt: timestamp,
})
export type Invoice = z.infer<typeof invoiceSchema>

export const paymentSchema = z.looseObject({
  paymentId: id,
  amount: decimalString.refine((v) => /[1-9]/.test(v), "must be greater than 0"),
  currency: z.enum(COINS),
  address: z.string().min(1),
  invoiceUrl: webUrl,
  qrCode: z.string().min(1),
  expiresAt: timestamp,
  orderId: z.string().optional(),
  description: z.string().optional(),
})
export type Payment = z.infer<typeof paymentSchema>

export const statusRecordSchema = z.looseObject({
  paymentId: id,
  status: z.enum(PAYMENT_STATUSES),
  currentBalance: decimalString.optional().default("0"),
  confirmations: z.number().int().min(0).optional().default(0),
  requiredAmount: decimalString.optional(),
  currency: z.string().nullish(),
  address: z.string().nullish(),
  expiresAt: timestamp.nullish(),
  createdAt: timestamp.nullish(),
  completedAt: timestamp.nullish(),
})
export type StatusRecord = z.infer<typeof statusRecordSchema>

const limitSchema = z.looseObject({
  limit: z.number(),
  used: z.number(),
  remaining: z.number(),
  resetAt: z.string().optional(),
})

export const balanceEntrySchema = z.looseObject({
  availableBalance: z.number(),
  totalEarned: z.number(),
  totalWithdrawn: z.number(),
  pendingBalance: z.number(),
  limits: z.looseObject({ daily: limitSchema, monthly: limitSchema }),
})
export type BalanceEntry = z.infer<typeof balanceEntrySchema>

export const merchantSummarySchema = z.looseObject({
  merchantId: z.string(),
  businessName: z.string(),
  balances: z.record(z.string(), balanceEntrySchema),
})
export type MerchantSummary = z.infer<typeof merchantSummarySchema>

export const currencyBalanceSchema = z.looseObject({
  currency: z.string(),
  balance: balanceEntrySchema,
})
export type CurrencyBalance = z.infer<typeof currencyBalanceSchema>

/** The success envelope of the authenticated endpoints. */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.looseObject({
    success: z.literal(true),
    data,
    message: z.string().optional(),
    statusCode: z.number().optional(),
  })
}

/** The error envelope, read leniently (the 429 body, for one, is not shown in the spec). */
export const errorEnvelopeSchema = z.looseObject({
  success: z.literal(false).optional(),
  error: z.string().optional(),
  details: z.record(z.string(), z.string()).optional(),
  statusCode: z.number().optional(),
})
