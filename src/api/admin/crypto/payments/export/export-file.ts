import { csvHeader, csvRecords, CsvColumn, UTF8_BOM } from "../../../../../lib/domain/csv"
import { PAYMENT_COLUMNS, refundColumns } from "../../../../../lib/domain/accounting-export"
import type {
  ExportBatch,
  ExportCursor,
  ExportPeriod,
  PaymentExport,
} from "../../../../../modules/crypto-payment/payment-export"

/**
 * One chunk per ledger batch, the next read while the last is written (one ahead, never more): the
 * database works while the response drains.
 */
async function* csvFile<T>(
  columns: readonly CsvColumn<T>[],
  read: (after: ExportCursor | undefined) => Promise<ExportBatch<T>>
): AsyncGenerator<string, void> {
  let head = UTF8_BOM + csvHeader(columns)
  let pending: Promise<ExportBatch<T>> | undefined = read(undefined)
  while (pending) {
    const batch: ExportBatch<T> = await pending
    pending = batch.next ? read(batch.next) : undefined
    // a read ahead the stream no longer asks for (the client left) fails unseen; one it asks for throws at its await
    pending?.catch(() => undefined)
    yield head + csvRecords(columns, batch.rows)
    head = ""
  }
}

/** One line per service payment created in the period. */
export function paymentsFile(ledger: PaymentExport, period: ExportPeriod, batchSize: number) {
  return csvFile(PAYMENT_COLUMNS, (after) => ledger.payments(period, after, batchSize))
}

/**
 * One line per owed record created or sent in the period, "as of" the period's end (now, for a period
 * that has not ended: what was sent by the time the file was made).
 */
export function refundsFile(ledger: PaymentExport, period: ExportPeriod, batchSize: number, now = new Date()) {
  const ended = Date.parse(period.to) <= now.getTime()
  // the bound as given (microseconds and all) for the database; its instant in UTC for the file
  const asOf = ended ? period.to : now.toISOString()
  const columns = refundColumns(new Date(Date.parse(asOf)).toISOString())
  return csvFile(columns, (after) => ledger.owed(period, asOf, after, batchSize))
}
