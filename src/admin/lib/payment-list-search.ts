/**
 * The payments list's filters and cursor in the page's URL, so a reload or a shared link shows the same
 * page. The dates are the admin's own days, sent as instants with the browser's offset.
 */
import { COINS } from "../../lib/crypto-api/constants"
import { parseOrderRef } from "../../lib/domain/order-ref"
import { LEDGER_FLAGS } from "../../modules/crypto-payment/types"
import type { Coin, LedgerFlag, PaymentFilters, PaymentStatus } from "./payment-types"

/** The list's keys in the URL; other keys of the page are left alone. */
export const LIST_SEARCH_KEYS = ["status", "flag", "coin", "from", "to", "order", "cursor"] as const
type ListSearchKey = (typeof LIST_SEARCH_KEYS)[number]

/** The list's state as the URL holds it; a value the list does not know is left out. */
export type ListSearch = {
  status?: PaymentStatus
  flag?: LedgerFlag
  coin?: Coin
  /** Days, YYYY-MM-DD, in the admin's time zone: payments created from the start of `from` to the end of `to`. */
  from?: string
  to?: string
  /** An order id or display id, as typed (it filters only when it names an order: see parseOrderRef). */
  order?: string
  cursor?: string
}

const STATUSES: readonly PaymentStatus[] = ["PENDING", "COMPLETED", "EXPIRED", "FAILED"]
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

const oneOf = <T extends string>(known: readonly T[], value: string | undefined): T | undefined =>
  known.find((k) => k === value)

export function listSearchOf(params: URLSearchParams): ListSearch {
  const get = (key: ListSearchKey) => params.get(key)?.trim() || undefined
  const day = (key: "from" | "to") => {
    const value = get(key)
    return value && localDayStart(value) ? value : undefined
  }
  return {
    status: oneOf(STATUSES, get("status")),
    flag: oneOf(LEDGER_FLAGS, get("flag")),
    coin: oneOf(COINS, get("coin")),
    from: day("from"),
    to: day("to"),
    order: get("order"),
    cursor: get("cursor"),
  }
}

/**
 * The search params with `change` made (undefined or empty removes a key). A change of filter goes
 * back to the first page: a cursor is a position in one filtered list.
 */
export function withListSearch(params: URLSearchParams, change: Partial<ListSearch>): URLSearchParams {
  const next = new URLSearchParams(params)
  for (const [key, value] of Object.entries(change)) {
    if (value) next.set(key, value)
    else next.delete(key)
  }
  if (!("cursor" in change)) next.delete("cursor")
  return next
}

export function withoutListSearch(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params)
  for (const key of LIST_SEARCH_KEYS) next.delete(key)
  return next
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0")

/**
 * The start of a day in the browser's time zone, `plusDays` later, with its offset
 * ("2026-11-01T00:00:00+01:00"). A day whose midnight a clock change skips starts when the day does.
 */
export function localDayStart(day: string, plusDays = 0): string | undefined {
  const m = DAY.exec(day)
  if (!m) return undefined
  const [year, month, date] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])]
  const exact = new Date(year, month, date)
  if (exact.getFullYear() !== year || exact.getMonth() !== month || exact.getDate() !== date) return undefined
  const start = new Date(year, month, date + plusDays)
  const offset = -start.getTimezoneOffset()
  const zone = `${offset >= 0 ? "+" : "-"}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`
  return (
    `${pad(start.getFullYear(), 4)}-${pad(start.getMonth() + 1)}-${pad(start.getDate())}` +
    `T${pad(start.getHours())}:${pad(start.getMinutes())}:${pad(start.getSeconds())}${zone}`
  )
}

/**
 * The admin API's query for the list's state, `limit` payments a page: the days as [the start of
 * `from`, the start of the day after `to`), the order only when it names one.
 */
export function paymentFiltersOf(search: ListSearch, limit: number): PaymentFilters {
  const ref = search.order ? parseOrderRef(search.order) : undefined
  return {
    limit,
    cursor: search.cursor,
    status: search.status,
    flag: search.flag,
    coin: search.coin,
    created_from: search.from ? localDayStart(search.from) : undefined,
    created_to: search.to ? localDayStart(search.to, 1) : undefined,
    order: ref ? ("orderId" in ref ? ref.orderId : String(ref.displayId)) : undefined,
  }
}
