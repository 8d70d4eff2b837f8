/**
 * The ECB publishes around 16:00 Berlin time on TARGET working days. Berlin's offset comes from Intl,
 * which carries the time zone rules, so no time zone library is needed.
 */
import { isCalendarDate } from "./ecb-file"

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS
const PUBLICATION_HOUR = 16
// A file dated a day ahead can be a clock skew; further ahead it is wrong.
const MAX_FUTURE_HOURS = 24

const berlin = new Intl.DateTimeFormat("en-US", {
  timeZone: "Europe/Berlin",
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
})

/** The instant the rates for `publishedOn` (YYYY-MM-DD) are published: 16:00 Europe/Berlin that day. */
export function publicationInstant(publishedOn: string): Date {
  const [year, month, day] = dateParts(publishedOn)
  const wall = Date.UTC(year, month - 1, day, PUBLICATION_HOUR)
  // Offset taken at the guess, then at the result: DST switches at 01:00 UTC, far from 16:00.
  let utc = wall - berlinOffsetMs(wall)
  utc = wall - berlinOffsetMs(utc)
  return new Date(utc)
}

/** Hours from the publication of `publishedOn` to `now` (negative before it). */
export function ageHours(publishedOn: string, now: Date): number {
  return (now.getTime() - publicationInstant(publishedOn).getTime()) / HOUR_MS
}

/**
 * Rates are fresh when at most `maxAgeHours` old (inclusive) and not more than 24 hours ahead
 * of `now`. Compared in milliseconds so the boundary is not blurred by a division.
 */
export function isFresh(publishedOn: string, maxAgeHours: number, now: Date): boolean {
  const elapsedMs = now.getTime() - publicationInstant(publishedOn).getTime()
  return elapsedMs <= maxAgeHours * HOUR_MS && elapsedMs >= -MAX_FUTURE_HOURS * HOUR_MS
}

/**
 * Whether the ECB publishes on `date` (YYYY-MM-DD): not on TARGET2 closing days (weekends,
 * 1 January, Good Friday, Easter Monday, 1 May, 25 and 26 December).
 */
export function isTargetWorkingDay(date: string): boolean {
  const [year, month, day] = dateParts(date)
  const time = Date.UTC(year, month - 1, day)
  const weekday = new Date(time).getUTCDay()
  if (weekday === 0 || weekday === 6) return false
  const monthDay = `${month}-${day}`
  if (monthDay === "1-1" || monthDay === "5-1" || monthDay === "12-25" || monthDay === "12-26") return false
  const easter = easterSunday(year)
  return time !== easter - 2 * DAY_MS && time !== easter + DAY_MS
}

/**
 * The newest day (YYYY-MM-DD) whose rates should be out by `now`: a TARGET working day whose
 * publication instant plus `graceMinutes` (the ECB is sometimes late) is at or before `now`.
 */
export function expectedPublication(now: Date, graceMinutes = 120): string {
  const nowMs = now.getTime()
  if (!Number.isFinite(nowMs)) {
    throw new RangeError("now is not a valid date")
  }
  if (!Number.isFinite(graceMinutes) || graceMinutes < 0) {
    throw new RangeError(`grace must be a non-negative number of minutes: ${graceMinutes}`)
  }
  const graceMs = graceMinutes * 60_000
  // Start at Berlin's date today: no later day can be published yet with a non-negative grace.
  let date = berlinDate(nowMs)
  for (;;) {
    if (isTargetWorkingDay(date) && publicationInstant(date).getTime() + graceMs <= nowMs) {
      return date
    }
    date = previousDay(date)
  }
}

/** True when a newer TARGET working day's rates should be out by `now` than those of `publishedOn`. */
export function missesWorkingDay(publishedOn: string, now: Date, graceMinutes = 120): boolean {
  dateParts(publishedOn)
  return publishedOn < expectedPublication(now, graceMinutes)
}

/** Easter Sunday (UTC midnight, ms) by the anonymous Gregorian algorithm (Meeus/Jones/Butcher). */
function easterSunday(year: number): number {
  const a = year % 19
  const b = Math.floor(year / 100)
  const c = year % 100
  const d = Math.floor(b / 4)
  const e = b % 4
  const f = Math.floor((b + 8) / 25)
  const g = Math.floor((b - f + 1) / 3)
  const h = (19 * a + b - d - g + 15) % 30
  const i = Math.floor(c / 4)
  const k = c % 4
  const l = (32 + 2 * e + 2 * i - h - k) % 7
  const m = Math.floor((a + 11 * h + 22 * l) / 451)
  const month = Math.floor((h + l - 7 * m + 114) / 31)
  const day = ((h + l - 7 * m + 114) % 31) + 1
  return Date.UTC(year, month - 1, day)
}

/** Berlin's offset from UTC at an instant, in ms (3 600 000 in winter, 7 200 000 in summer). */
function berlinOffsetMs(instantMs: number): number {
  const p = berlinParts(instantMs)
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second)
  // Intl drops milliseconds; compare with the instant floored to the second.
  return wall - Math.floor(instantMs / 1000) * 1000
}

function berlinDate(instantMs: number): string {
  const p = berlinParts(instantMs)
  return `${String(p.year).padStart(4, "0")}-${String(p.month).padStart(2, "0")}-${String(p.day).padStart(2, "0")}`
}

function berlinParts(instantMs: number): Record<"year" | "month" | "day" | "hour" | "minute" | "second", number> {
  const parts: Record<string, number> = {}
  for (const part of berlin.formatToParts(new Date(instantMs))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value)
  }
  return {
    year: parts.year,
    month: parts.month,
    day: parts.day,
    hour: parts.hour,
    minute: parts.minute,
    second: parts.second,
  }
}

function previousDay(date: string): string {
  const [year, month, day] = dateParts(date)
  return new Date(Date.UTC(year, month - 1, day) - DAY_MS).toISOString().slice(0, 10)
}

function dateParts(date: string): [number, number, number] {
  if (typeof date !== "string" || !isCalendarDate(date)) {
    throw new RangeError(`not a calendar date YYYY-MM-DD: ${JSON.stringify(String(date).slice(0, 40))}`)
  }
  return [Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))]
}
