import {
  listSearchOf,
  localDayStart,
  paymentFiltersOf,
  withListSearch,
  withoutListSearch,
} from "../payment-list-search"

const params = (text: string) => new URLSearchParams(text)

describe("the payments list's state in the URL", () => {
  it("reads the filters and the page, leaving out what the list does not know", () => {
    expect(
      listSearchOf(
        params("status=EXPIRED&flag=paid_late&coin=LTC&from=2026-11-01&to=2026-11-30&order=%231042&cursor=abc")
      )
    ).toEqual({
      status: "EXPIRED",
      flag: "paid_late",
      coin: "LTC",
      from: "2026-11-01",
      to: "2026-11-30",
      order: "#1042",
      cursor: "abc",
    })
    expect(listSearchOf(params("status=PAID&flag=rich&coin=DOGE&from=2026-02-30&to=soon&order=&tab=2"))).toEqual({
      status: undefined,
      flag: undefined,
      coin: undefined,
      from: undefined,
      to: undefined,
      order: undefined,
      cursor: undefined,
    })
  })

  it("goes back to the first page when a filter changes, and keeps the page's other keys", () => {
    const next = withListSearch(params("tab=2&status=PENDING&cursor=abc"), { coin: "BTC" })
    expect(next.toString()).toBe("tab=2&status=PENDING&coin=BTC")
  })

  it("turns a page with its cursor, filters kept", () => {
    expect(withListSearch(params("status=PENDING&cursor=abc"), { cursor: "def" }).toString()).toBe(
      "status=PENDING&cursor=def"
    )
  })

  it("removes a filter set back to any", () => {
    expect(withListSearch(params("status=PENDING&flag=paid_late"), { flag: undefined }).toString()).toBe(
      "status=PENDING"
    )
  })

  it("clears every filter and the page, and nothing else", () => {
    expect(withoutListSearch(params("tab=2&status=PENDING&from=2026-11-01&cursor=abc")).toString()).toBe("tab=2")
  })
})

describe("the list's days as instants", () => {
  it("starts a day at the browser's own midnight, with the browser's offset", () => {
    const start = localDayStart("2026-11-01")!
    expect(start).toMatch(/^2026-11-01T00:00:00[+-]\d{2}:\d{2}$/)
    expect(Date.parse(start)).toBe(new Date(2026, 10, 1).getTime())
  })

  it("ends the range at the start of the day after `to`, so `to` is included", () => {
    expect(Date.parse(localDayStart("2026-11-30", 1)!)).toBe(new Date(2026, 11, 1).getTime())
    expect(localDayStart("2026-12-31", 1)).toMatch(/^2027-01-01T/)
  })

  it("refuses a day that is not one", () => {
    expect(localDayStart("2026-02-30")).toBeUndefined()
    expect(localDayStart("01/11/2026")).toBeUndefined()
  })

  it("asks the API for the page: [from, the day after to), the order by id or number", () => {
    const filters = paymentFiltersOf(
      { status: "COMPLETED", coin: "BTC", from: "2026-11-01", to: "2026-11-30", order: "#1042", cursor: "abc" },
      20
    )
    expect(filters).toEqual({
      limit: 20,
      cursor: "abc",
      status: "COMPLETED",
      flag: undefined,
      coin: "BTC",
      created_from: localDayStart("2026-11-01"),
      created_to: localDayStart("2026-12-01"),
      order: "1042",
    })
    expect(paymentFiltersOf({ order: " order_01ABC " }, 20).order).toBe("order_01ABC")
    // typed, but no order: not sent (the field says so)
    expect(paymentFiltersOf({ order: "cart_1" }, 20).order).toBeUndefined()
  })
})
