import { z } from "zod"
import { numberToDecimalString } from "../../../lib/domain/decimal"

/** The European Central Bank's daily euro foreign-exchange reference rates (published on TARGET working days around 16:00 CET). */
export const ECB_DAILY_URL = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"

/** Hours a publication may be old: the ECB's longest closing (Easter, Thursday to Tuesday: 120 h) with a day to spare. */
export const DEFAULT_MAX_AGE_HOURS = 144

/** What the customer pays beyond the converted amount, in percent (BTCPay's spread). */
const markupPercent = z.number().min(0).max(10).default(0)

/**
 * A rate: decimal text ("1.0842"), or a number whose shortest form is the decimal the shop wrote (at most 15
 * significant digits, what a JavaScript number keeps), read as that text.
 */
const positiveDecimal = z
  .union([
    z.string().trim(),
    z
      .number()
      .refine(
        (value) => Number.isFinite(value) && numberToDecimalString(value).replace(/^[0.]+|\./g, "").length <= 15,
        'has more digits than a number keeps: write it as a string, such as "1.0842"'
      )
      .transform((value) => numberToDecimalString(value)),
  ])
  .pipe(
    z
      .string()
      .regex(/^\d+(\.\d+)?$/, 'must be a decimal such as "1.0842"')
      .refine((value) => /[1-9]/.test(value), "must be greater than 0")
  )

const ecbRates = z.strictObject({
  source: z.literal("ecb"),
  url: z
    .string()
    .trim()
    .url()
    .refine((value) => /^https?:\/\//i.test(value), "must start with http:// or https://")
    .default(ECB_DAILY_URL),
  maxAgeHours: z
    .number()
    .positive()
    .max(24 * 31)
    .default(DEFAULT_MAX_AGE_HOURS),
  markupPercent,
  refreshMinutes: z.number().int().min(1).max(1440).default(60),
})

const fixedRates = z.strictObject({
  source: z.literal("fixed"),
  /** USD per one unit of the store currency, as decimal strings: { EUR: "1.0842" }. */
  rates: z
    .record(z.string().regex(/^[A-Za-z]{3}$/, "must be three-letter currency codes"), positiveDecimal)
    .refine((rates) => Object.keys(rates).length > 0, "must name at least one currency")
    .transform((rates) => Object.fromEntries(Object.entries(rates).map(([code, rate]) => [code.toUpperCase(), rate]))),
  markupPercent,
})

/**
 * How a store currency the service does not take (EUR, GBP, JPY …) is priced in USD: the ECB's
 * reference rates (the default), the shop's own fixed rates, or `false` (such carts are refused).
 */
export const exchangeRatesSchema = z
  .union([z.literal(false), z.discriminatedUnion("source", [ecbRates, fixedRates])])
  .prefault({ source: "ecb" })

export type ExchangeRatesOption = z.output<typeof exchangeRatesSchema>
export type EcbRatesOption = z.output<typeof ecbRates>
export type FixedRatesOption = z.output<typeof fixedRates>
