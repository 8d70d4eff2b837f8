import { instantMicros, isoInstant, isoInstantParam } from "../iso-instant"

describe("an instant given in a query", () => {
  it.each([
    ["2026-11-01T00:00:00Z", "2026-11-01T00:00:00Z"],
    ["2026-11-01T00:00:00z", "2026-11-01T00:00:00Z"],
    ["2026-11-01T00:00:00+01:00", "2026-11-01T00:00:00+01:00"],
    ["2026-11-01T00:00:00-0500", "2026-11-01T00:00:00-05:00"],
    ["2026-11-01T00:00:00+05", "2026-11-01T00:00:00+05:00"],
    ["2026-11-01T00:00Z", "2026-11-01T00:00:00Z"],
    ["2026-11-01T10:15:30.123456+01:00", "2026-11-01T10:15:30.123456+01:00"],
    ["2024-02-29T12:00:00Z", "2024-02-29T12:00:00Z"],
    // a "+" left unencoded in a query string arrives as a space
    ["2026-11-01T00:00:00 01:00", "2026-11-01T00:00:00+01:00"],
  ])("takes %s as %s", (text, instant) => {
    expect(isoInstant(text)).toBe(instant)
  })

  it.each([
    ["a date alone", "2026-11-01"],
    ["a time without its offset", "2026-11-01T00:00:00"],
    ["a day that is not one", "2026-02-30T00:00:00Z"],
    ["February 29th of a common year", "2026-02-29T00:00:00Z"],
    ["a month that is not one", "2026-13-01T00:00:00Z"],
    ["hour 24", "2026-11-01T24:00:00Z"],
    ["second 60", "2026-11-01T23:59:60Z"],
    ["more than six decimals", "2026-11-01T00:00:00.1234567Z"],
    ["an offset beyond 15 hours", "2026-11-01T00:00:00+16:00"],
    ["a word", "yesterday"],
    ["a number", "1793487600"],
  ])("refuses %s", (_, text) => {
    expect(isoInstant(text)).toBeUndefined()
  })

  it("orders two instants to the microsecond, whatever their offsets", () => {
    expect(instantMicros("2026-11-01T00:00:00.000001Z")).toBeGreaterThan(instantMicros("2026-11-01T00:00:00Z"))
    expect(instantMicros("2026-11-01T01:00:00+01:00")).toBe(instantMicros("2026-11-01T00:00:00Z"))
    expect(instantMicros("2026-11-01T00:00:00.123456Z") - instantMicros("2026-11-01T00:00:00.123Z")).toBe(456)
  })

  it("as a parameter, names its field and the form it wants when refused", () => {
    const result = isoInstantParam("created_from").safeParse("2026-11-01")
    expect(result.success).toBe(false)
    expect(result.error?.issues[0].message).toMatch(/^created_from must be an ISO 8601 date and time with its offset/)
    expect(isoInstantParam("created_from").parse("2026-11-01T00:00:00 01:00")).toBe("2026-11-01T00:00:00+01:00")
  })
})
