import { attachmentName, exportRange, isDay, isoWithOffset, monthToDate } from "../export-range"

// whatever the machine's time zone (the admin's browser's): a period is whole local days, each bound
// written with the offset in force at that moment (run under TZ=Europe/Berlin, a month across a clock
// change gets two offsets)
const OFFSET = /[+-]\d{2}:\d{2}$/

describe("the export's default period", () => {
  it.each([
    [new Date(2026, 10, 26, 15, 0), "2026-11-01", "2026-11-26"],
    [new Date(2026, 0, 5, 0, 30), "2026-01-01", "2026-01-05"],
    [new Date(2028, 2, 1, 23, 59), "2028-03-01", "2028-03-01"],
  ])("on %s is the month so far, %s to %s", (now, from, to) => {
    expect(monthToDate(now)).toEqual({ from, to })
  })
})

describe("the export's query from the days picked", () => {
  it.each([
    ["2026-10-01", "2026-10-31", new Date(2026, 9, 1), new Date(2026, 10, 1)],
    ["2026-03-01", "2026-03-31", new Date(2026, 2, 1), new Date(2026, 3, 1)],
    ["2026-12-31", "2026-12-31", new Date(2026, 11, 31), new Date(2027, 0, 1)],
  ])("runs from %s's midnight to the midnight after %s, each with its own offset", (fromDay, toDay, start, end) => {
    const range = exportRange(fromDay, toDay)!
    expect(range.from.startsWith(`${fromDay}T00:00:00`)).toBe(true)
    expect(range.from).toMatch(OFFSET)
    expect(Date.parse(range.from)).toBe(start.getTime())
    expect(range.to).toMatch(OFFSET)
    expect(Date.parse(range.to)).toBe(end.getTime())
  })

  it.each([
    ["2026-11-02", "2026-11-01"],
    ["2026-02-30", "2026-03-01"],
    ["", "2026-03-01"],
    ["2026-3-1", "2026-03-02"],
  ])("has none from %p to %p", (from, to) => {
    expect(exportRange(from, to)).toBeUndefined()
  })

  it("knows a real day", () => {
    expect(isDay("2028-02-29")).toBe(true)
    expect(isDay("2026-02-29")).toBe(false)
  })

  it.each([new Date(2026, 0, 15, 9, 5, 7), new Date(2026, 6, 1, 23, 59, 59), new Date(2026, 9, 25, 12, 0, 0)])(
    "writes %s as its local time with the offset in force",
    (date) => {
      const text = isoWithOffset(date)
      expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/)
      expect(text.slice(11, 19)).toBe(
        [date.getHours(), date.getMinutes(), date.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":")
      )
      expect(Date.parse(text)).toBe(date.getTime())
    }
  )
})

describe("the saved file's name", () => {
  it.each([
    ['attachment; filename="crypto-payments-2026-10-01-2026-11-01.csv"', "crypto-payments-2026-10-01-2026-11-01.csv"],
    [null, "fallback.csv"],
    ["attachment", "fallback.csv"],
    ['attachment; filename="../../etc/passwd"', "fallback.csv"],
  ])("from %p is %s", (disposition, name) => {
    expect(attachmentName(disposition, "fallback.csv")).toBe(name)
  })
})
