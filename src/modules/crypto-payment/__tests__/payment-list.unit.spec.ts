import { decodeCursor, encodeCursor, ListCursor } from "../list-cursor"
import { cursorsOf, LIST_FLAGS, ListFlag, listWhere, pageQuery } from "../payment-list"

const oneLine = (sql: string) => sql.replace(/\s+/g, " ").trim()
const row = (id: string, at: string) => ({ id, cursor_at: at })
const A = row("cryptopay_a", "2026-11-26T10:00:00.000003Z")
const B = row("cryptopay_b", "2026-11-26T10:00:00.000002Z")
const from = (direction: ListCursor["direction"]): ListCursor => ({
  direction,
  createdAt: "2026-11-26T10:00:00.000009Z",
  id: "cryptopay_z",
})

describe("the admin list's where clause", () => {
  it("leaves soft-deleted rows out, with no filter too", () => {
    expect(listWhere({})).toEqual({ sql: `p."deleted_at" is null`, bindings: [] })
  })

  it.each(LIST_FLAGS.map((flag) => [flag]))(
    "writes the flag %s as its column, so the planner takes the flag's partial index",
    (flag) => {
      expect(listWhere({ flag })).toEqual({ sql: `p."deleted_at" is null and p."${flag}"`, bindings: [] })
    }
  )

  it("refuses a flag that is not a column of the ledger (never written into the SQL)", () => {
    expect(() => listWhere({ flag: `paid_late" or true --` as ListFlag })).toThrow(/Not a flag/)
  })

  it("combines every filter, each value bound", () => {
    const where = listWhere({
      status: "COMPLETED",
      flag: "paid_late",
      coin: "BTC",
      createdFrom: "2026-11-01T00:00:00+01:00",
      createdTo: "2026-12-01T00:00:00+01:00",
      orders: [{ orderIds: ["order_1"], collectionIds: ["pc_1", "pc_2"], displayId: 1042 }],
    })
    expect(where.sql).toBe(
      `p."deleted_at" is null and p."status" = ? and p."paid_late" and p."coin" = ?` +
        ` and p."created_at" >= ?::timestamptz and p."created_at" < ?::timestamptz` +
        ` and (p."order_id" = any(?) or p."payment_collection_id" = any(?) or p."order_display_id" = ?)`
    )
    expect(where.bindings).toEqual([
      "COMPLETED",
      "BTC",
      "2026-11-01T00:00:00+01:00",
      "2026-12-01T00:00:00+01:00",
      ["order_1"],
      ["pc_1", "pc_2"],
      1042,
    ])
  })

  it("lists nothing for an order that matches nothing", () => {
    expect(listWhere({ orders: [{ orderIds: [], collectionIds: [] }] }).sql).toBe(`p."deleted_at" is null and false`)
  })

  it("takes an order by its display id alone when no order has that number here", () => {
    expect(listWhere({ orders: [{ orderIds: [], collectionIds: [], displayId: 7 }] })).toEqual({
      sql: `p."deleted_at" is null and (p."order_display_id" = ?)`,
      bindings: [7],
    })
  })

  it("requires both orders when order and order_id are given", () => {
    const where = listWhere({
      orders: [
        { orderIds: ["order_1"], collectionIds: [] },
        { orderIds: ["order_2"], collectionIds: [] },
      ],
    })
    expect(where.sql).toBe(`p."deleted_at" is null and (p."order_id" = any(?)) and (p."order_id" = any(?))`)
  })
})

describe("the admin list's page statement", () => {
  it("reads the first page newest first, one row more than the page", () => {
    const { sql, bindings } = pageQuery({ status: "PENDING" }, 20)
    expect(oneLine(sql)).toMatch(
      /where p."deleted_at" is null and p."status" = \? order by p."created_at" desc, p."id" desc limit \?$/
    )
    expect(bindings).toEqual(["PENDING", 21])
  })

  it("pages on from a next cursor by the row value (created_at, id) <, the cursor's text cast to timestamptz", () => {
    const { sql, bindings } = pageQuery({}, 2, from("next"))
    expect(oneLine(sql)).toContain(
      `and (p."created_at", p."id") < (?::timestamptz, ?) order by p."created_at" desc, p."id" desc limit ?`
    )
    expect(bindings).toEqual(["2026-11-26T10:00:00.000009Z", "cryptopay_z", 3])
  })

  it("pages back from a prev cursor oldest first (the page is turned around after)", () => {
    const { sql } = pageQuery({}, 2, from("prev"))
    expect(oneLine(sql)).toContain(
      `and (p."created_at", p."id") > (?::timestamptz, ?) order by p."created_at" asc, p."id" asc limit ?`
    )
  })

  it("selects each row's created_at as the database writes it, for its cursor", () => {
    expect(oneLine(pageQuery({}, 2).sql)).toContain(
      `select p.*, to_char(p."created_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "cursor_at"`
    )
  })
})

describe("the cursors either side of a page", () => {
  const decoded = (cursors: { nextCursor: string | null; prevCursor: string | null }) => ({
    next: cursors.nextCursor && decodeCursor(cursors.nextCursor),
    prev: cursors.prevCursor && decodeCursor(cursors.prevCursor),
  })

  it("has no previous page on the first page, and a next one only when a row was left over", () => {
    expect(decoded(cursorsOf([A, B], true))).toEqual({
      next: { direction: "next", createdAt: B.cursor_at, id: B.id },
      prev: null,
    })
    expect(cursorsOf([A, B], false)).toEqual({ nextCursor: null, prevCursor: null })
  })

  it("going on, goes back from its first row", () => {
    expect(decoded(cursorsOf([A, B], false, from("next")))).toEqual({
      next: null,
      prev: { direction: "prev", createdAt: A.cursor_at, id: A.id },
    })
  })

  it("going back, goes on from its last row, and further back only when a row was left over", () => {
    expect(decoded(cursorsOf([A, B], true, from("prev")))).toEqual({
      next: { direction: "next", createdAt: B.cursor_at, id: B.id },
      prev: { direction: "prev", createdAt: A.cursor_at, id: A.id },
    })
    expect(cursorsOf([A, B], false, from("prev")).prevCursor).toBeNull()
  })

  it("an empty page (its rows deleted meanwhile) goes back the way it came, from where it was asked", () => {
    expect(cursorsOf([], false, from("next"))).toEqual({
      nextCursor: null,
      prevCursor: encodeCursor({ ...from("next"), direction: "prev" }),
    })
    expect(cursorsOf([], false, from("prev"))).toEqual({
      nextCursor: encodeCursor(from("next")),
      prevCursor: null,
    })
  })
})
