import {
  ageHours,
  expectedPublication,
  isFresh,
  isTargetWorkingDay,
  missesWorkingDay,
  publicationInstant,
} from "../publication"

const HOUR = 3_600_000
const at = (iso: string) => new Date(iso)
const plus = (date: Date, ms: number) => new Date(date.getTime() + ms)

describe("when a day's rates are published", () => {
  it.each([
    ["2026-01-15", "2026-01-15T15:00:00.000Z"],
    ["2026-07-15", "2026-07-15T14:00:00.000Z"],
    // summer time starts on 29 March 2026 at 01:00 UTC, ends on 25 October 2026 at 01:00 UTC
    ["2026-03-27", "2026-03-27T15:00:00.000Z"],
    ["2026-03-29", "2026-03-29T14:00:00.000Z"],
    ["2026-03-30", "2026-03-30T14:00:00.000Z"],
    ["2026-10-23", "2026-10-23T14:00:00.000Z"],
    ["2026-10-25", "2026-10-25T15:00:00.000Z"],
    ["2025-03-31", "2025-03-31T14:00:00.000Z"],
    ["2024-02-29", "2024-02-29T15:00:00.000Z"],
  ])("%s at 16:00 Berlin is %s", (day, iso) => {
    expect(publicationInstant(day).toISOString()).toBe(iso)
  })

  it.each([["2026-02-30"], ["2026-11-24T16:00"], [""], ["24.11.2026"]])("refuses %p as a day", (day) => {
    expect(() => publicationInstant(day)).toThrow(RangeError)
  })
})

describe("how old a publication is", () => {
  it.each([
    ["2026-11-24", "2026-11-25T15:00:00Z", 24],
    ["2026-11-24", "2026-11-24T15:30:00Z", 0.5],
    ["2026-11-24", "2026-11-24T14:00:00Z", -1],
    ["2026-07-15", "2026-07-15T15:00:00Z", 1],
    // Thursday before Easter to Tuesday after, 10:00 Berlin
    ["2026-04-02", "2026-04-07T08:00:00Z", 114],
  ])("%s seen at %s is %p h old", (day, now, hours) => {
    expect(ageHours(day, at(now))).toBe(hours)
  })

  it("is fresh up to exactly its maximum age, and not a millisecond later", () => {
    const limit = plus(publicationInstant("2026-11-24"), 24 * HOUR)
    expect(isFresh("2026-11-24", 24, limit)).toBe(true)
    expect(isFresh("2026-11-24", 24, plus(limit, 1))).toBe(false)
  })

  it("keeps the boundary exact in summer and with a fractional maximum", () => {
    const limit = plus(publicationInstant("2026-07-15"), 1.5 * HOUR)
    expect(isFresh("2026-07-15", 1.5, limit)).toBe(true)
    expect(isFresh("2026-07-15", 1.5, plus(limit, 1))).toBe(false)
  })

  it("is fresh up to 24 h ahead of the clock, not beyond", () => {
    const earliest = plus(publicationInstant("2026-11-24"), -24 * HOUR)
    expect(isFresh("2026-11-24", 72, earliest)).toBe(true)
    expect(isFresh("2026-11-24", 72, plus(earliest, -1))).toBe(false)
  })

  it("keeps Thursday's rates fresh over Easter with 144 h", () => {
    const tuesday = at("2026-04-07T08:00:00Z")
    expect(isFresh("2026-04-02", 144, tuesday)).toBe(true)
    expect(isFresh("2026-04-02", 96, tuesday)).toBe(false)
  })

  it("is not fresh at an invalid clock", () => {
    expect(isFresh("2026-11-24", 24, new Date(Number.NaN))).toBe(false)
  })
})

describe("TARGET working days", () => {
  it.each([
    ["2026-11-24", true, "a Tuesday"],
    ["2026-11-28", false, "a Saturday"],
    ["2026-11-29", false, "a Sunday"],
    ["2026-01-01", false, "New Year's Day"],
    ["2026-01-02", true, "the Friday after New Year"],
    ["2026-04-02", true, "Maundy Thursday 2026"],
    ["2026-04-03", false, "Good Friday 2026"],
    ["2026-04-06", false, "Easter Monday 2026"],
    ["2026-04-07", true, "the Tuesday after Easter 2026"],
    ["2025-04-18", false, "Good Friday 2025"],
    ["2025-04-21", false, "Easter Monday 2025"],
    ["2024-03-29", false, "Good Friday 2024"],
    ["2024-04-01", false, "Easter Monday 2024"],
    ["2027-03-26", false, "Good Friday 2027"],
    ["2027-03-29", false, "Easter Monday 2027"],
    ["2038-04-23", false, "Good Friday 2038 (Easter on 25 April)"],
    ["2026-05-01", false, "Labour Day"],
    ["2026-05-14", true, "Ascension Day (not a TARGET holiday)"],
    ["2025-12-24", true, "Christmas Eve"],
    ["2025-12-25", false, "Christmas Day"],
    ["2025-12-26", false, "St Stephen's Day"],
    ["2025-12-31", true, "New Year's Eve"],
  ])("%s is a working day: %p (%s)", (day, working) => {
    expect(isTargetWorkingDay(day)).toBe(working)
  })
})

describe("which day's rates should be out", () => {
  it.each([
    // before Tuesday's publication after Easter, Thursday's are the newest
    ["2026-04-07T08:00:00Z", 120, "2026-04-02"],
    ["2026-04-07T15:59:59.999Z", 120, "2026-04-02"],
    ["2026-04-07T16:00:00Z", 120, "2026-04-07"],
    ["2026-04-07T14:00:00Z", 0, "2026-04-07"],
    ["2026-04-04T12:00:00Z", 120, "2026-04-02"],
    // a weekend: Friday's
    ["2026-11-28T12:00:00Z", 120, "2026-11-27"],
    ["2026-11-30T10:00:00Z", 120, "2026-11-27"],
    // winter: 15:00Z publication, plus two hours' grace
    ["2026-11-27T16:59:59.999Z", 120, "2026-11-26"],
    ["2026-11-27T17:00:00Z", 120, "2026-11-27"],
    ["2026-11-27T15:30:00Z", 30, "2026-11-27"],
    // just after midnight in Berlin, still before midnight UTC
    ["2026-11-24T23:30:00Z", 120, "2026-11-24"],
    // Christmas and New Year
    ["2025-12-29T09:00:00Z", 120, "2025-12-24"],
    ["2026-01-02T09:00:00Z", 120, "2025-12-31"],
    // a grace of a day reaches back over a weekend
    ["2026-11-30T16:00:00Z", 24 * 60, "2026-11-27"],
  ])("at %s with %i min grace: %s", (now, grace, day) => {
    expect(expectedPublication(at(now), grace)).toBe(day)
  })

  it("allows two hours' grace by default", () => {
    expect(expectedPublication(at("2026-11-27T16:59:59Z"))).toBe("2026-11-26")
    expect(expectedPublication(at("2026-11-27T17:00:00Z"))).toBe("2026-11-27")
  })

  it("refuses an invalid clock or grace", () => {
    expect(() => expectedPublication(new Date(Number.NaN))).toThrow(RangeError)
    expect(() => expectedPublication(at("2026-11-27T17:00:00Z"), -1)).toThrow(RangeError)
  })

  it.each([
    ["2026-04-02", "2026-04-07T08:00:00Z", false],
    ["2026-04-02", "2026-04-07T16:00:00Z", true],
    ["2026-11-26", "2026-11-28T12:00:00Z", true],
    ["2026-11-27", "2026-11-30T09:00:00Z", false],
    ["2026-11-27", "2026-11-30T16:59:00Z", false],
    ["2026-11-27", "2026-11-30T17:00:00Z", true],
    // a file dated ahead of the expected day misses nothing
    ["2026-11-30", "2026-11-30T09:00:00Z", false],
  ])("%s at %s misses a working day: %p", (day, now, misses) => {
    expect(missesWorkingDay(day, at(now))).toBe(misses)
  })

  it("refuses a publication day that is not a date", () => {
    expect(() => missesWorkingDay("2026-11-31", at("2026-11-30T09:00:00Z"))).toThrow(RangeError)
  })
})
