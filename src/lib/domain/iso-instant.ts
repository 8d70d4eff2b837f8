import { z } from "zod"

/**
 * ISO 8601 date and time with its offset. Without an offset the same text means another instant in
 * every time zone, so it is refused rather than guessed.
 */
const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?(Z|([+-])(\d{2}):?(\d{2})?)$/i

/**
 * The instant in one canonical form PostgreSQL reads as timestamptz (`2026-11-01T00:00:00.5+01:00`),
 * or undefined when the text is not one: the calendar is checked here (JavaScript's Date takes
 * February 30th, PostgreSQL answers it with an error).
 */
export function isoInstant(text: string): string | undefined {
  // a "+" left unencoded in a query string arrives as a space: "…T00:00:00 01:00" meant "+01:00"
  const m = ISO_INSTANT.exec(text.trim().replace(/ (\d{2}(?::?\d{2})?)$/, "+$1"))
  if (!m) return undefined
  const [, year, month, day, hour, minute, second = "00", fraction = "", zone, sign, offsetHours, offsetMinutes] = m
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)))
  const realDay =
    date.getUTCFullYear() === Number(year) &&
    date.getUTCMonth() === Number(month) - 1 &&
    date.getUTCDate() === Number(day)
  if (!realDay || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined
  if (sign && (Number(offsetHours) > 15 || Number(offsetMinutes ?? "0") > 59)) return undefined
  const offset = sign ? `${sign}${offsetHours}:${offsetMinutes ?? "00"}` : zone.toUpperCase()
  return `${year}-${month}-${day}T${hour}:${minute}:${second}${fraction}${offset}`
}

/** An instant (isoInstant's form) in microseconds since 1970, to order two of them exactly. */
export function instantMicros(instant: string): number {
  const fraction = /\.(\d+)/.exec(instant)?.[1] ?? ""
  return Date.parse(instant) * 1000 + Number(fraction.padEnd(6, "0").slice(3, 6))
}

/** A query parameter holding an instant; a bad one is a 400 naming `field` and the form expected. */
export function isoInstantParam(field: string) {
  return z.string().transform((text, ctx) => {
    const instant = isoInstant(text)
    if (instant) return instant
    ctx.addIssue({
      code: "custom",
      message: `${field} must be an ISO 8601 date and time with its offset, like 2026-11-01T00:00:00Z or 2026-11-01T00:00:00+01:00`,
    })
    return z.NEVER
  })
}
