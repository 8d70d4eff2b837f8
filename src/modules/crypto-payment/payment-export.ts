import type { Knex } from "knex"
import {
  owedTotals,
  type CheckoutTerms,
  type OwedForTotals,
  type PaymentExportRow,
  type RefundExportRow,
} from "../../lib/domain/accounting-export"
import { cursorTimeSql } from "./list-cursor"
import { LIST_FLAGS } from "./payment-list"

const PAYMENTS = "crypto_payment"
const OWED = "crypto_owed_amount"

export const EXPORT_BATCH_SIZE = 1000

/** Overrides the batch size, read at each export; not an option a shop needs. */
export const EXPORT_BATCH_SIZE_ENV = "CRYPTO_EXPORT_BATCH_SIZE"

/** The batch size in force: EXPORT_BATCH_SIZE unless the environment sets 1 to 10,000. */
export function exportBatchSize(env: Record<string, string | undefined> = process.env): number {
  const size = Number(env[EXPORT_BATCH_SIZE_ENV])
  return Number.isInteger(size) && size >= 1 && size <= 10_000 ? size : EXPORT_BATCH_SIZE
}

/** What an export covers: `[from, to)` (ISO 8601 texts with an offset), one provider or all. */
export type ExportPeriod = { from: string; to: string; providerId?: string }

/**
 * Where a batch ended: its last row's created_at as the database's text in UTC (microseconds kept: a
 * JS Date has milliseconds, and a cursor rounded to them would skip or repeat rows) and its id.
 */
export type ExportCursor = { createdAt: string; id: string }

/** A batch, and where the next starts (undefined: this was the last). */
export type ExportBatch<T> = { rows: T[]; next: ExportCursor | undefined }

/** A timestamptz column as ISO 8601 UTC text with milliseconds ("2026-11-26T10:00:00.123Z"), as the admin API writes dates. */
const isoUtc = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** The row's true flags, space separated (the ledger's flags, and a capture that found no order). */
const FLAGS_SQL = `concat_ws(' ', ${LIST_FLAGS.map((flag) => `case when p."${flag}" then '${flag}' end`).join(", ")})`

type Cursored = { id: string; cursor: string }

/** A checkout's first payment, and its terms (CheckoutTerms, and its exchange rate). */
type FirstPaymentTerms = CheckoutTerms & { first: string; exchange_rate: string | null }

/**
 * Keyset batches, each one short query, so no connection or cursor is held while the response drains to
 * a slow client and no ORM identity map grows with the file. Dates are formatted by the database.
 */
export class PaymentExport {
  constructor(private readonly db: () => Knex) {}

  /**
   * Ledger rows created in the period, oldest first, after `after`, at most `limit`; each with its owed
   * records summed (one query for the whole batch).
   */
  async payments(
    period: ExportPeriod,
    after: ExportCursor | undefined,
    limit: number
  ): Promise<ExportBatch<PaymentExportRow>> {
    const bindings: Knex.Value[] = [period.from, period.to]
    let where = `p."deleted_at" is null and p."created_at" >= ?::timestamptz and p."created_at" < ?::timestamptz`
    if (period.providerId) {
      where += ` and p."provider_id" = ?`
      bindings.push(period.providerId)
    }
    if (after) {
      where += ` and (p."created_at", p."id") > (?::timestamptz, ?)`
      bindings.push(after.createdAt, after.id)
    }
    bindings.push(limit)
    const { rows } = (await this.db().raw(
      `select p."id", ${cursorTimeSql(`p."created_at"`)} as "cursor", ${isoUtc(`p."created_at"`)} as "created_at",
         ${isoUtc(`p."settled_at"`)} as "settled_at", p."payment_id", p."kind", p."order_id", p."order_display_id",
         p."status", p."outcome", p."coin", coalesce(p."required_amount", p."crypto_amount") as "required",
         p."received_amount" as "received", p."confirmations", p."base_currency", p."base_amount", p."usd_amount",
         p."exchange_rate", p."rate_source", p."rate_published_on", ${FLAGS_SQL} as "flags", p."remainder_of"
       from "${PAYMENTS}" p
       where ${where}
       order by p."created_at", p."id"
       limit ?`,
      bindings
    )) as { rows: Array<PaymentExportRow & Cursored> }
    const [owed, firsts] = await Promise.all([
      this.owedOf(rows.map((row) => row.payment_id)),
      this.firstPaymentsOf(rows.filter((row) => row.remainder_of).map((row) => row.payment_id)),
    ])
    for (const row of rows) {
      row.owed = owedTotals(row.coin, row.base_currency, owed.get(row.payment_id) ?? [])
      const first = row.remainder_of ? firsts.get(row.payment_id) : undefined
      row.remainder_of = row.remainder_of ? (first?.first ?? row.remainder_of) : null
      // a remainder is priced at its checkout's rate (its store amount and coin price)
      if (first) row.checkout = { base_amount: first.base_amount, required: first.required }
    }
    return { rows, next: nextCursor(rows, limit) }
  }

  /**
   * The first payment of each remainder's checkout (the end of its remainder_of chain) and its terms: its
   * store amount, the coins it required and its exchange rate, which price every payment of the checkout.
   */
  private async firstPaymentsOf(paymentIds: string[]): Promise<Map<string, FirstPaymentTerms>> {
    if (!paymentIds.length) return new Map()
    const { rows } = (await this.db().raw(
      `with recursive "up" as (
         select p."payment_id" as "start", p."remainder_of" as "id", 0 as "depth" from "${PAYMENTS}" p
           where p."payment_id" = any(?) and p."remainder_of" is not null
         union all
         select u."start", p."remainder_of", u."depth" + 1 from "up" u join "${PAYMENTS}" p on p."payment_id" = u."id"
           where p."remainder_of" is not null and u."depth" < 32
       ), "first" as (
         select distinct on ("start") "start", "id" as "first" from "up" order by "start", "depth" desc
       )
       select f."start", f."first", p."base_amount", coalesce(p."required_amount", p."crypto_amount") as "required",
         p."exchange_rate"
       from "first" f left join "${PAYMENTS}" p on p."payment_id" = f."first" and p."deleted_at" is null`,
      [paymentIds]
    )) as { rows: Array<FirstPaymentTerms & { start: string }> }
    return new Map(rows.map(({ start, ...terms }) => [start, terms]))
  }

  /**
   * Owed records created or sent in the period, oldest created first, after `after`, at most `limit`;
   * each says whether it was sent by `asOf`.
   */
  async owed(
    period: ExportPeriod,
    asOf: string,
    after: ExportCursor | undefined,
    limit: number
  ): Promise<ExportBatch<RefundExportRow>> {
    const { from, to } = period
    const bindings: Knex.Value[] = [from, to, from, to, asOf, from, to, from, to]
    let where = `o."deleted_at" is null and ((o."created_at" >= ?::timestamptz and o."created_at" < ?::timestamptz)
      or (o."sent_at" >= ?::timestamptz and o."sent_at" < ?::timestamptz))`
    if (period.providerId) {
      where += ` and p."provider_id" = ?`
      bindings.push(period.providerId)
    }
    if (after) {
      where += ` and (o."created_at", o."id") > (?::timestamptz, ?)`
      bindings.push(after.createdAt, after.id)
    }
    bindings.push(limit)
    const { rows } = (await this.db().raw(
      `select o."id", ${cursorTimeSql(`o."created_at"`)} as "cursor", o."payment_id", p."order_id", p."order_display_id", o."kind",
         o."coin", o."coin_amount", o."base_currency", o."base_amount", ${isoUtc(`o."created_at"`)} as "created_at",
         ${isoUtc(`o."sent_at"`)} as "sent_at", o."reference", o."refund_address", o."refund_coin", o."basis",
         o."fee_percent",
         (o."created_at" >= ?::timestamptz and o."created_at" < ?::timestamptz) as "created_in",
         coalesce(o."sent_at" >= ?::timestamptz and o."sent_at" < ?::timestamptz, false) as "sent_in",
         coalesce(o."sent_at" < ?::timestamptz, false) as "sent_by_as_of",
         p."base_amount" as "payment_base_amount",
         coalesce(p."required_amount", p."crypto_amount") as "payment_required",
         p."exchange_rate" as "payment_exchange_rate", p."remainder_of"
       from "${OWED}" o
       left join "${PAYMENTS}" p on p."payment_id" = o."payment_id" and p."deleted_at" is null
       where ${where}
       order by o."created_at", o."id"
       limit ?`,
      bindings
    )) as { rows: Array<RefundExportRow & Cursored & { remainder_of?: string | null }> }
    // a remainder's records are priced at its checkout's rate: the first payment's terms stand for it
    const firsts = await this.firstPaymentsOf([
      ...new Set(rows.filter((row) => row.remainder_of).map((row) => row.payment_id)),
    ])
    for (const row of rows) {
      const first = firsts.get(row.payment_id)
      if (first) {
        row.payment_base_amount = first.base_amount
        row.payment_required = first.required
        row.payment_exchange_rate = first.exchange_rate
      }
      delete row.remainder_of
    }
    return { rows, next: nextCursor(rows, limit) }
  }

  /** The owed records of a batch's payments, by payment (one query, through the payment_id index). */
  private async owedOf(paymentIds: string[]): Promise<Map<string, OwedForTotals[]>> {
    const byPayment = new Map<string, OwedForTotals[]>()
    if (!paymentIds.length) return byPayment
    const { rows } = (await this.db().raw(
      `select "payment_id", "kind", "coin_amount", "base_amount", ${isoUtc(`"sent_at"`)} as "sent_at", "reference"
       from "${OWED}" where "payment_id" = any(?) and "deleted_at" is null
       order by "created_at", "id"`,
      [paymentIds]
    )) as { rows: Array<OwedForTotals & { payment_id: string }> }
    for (const record of rows) {
      const records = byPayment.get(record.payment_id)
      if (records) records.push(record)
      else byPayment.set(record.payment_id, [record])
    }
    return byPayment
  }
}

/** The cursor after a full batch; none after a short one (nothing is left). */
function nextCursor(rows: Cursored[], limit: number): ExportCursor | undefined {
  const last = rows[rows.length - 1]
  return rows.length === limit && last ? { createdAt: last.cursor, id: last.id } : undefined
}
