/**
 * The accounting export's period as the admin picks it: whole days in the admin's own time zone, the
 * last one included, sent as `[from, to)` instants with their offsets (the API refuses a time without
 * one).
 */

/** What the export makes: a line per payment, or a line per owed record (refunds, excess, late). */
export const EXPORT_KINDS = ["payments", "refunds"] as const
export type ExportKind = (typeof EXPORT_KINDS)[number]

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, "0")

function dayOf(date: Date): string {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/** A day text as a local Date at its midnight (or the first moment after, where midnight is skipped). */
function localDate(day: string, addDays = 0): Date | undefined {
  const m = DAY.exec(day)
  if (!m) return undefined
  const date = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + addDays)
  return dayOf(new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) === day ? date : undefined
}

/** Whether a text is a real day ("2026-02-30" is not). */
export function isDay(day: string): boolean {
  return localDate(day) !== undefined
}

/** The current month so far: its first day to today (a new shop's first file holds today's payments). */
export function monthToDate(now: Date): { from: string; to: string } {
  return { from: dayOf(new Date(now.getFullYear(), now.getMonth(), 1)), to: dayOf(now) }
}

/** A local Date as ISO 8601 with its offset: "2026-10-01T00:00:00+02:00". */
export function isoWithOffset(date: Date): string {
  const offset = -date.getTimezoneOffset()
  const zone = `${offset < 0 ? "-" : "+"}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`
  return `${dayOf(date)}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}${zone}`
}

/**
 * From `fromDay`'s midnight to the midnight after `toDay`, each with the offset in force then (a month
 * across a clock change has two). Undefined for a day that is not one, or a last day before the first.
 */
export function exportRange(fromDay: string, toDay: string): { from: string; to: string } | undefined {
  const start = localDate(fromDay)
  const end = localDate(toDay, 1)
  if (!start || !end || fromDay > toDay) return undefined
  return { from: isoWithOffset(start), to: isoWithOffset(end) }
}

/** The file name the server gave (`Content-Disposition: attachment; filename="…"`), or `fallback`. */
export function attachmentName(disposition: string | null, fallback: string): string {
  const name = disposition ? /filename="([^"]+)"/.exec(disposition)?.[1] : undefined
  return name && /^[\w.-]+$/.test(name) ? name : fallback
}
