import { z } from "zod"
import { MedusaError } from "@medusajs/framework/utils"
import { COINS, EXPIRATION_MINUTES } from "../../../lib/crypto-api/constants"
import { latePaymentsSchema, tolerancePercentSchema } from "../../../lib/domain/merchant-policy"
import { exchangeRatesSchema } from "./exchange-rate-options"

export const PLACE_ORDER = ["before_payment", "after_payment"] as const
export type PlaceOrder = (typeof PLACE_ORDER)[number]
export const MODES = ["invoice", "payment"] as const
export const REFUNDS = ["manual", "disabled"] as const

const httpUrl = z
  .string()
  .trim()
  .url()
  .refine((value) => /^https?:\/\//i.test(value), "must start with http:// or https://")

/** The provider's options, as a shop writes them in medusa-config.ts. A key it does not know (a typo) stops the boot. */
export const cryptoOptionsSchema = z.strictObject({
  apiKey: z.string().trim().min(1),
  baseUrl: httpUrl,
  backendUrl: httpUrl.optional(),
  webhookUrlField: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a plain field name such as webhookUrl")
    .default("webhookUrl"),
  webhookSecret: z.string().min(16, "must be at least 16 characters").optional(),
  /**
   * Older secrets whose tokens still verify after a rotation. Which secret minted which URL is not
   * recorded: a forged token costs at most one rate-limited status read.
   */
  acceptedWebhookSecrets: z.array(z.string().min(16, "must be at least 16 characters")).max(10).default([]),
  mode: z.enum(MODES).default("invoice"),
  defaultCoin: z.enum(COINS).optional(),
  expirationMinutes: z.number().int().min(EXPIRATION_MINUTES.min).max(EXPIRATION_MINUTES.max).optional(),
  placeOrder: z.enum(PLACE_ORDER).default("before_payment"),
  reconcileIntervalSeconds: z.number().int().min(5).default(60),
  reconcileBatchSize: z.number().int().min(1).max(500).default(20),
  /** Hours after expiry during which an expired payment is still read, because late payments happen. */
  lateWindowHours: z
    .number()
    .min(0)
    .max(24 * 30)
    .default(24),
  requestTimeoutMs: z.number().int().min(1000).max(120_000).default(15_000),
  /**
   * Seconds a pending status read is shared by storefront polls in every process (the spec advises
   * polling every 30–60 s). 0 shares only concurrent reads.
   */
  statusCacheSeconds: z.number().int().min(0).max(600).default(30),
  /**
   * The service has no refund API. "manual": Medusa's refund is recorded and the ledger shows the
   * coin amount owed until an admin marks it sent from the service's dashboard. "disabled": refused.
   */
  refunds: z.enum(REFUNDS).default("manual"),
  /**
   * Percent by which the service may re-price an invoice (the coins it asks against the creation
   * quote) before the informational quote_drift flag is raised. Never blocks a capture.
   */
  quoteDriftAlertPercent: z.number().min(0).max(100).default(2),
  /**
   * Percent a payment may be short when EXPIRED and still be captured once confirmed: wallets and
   * exchanges often take their fee out of the amount sent. A setting saved in the admin wins.
   */
  underpaymentTolerancePercent: tolerancePercentSchema.default(0),
  /**
   * "flag" cancels an expired checkout's awaiting order; "fulfil" keeps it awaiting, its stock reserved,
   * for lateWindowHours, so a late payment inside it is an ordinary capture. A setting saved in the admin wins.
   */
  latePayments: latePaymentsSchema.default("flag"),
  /**
   * A store currency the service does not take (it takes USD and USDT) is priced in USD at a recorded
   * rate: the ECB's daily reference rates by default, `{ source: "fixed", rates }`, or false to refuse.
   */
  exchangeRates: exchangeRatesSchema,
})

export type CryptoOptionsInput = z.input<typeof cryptoOptionsSchema>
export type CryptoOptions = z.output<typeof cryptoOptionsSchema>

/** A description of what is wrong with an option that never repeats the value given. */
function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return /received undefined$/.test(issue.message)
        ? "is required"
        : `must be ${/^[aeiou]/.test(String(issue.expected)) ? "an" : "a"} ${issue.expected}`
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`
    case "too_small":
      return issue.origin === "string"
        ? `must not be empty${Number(issue.minimum) > 1 ? ` (at least ${issue.minimum} characters)` : ""}`
        : `must be at least ${issue.minimum}`
    case "too_big":
      return `must be at most ${issue.maximum}`
    case "invalid_format":
      if (issue.format === "url") return "must be a URL"
      // a pattern's own message says what is expected; zod's default does not
      return issue.format === "regex" && !/^Invalid/.test(issue.message)
        ? issue.message
        : `has an invalid format (${issue.format})`
    case "unrecognized_keys":
      return issue.keys.map((key) => `"${key}" is not an option${suggestion(key)}`).join("; ")
    default:
      return issue.message
  }
}

const OPTION_NAMES = Object.keys(cryptoOptionsSchema.shape)

/** Edit distance, for "did you mean" on a mistyped option. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1))
      diagonal = above
    }
  }
  return row[b.length]
}

/** The keys of an option that is itself an object, for "did you mean" inside it. */
const NESTED_OPTION_NAMES: Record<string, string[]> = {
  exchangeRates: ["source", "url", "maxAgeHours", "markupPercent", "refreshMinutes", "rates"],
}

function suggestion(key: string, names: string[] = OPTION_NAMES): string {
  const lower = key.toLowerCase()
  const [best] = names
    .map((name) => ({
      name,
      d: name.toLowerCase() === lower ? 0 : distance(lower, name.toLowerCase()),
    }))
    .filter(({ d }) => d <= Math.max(2, Math.floor(key.length / 4)))
    .sort((a, b) => a.d - b.d)
  return best ? ` (did you mean "${best.name}"?)` : ` (known options: ${names.join(", ")})`
}

/**
 * The issues to report: a union's (exchangeRates: false or an object) are those of the branch the
 * value was meant for, the object's, unless the value fits no branch at all.
 */
function reportedIssues(issues: z.core.$ZodIssue[], prefix: PropertyKey[] = []): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path]
    if (issue.code !== "invalid_union") return [{ ...issue, path }]
    if (issue.discriminator !== undefined)
      return [{ ...issue, path, code: "custom", message: `must be one of "ecb", "fixed"`, input: undefined }]
    const meant = issue.errors.filter(
      (branch) => !branch.every((i) => !i.path.length && /invalid_(type|value)/.test(i.code))
    )
    if (meant.length === 1) return reportedIssues(meant[0], path)
    return [
      { ...issue, path, code: "custom", message: 'must be false or { source: "ecb" | "fixed", … }', input: undefined },
    ]
  }) as z.core.$ZodIssue[]
}

/**
 * Validates and fills defaults. A bad option stops the boot with the field
 * named and what is expected of it; the value itself (maybe a secret) never appears.
 */
export function parseCryptoOptions(options: unknown): CryptoOptions {
  const result = cryptoOptionsSchema.safeParse(options ?? {})
  if (result.success) {
    return result.data
  }
  const problems = reportedIssues(result.error.issues).map((issue) => {
    const field = issue.path.join(".") || "options"
    if (issue.code === "unrecognized_keys") {
      if (!issue.path.length) return describeIssue(issue)
      const names = NESTED_OPTION_NAMES[String(issue.path[0])]
      return issue.keys.map((key) => `"${field}.${key}" is not an option${suggestion(key, names)}`).join("; ")
    }
    return `"${field}" ${describeIssue(issue)}`
  })
  throw new MedusaError(
    MedusaError.Types.INVALID_DATA,
    `medusa-payment-crypto: invalid provider option ${problems.join("; ")}. Check the options of the crypto provider in medusa-config.ts.`
  )
}

/** A base URL that sends the API key over plain HTTP to another machine (loopback is fine: local proxies). */
export function sendsKeyInClear(baseUrl: string): boolean {
  const url = new URL(baseUrl)
  if (url.protocol !== "http:") return false
  const host = url.hostname.replace(/^\[|\]$/g, "")
  return !(host === "localhost" || host === "::1" || /^127\./.test(host))
}
