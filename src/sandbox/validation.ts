import { z } from "zod"
import { COINS, EXPIRATION_MINUTES, INVOICE_AMOUNT_CURRENCIES, PAYMENT_AMOUNT_CURRENCIES } from "./spec-facts"

/** The service's rules for request bodies, each with the message it puts in `details`. */

const oneOf = (field: string, values: readonly string[]) => `${field} must be one of: ${values.join(", ")}`

const amount = z
  .number({ error: "amount must be a number greater than 0" })
  .gt(0, "amount must be a number greater than 0")

/**
 * An amount written with an exponent (`1e-7`) is refused, as a strict validator of decimal amounts may
 * (JSON allows it; the spec says only "number"). Checked on the request's text, where the amount is also
 * read exactly (spec-api.ts): the parsed body no longer tells how the number was written.
 */
export const AMOUNT_EXPONENT_DETAILS = "amount must be a plain decimal number, without an exponent"

const text = (field: string) => z.string({ error: `${field} must be a string` }).optional()
const expirationMinutes = z
  .number({
    error: `expirationMinutes must be a whole number from ${EXPIRATION_MINUTES.min} to ${EXPIRATION_MINUTES.max}`,
  })
  .int(`expirationMinutes must be a whole number from ${EXPIRATION_MINUTES.min} to ${EXPIRATION_MINUTES.max}`)
  .min(
    EXPIRATION_MINUTES.min,
    `expirationMinutes must be a whole number from ${EXPIRATION_MINUTES.min} to ${EXPIRATION_MINUTES.max}`
  )
  .max(
    EXPIRATION_MINUTES.max,
    `expirationMinutes must be a whole number from ${EXPIRATION_MINUTES.min} to ${EXPIRATION_MINUTES.max}`
  )
  .optional()

const webhookUrl = (field: string) =>
  z
    .string({ error: `${field} must be an http(s) URL` })
    .refine((value) => /^https?:\/\/[^\s]+$/i.test(value), `${field} must be an http(s) URL`)
    .optional()

/**
 * Built once per webhook field: zod compiles an object schema on its first parse, so a schema built
 * per request was compiled again on every create (the sandbox's costliest step, which a test would
 * otherwise count as the plugin's).
 */
function builtOnce<S>(build: (webhookField: string) => S): (webhookField: string) => S {
  const built = new Map<string, S>()
  return (webhookField) => {
    let schema = built.get(webhookField)
    if (!schema) built.set(webhookField, (schema = build(webhookField)))
    return schema
  }
}

export const invoiceSchema = builtOnce((webhookField) =>
  z.object({
    amount,
    amountCurrency: z.enum(INVOICE_AMOUNT_CURRENCIES, { error: oneOf("amountCurrency", INVOICE_AMOUNT_CURRENCIES) }),
    orderId: text("orderId"),
    description: text("description"),
    expirationMinutes,
    [webhookField]: webhookUrl(webhookField),
  })
)

export const paymentSchema = builtOnce((webhookField) =>
  z.object({
    amount,
    amountCurrency: z.enum(PAYMENT_AMOUNT_CURRENCIES, { error: oneOf("amountCurrency", PAYMENT_AMOUNT_CURRENCIES) }),
    currency: z.enum(COINS, { error: oneOf("currency", COINS) }),
    orderId: text("orderId"),
    description: text("description"),
    expirationMinutes,
    [webhookField]: webhookUrl(webhookField),
  })
)

export const currencyParam = z.enum(COINS)
export const CURRENCY_DETAILS = oneOf("currency", COINS)

/** Validation issues as the service reports them: one message per field. */
export function detailsOf(error: z.ZodError): Record<string, string> {
  const details: Record<string, string> = {}
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "body")
    details[field] ??= issue.message
  }
  return details
}
