import type { Knex } from "knex"
import type { InferTypeOf } from "@medusajs/framework/types"
import type CryptoPayment from "./models/crypto-payment"
import { LEDGER_FLAGS } from "./types"
import { cursorTimeSql, encodeCursor, ListCursor } from "./list-cursor"
import { isMissingTable } from "./missing-table"

type Row = InferTypeOf<typeof CryptoPayment>

/**
 * The flags the admin's list filters by: the ledger's, and a capture that made no order. Each has a
 * partial index on (created_at desc, id desc) holding only its rows (Migration20261126180000).
 */
export const LIST_FLAGS = [...LEDGER_FLAGS, "captured_no_order"] as const
export type ListFlag = (typeof LIST_FLAGS)[number]

/**
 * The payments of one order: recorded with one of its ids, made for one of its payment collections
 * (an order awaiting payment is not on its payment's row yet), or recorded with its display id.
 */
export type OrderScope = { orderIds: string[]; collectionIds: string[]; displayId?: number }

/** What the list is filtered by; every filter given applies (and). `createdFrom`/`createdTo`: [from, to), isoInstant's form. */
export type ListFilters = {
  status?: string
  flag?: ListFlag
  coin?: string
  createdFrom?: string
  createdTo?: string
  orders?: OrderScope[]
}

/** One page, newest first, and the cursors of the pages either side (null: nothing that way). */
export type ListPage = { rows: Row[]; nextCursor: string | null; prevCursor: string | null }

const TABLE = "crypto_payment"

/**
 * The list's where clause for `p` (the ledger), soft-deleted rows left out. A flag is written as its
 * column, never as a parameter: only then does the planner match it to the flag's partial index.
 */
export function listWhere(filters: ListFilters): { sql: string; bindings: Knex.Value[] } {
  const parts = [`p."deleted_at" is null`]
  const bindings: Knex.Value[] = []
  const add = (sql: string, ...values: Knex.Value[]) => {
    parts.push(sql)
    bindings.push(...values)
  }
  if (filters.status) add(`p."status" = ?`, filters.status)
  if (filters.flag) {
    if (!(LIST_FLAGS as readonly string[]).includes(filters.flag))
      throw new Error(`Not a flag of the ledger: ${filters.flag}`)
    add(`p."${filters.flag}"`)
  }
  if (filters.coin) add(`p."coin" = ?`, filters.coin)
  if (filters.createdFrom) add(`p."created_at" >= ?::timestamptz`, filters.createdFrom)
  if (filters.createdTo) add(`p."created_at" < ?::timestamptz`, filters.createdTo)
  for (const scope of filters.orders ?? []) {
    const either: Array<{ sql: string; value: Knex.Value }> = []
    if (scope.orderIds.length) either.push({ sql: `p."order_id" = any(?)`, value: scope.orderIds })
    if (scope.collectionIds.length)
      either.push({ sql: `p."payment_collection_id" = any(?)`, value: scope.collectionIds })
    if (scope.displayId !== undefined) either.push({ sql: `p."order_display_id" = ?`, value: scope.displayId })
    // an order that matches nothing (a display id no order has, say) lists nothing
    add(either.length ? `(${either.map((e) => e.sql).join(" or ")})` : "false", ...either.map((e) => e.value))
  }
  return { sql: parts.join(" and "), bindings }
}

/**
 * The cursor is compared as a row value, `(created_at, id) < (…)`: rows of one transaction share
 * created_at, so the id orders them and none is skipped or shown twice, however deep the page.
 */
export function pageQuery(filters: ListFilters, limit: number, cursor?: ListCursor) {
  const where = listWhere(filters)
  const back = cursor?.direction === "prev"
  const way = back ? "asc" : "desc"
  const keyset = cursor ? ` and (p."created_at", p."id") ${back ? ">" : "<"} (?::timestamptz, ?)` : ""
  return {
    sql: `select p.*, ${cursorTimeSql(`p."created_at"`)} as "cursor_at" from "${TABLE}" p
      where ${where.sql}${keyset} order by p."created_at" ${way}, p."id" ${way} limit ?`,
    bindings: [...where.bindings, ...(cursor ? [cursor.createdAt, cursor.id] : []), limit + 1],
  }
}

/**
 * `more`: a row beyond the page was read. A page reached from a cursor always has one back the way it
 * came, even when it came out empty (rows deleted meanwhile).
 */
export function cursorsOf(
  page: Array<{ id: string; cursor_at: string }>,
  more: boolean,
  cursor?: ListCursor
): { nextCursor: string | null; prevCursor: string | null } {
  const at = (direction: ListCursor["direction"], row?: { id: string; cursor_at: string }) =>
    row
      ? encodeCursor({ direction, createdAt: row.cursor_at, id: row.id })
      : cursor
        ? encodeCursor({ direction, createdAt: cursor.createdAt, id: cursor.id })
        : null
  const [first, last] = [page[0], page[page.length - 1]]
  if (cursor?.direction === "prev") {
    return { prevCursor: more ? at("prev", first) : null, nextCursor: at("next", last) }
  }
  return { nextCursor: more ? at("next", last) : null, prevCursor: cursor ? at("prev", first) : null }
}

/** Keyset pages without a count: a filtered count(*) of a million rows costs more than the page. */
export class PaymentList {
  /** This database has no "order" table (the order module lives elsewhere): display ids stay unknown. */
  private noOrderTable = false
  /** The id after which the next backfill reads (empty: from the start). */
  private backfilledTo = ""

  constructor(private readonly db: () => Knex) {}

  /** A page of `limit` payments from the cursor (none: the newest), with the cursors either side. */
  async page(filters: ListFilters, limit: number, cursor?: ListCursor): Promise<ListPage> {
    const { sql, bindings } = pageQuery(filters, limit, cursor)
    const { rows } = (await this.db().raw(sql, bindings)) as { rows: Array<Row & { cursor_at: string }> }
    const more = rows.length > limit
    const page = rows.slice(0, limit)
    if (cursor?.direction === "prev") page.reverse()
    return { rows: page.map(({ cursor_at: _, ...row }) => row as Row), ...cursorsOf(page, more, cursor) }
  }

  /** Deprecated (one release): a page by offset, newest first, and how many rows match. */
  async offsetPage(filters: ListFilters, limit: number, offset: number): Promise<{ rows: Row[]; count: number }> {
    const where = listWhere(filters)
    const [page, total] = await Promise.all([
      this.db().raw(
        `select p.* from "${TABLE}" p where ${where.sql} order by p."created_at" desc, p."id" desc limit ? offset ?`,
        [...where.bindings, limit, offset]
      ),
      this.db().raw(`select count(*)::int as "count" from "${TABLE}" p where ${where.sql}`, where.bindings),
    ])
    return { rows: (page as { rows: Row[] }).rows, count: (total as { rows: Array<{ count: number }> }).rows[0].count }
  }

  /**
   * The orders the dashboard shows with this number (Medusa's order table, read where the plugin
   * already reads its link tables); none when this database has no order table.
   */
  async ordersOfDisplayId(displayId: number): Promise<string[]> {
    if (this.noOrderTable) return []
    try {
      const { rows } = await this.db().raw(
        `select "id" from "order" where "display_id" = ? and "deleted_at" is null order by "created_at"`,
        [displayId]
      )
      return (rows as Array<{ id: string }>).map((order) => order.id)
    } catch (error) {
      if (!isMissingTable(error)) throw error
      this.noOrderTable = true
      return []
    }
  }

  /**
   * Reads at most `limit` rows by id from where the last call stopped: rows whose order this database does
   * not know stay in the partial index, so the cursor keeps a call bounded.
   */
  async backfillOrderDisplayIds(limit: number): Promise<number> {
    if (this.noOrderTable) return 0
    try {
      const { rows } = await this.db().raw(
        `with "todo" as (
           select c."id", c."order_id" from "${TABLE}" c
           where c."order_id" is not null and c."order_display_id" is null and c."deleted_at" is null and c."id" > ?
           order by c."id" limit ? for update skip locked
         ), "copied" as (
           update "${TABLE}" p set "order_display_id" = o."display_id"
           from "todo" t join "order" o on o."id" = t."order_id"
           where p."id" = t."id" and o."display_id" is not null
           returning p."id"
         )
         select (select count(*)::int from "todo") as "read", (select max("id") from "todo") as "last",
           (select count(*)::int from "copied") as "copied"`,
        [this.backfilledTo, limit]
      )
      const { read, last, copied } = rows[0] as { read: number; last: string | null; copied: number }
      this.backfilledTo = read < limit || !last ? "" : last
      return copied
    } catch (error) {
      if (!isMissingTable(error)) throw error
      this.noOrderTable = true
      return 0
    }
  }
}
