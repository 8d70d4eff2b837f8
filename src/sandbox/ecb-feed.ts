import type { ServerResponse } from "node:http"
import { z } from "zod"
import { ecbReferenceDate, isCalendarDate } from "./ecb-calendar"
import { DEFAULT_ECB_RATES, ecbDailyXml, malformedEcbDailyXml } from "./ecb-xml"
import { sendText } from "./http"

/**
 * The sandbox's stand-in for the ECB's daily file of euro reference rates (GET /ecb/eurofxref-daily.xml):
 * what tests set of it over the control API (PUT /__sandbox/ecb), how it answers, and how often it was fetched.
 */

/** Where the sandbox serves the daily file (a shop's `exchangeRates.url` is `${sandboxUrl}${ECB_FILE_PATH}`). */
export const ECB_FILE_PATH = "/ecb/eurofxref-daily.xml"

/** How long the file is held back when the status is "slow". */
export const ECB_SLOW_MS = 20_000

export const ECB_STATUSES = ["up", "down", "malformed", "slow"] as const
/** up: the file; down: 503; malformed: 200 with a broken file; slow: the file after ECB_SLOW_MS. */
export type EcbStatus = (typeof ECB_STATUSES)[number]

/** What PUT /__sandbox/ecb sets. */
export type EcbSettings = {
  /** The file's date ("YYYY-MM-DD"); null: the newest one published by the sandbox's clock. */
  date: string | null
  /** Rates over the defaults (currency → rate); null removes the currency from the file. */
  rates: Record<string, string | null>
  status: EcbStatus
}

/** What GET /__sandbox/ecb shows: the settings, the file as it is served now, and how many fetches it answered. */
export type EcbState = EcbSettings & {
  path: string
  file: { date: string; rates: Record<string, string> }
  /** Fetches of the file answered by it (whatever the status), since the start or the last reset. */
  served: number
}

const DATE_ERROR = "date must be a calendar date YYYY-MM-DD, or null"
const RATE_CODE_ERROR = "rates must be keyed by 3-letter currency codes other than EUR"
const RATE_ERROR = (currency: string) => `rates.${currency} must be a positive decimal string (as "1.0842"), or null`

const calendarDate = z.string({ error: DATE_ERROR }).refine(isCalendarDate, DATE_ERROR)

const rates = z
  .record(z.string(), z.unknown(), { error: "rates must be an object of currency → rate" })
  .superRefine((given, ctx) => {
    for (const [currency, rate] of Object.entries(given)) {
      if (!/^[A-Z]{3}$/.test(currency) || currency === "EUR") {
        ctx.addIssue({ code: "custom", path: [currency], message: RATE_CODE_ERROR })
      } else if (rate !== null && (typeof rate !== "string" || !/^\d+(\.\d+)?$/.test(rate) || !/[1-9]/.test(rate))) {
        ctx.addIssue({ code: "custom", path: [currency], message: RATE_ERROR(currency) })
      }
    }
  })
  .transform((given) => given as Record<string, string | null>)

/** The body of PUT /__sandbox/ecb: each field optional, an unknown field refused. */
export const ecbSettingsSchema = z.strictObject(
  {
    date: z.union([calendarDate, z.null()], { error: DATE_ERROR }).optional(),
    rates: rates.optional(),
    status: z.enum(ECB_STATUSES, { error: `status must be one of: ${ECB_STATUSES.join(", ")}` }).optional(),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? undefined : "the body must be an object") }
)

/** Validation issues of PUT /__sandbox/ecb, one message per field ("rates.USD" for a rate). */
export function ecbSettingsDetails(error: z.ZodError): Record<string, string> {
  const details: Record<string, string> = {}
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) details[key] ??= `unknown field ${key} (date, rates, status)`
      continue
    }
    details[issue.path.map(String).join(".") || "body"] ??= issue.message
  }
  return details
}

const initialSettings = (): EcbSettings => ({ date: null, rates: {}, status: "up" })

export class EcbFeed {
  private settings = initialSettings()
  private served = 0
  /** Answers held back by "slow", ended by close(). */
  private readonly held = new Map<ServerResponse, NodeJS.Timeout>()

  /** `now` is the sandbox's clock (the payment book's), which the default date follows. */
  constructor(private readonly now: () => Date) {}

  /** Sets the fields given; `rates` replaces the earlier overrides (each PUT's rates are merged over the defaults). */
  update(change: Partial<EcbSettings>): EcbState {
    if (change.date !== undefined) this.settings.date = change.date
    if (change.rates !== undefined) this.settings.rates = { ...change.rates }
    if (change.status !== undefined) this.settings.status = change.status
    return this.state()
  }

  reset(): void {
    this.settings = initialSettings()
    this.served = 0
  }

  state(): EcbState {
    return {
      ...this.settings,
      rates: { ...this.settings.rates },
      path: ECB_FILE_PATH,
      file: this.file(),
      served: this.served,
    }
  }

  /** The date and rates the file carries now. */
  file(): { date: string; rates: Record<string, string> } {
    const rates: Record<string, string> = { ...DEFAULT_ECB_RATES }
    for (const [currency, rate] of Object.entries(this.settings.rates)) {
      if (rate === null) delete rates[currency]
      else rates[currency] = rate
    }
    return { date: this.settings.date ?? ecbReferenceDate(this.now()), rates }
  }

  /** Answers a request of the file (GET or HEAD) as the status says. */
  answer(method: string, res: ServerResponse): void {
    if (method !== "GET" && method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" })
      res.end("Method Not Allowed")
      return
    }
    this.served += 1
    switch (this.settings.status) {
      case "up":
        return this.send(res)
      case "down":
        return sendText(res, 503, "text/plain; charset=utf-8", "Service Unavailable")
      case "malformed": {
        const { date, rates } = this.file()
        return sendText(res, 200, "text/xml", malformedEcbDailyXml(date, rates))
      }
      case "slow": {
        const timer = setTimeout(() => {
          this.held.delete(res)
          this.send(res)
        }, ECB_SLOW_MS)
        this.held.set(res, timer)
        res.on("close", () => {
          clearTimeout(timer)
          this.held.delete(res)
        })
        return
      }
    }
  }

  /** Ends the answers held back (on close: their timers would otherwise keep the process alive for 20 s). */
  close(): void {
    this.held.forEach((timer, res) => {
      clearTimeout(timer)
      res.destroy()
    })
    this.held.clear()
  }

  private send(res: ServerResponse): void {
    const { date, rates } = this.file()
    sendText(res, 200, "text/xml", ecbDailyXml(date, rates))
  }
}
