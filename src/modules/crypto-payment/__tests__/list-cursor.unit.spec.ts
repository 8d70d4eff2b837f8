import { cursorTimeSql, decodeCursor, encodeCursor, ListCursor } from "../list-cursor"

const at = "2026-11-26T10:15:30.123456Z"
const cursor: ListCursor = { direction: "next", createdAt: at, id: "cryptopay_01JDX4K2M9" }
const raw = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")

describe("the admin list's cursor", () => {
  it.each<ListCursor>([
    cursor,
    { ...cursor, direction: "prev" },
    { direction: "next", createdAt: "1999-12-31T23:59:59.000000Z", id: "cryptopay_a" },
  ])("decodes what it encoded: %j", (c) => {
    expect(decodeCursor(encodeCursor(c))).toEqual(c)
  })

  it("is opaque and safe in a URL: base64url, no padding", () => {
    expect(encodeCursor(cursor)).toMatch(/^[A-Za-z0-9_-]+$/)
  })

  it("keeps the microseconds (a cursor from a JavaScript Date would skip rows of the same millisecond)", () => {
    expect(decodeCursor(encodeCursor(cursor))?.createdAt).toBe(at)
    expect(decodeCursor(raw(["n", "2026-11-26T10:15:30.123Z", cursor.id]))).toBeUndefined()
  })

  it.each([
    ["nothing", ""],
    ["not base64url", "abc+/def="],
    ["a character Node would skip", encodeCursor(cursor).slice(0, 8) + "!" + encodeCursor(cursor).slice(8)],
    ["text", Buffer.from("hello").toString("base64url")],
    ["an object", raw({ d: "n", t: at, id: cursor.id })],
    ["two parts", raw(["n", at])],
    ["another direction", raw(["x", at, cursor.id])],
    ["a time without its zone", raw(["n", "2026-11-26T10:15:30.123456", cursor.id])],
    ["a day that is not one", raw(["n", "2026-02-30T10:15:30.123456Z", cursor.id])],
    ["an hour that is not one", raw(["n", "2026-11-26T25:15:30.123456Z", cursor.id])],
    ["an id with SQL in it", raw(["n", at, "x' or '1'='1"])],
    ["a number for the id", raw(["n", at, 42])],
    ["something too long", "A".repeat(401)],
  ])("refuses %s", (_, text) => {
    expect(decodeCursor(text)).toBeUndefined()
  })

  it("reads created_at in UTC to the microsecond, whatever the session's time zone", () => {
    expect(cursorTimeSql(`p."created_at"`)).toBe(
      `to_char(p."created_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
    )
  })
})
