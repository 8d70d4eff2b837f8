/**
 * The date of the ECB's newest euro reference rates: they are published on TARGET working days at about
 * 16:00 Central European time, so at a given moment the daily file carries the newest working day whose
 * 16:00 Europe/Berlin has passed.
 */

/** The hour (Europe/Berlin) from which a working day's rates are in the daily file. */
export const ECB_PUBLICATION_HOUR = 16

const DAY_MS = 24 * 60 * 60_000

const berlin = new Intl.DateTimeFormat("en-US", {
  timeZone: "Europe/Berlin",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  hourCycle: "h23",
})

/** Whether `text` is a real calendar date written YYYY-MM-DD ("2026-02-30" and "2026-13-01" are not). */
export function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (!match) return false
  const [year, month, day] = match.slice(1).map(Number)
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/** Easter Sunday of `year` (Gregorian), as midnight UTC of that day. */
export function easterSunday(year: number): Date {
  // the anonymous Gregorian algorithm (Meeus/Jones/Butcher)
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
  return new Date(Date.UTC(year, month - 1, day))
}

/**
 * Whether `day` (a calendar day, read in UTC) is a TARGET working day: Monday to Friday except
 * 1 January, Good Friday, Easter Monday, 1 May, 25 and 26 December.
 */
export function isTargetWorkingDay(day: Date): boolean {
  const weekday = day.getUTCDay()
  if (weekday === 0 || weekday === 6) return false
  const monthDay = `${day.getUTCMonth() + 1}-${day.getUTCDate()}`
  if (["1-1", "5-1", "12-25", "12-26"].includes(monthDay)) return false
  const easter = easterSunday(day.getUTCFullYear()).getTime()
  const time = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate())
  return time !== easter - 2 * DAY_MS && time !== easter + DAY_MS
}

/** The date ("YYYY-MM-DD") of the rates in the ECB's daily file at `now`. */
export function ecbReferenceDate(now: Date): string {
  const parts = Object.fromEntries(berlin.formatToParts(now).map((p) => [p.type, Number(p.value)]))
  let day = new Date(Date.UTC(parts.year, parts.month - 1, parts.day))
  // today counts once its publication hour has come; any earlier day's has passed
  if (parts.hour < ECB_PUBLICATION_HOUR) day = new Date(day.getTime() - DAY_MS)
  while (!isTargetWorkingDay(day)) day = new Date(day.getTime() - DAY_MS)
  return day.toISOString().slice(0, 10)
}
