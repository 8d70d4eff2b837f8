/**
 * CSV as RFC 4180 writes it, for files a spreadsheet opens: fields separated by commas, lines ended by
 * CRLF, a field quoted only when it holds a quote, a comma, CR or LF (its quotes doubled). Pure and
 * cheap: an export formats every cell of a hundred thousand rows through here.
 *
 * Formula injection (OWASP, "CSV Injection"): a spreadsheet runs a cell that starts with `=`, `+`, `-`
 * or `@` as a formula, also after a tab, CR, LF, space or NUL it strips first, and in their fullwidth
 * forms (＝＋－＠, which some locales' spreadsheets take as the ASCII ones), so text a customer or an
 * admin typed (a reference, an address) could run on the accountant's machine. Such a cell gets a leading `'`, which
 * the spreadsheet shows as text. A cell that is exactly a decimal number ("-0.5", "12") is not a
 * formula and stays numeric; our amounts are never negative anyway, so no amount is ever altered.
 */

/** A cell's value: text, a number, or nothing (an empty cell). */
export type CsvValue = string | number | null | undefined

/** RFC 4180's line break. */
export const CRLF = "\r\n"

/**
 * The UTF-8 byte order mark, written first: Excel reads a CSV file without it in the machine's legacy
 * code page (an "é" becomes "Ã©"); with it, as UTF-8. Every other reader we know skips it.
 */
export const UTF8_BOM = "\uFEFF"

const NEEDS_QUOTES = /[",\r\n]/
const QUOTES = /"/g
const FORMULA_START = /^[\t\r]|^[\t\r\n \0]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/
const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/

/** One field: empty for null, guarded against formula injection, quoted when it must be. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return ""
  let text = typeof value === "string" ? value : String(value)
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`
  return NEEDS_QUOTES.test(text) ? `"${text.replace(QUOTES, '""')}"` : text
}

/** One record: its fields, comma separated, ended by CRLF. */
export function csvLine(values: readonly CsvValue[]): string {
  let line = ""
  for (let i = 0; i < values.length; i++) {
    if (i > 0) line += ","
    line += csvCell(values[i])
  }
  return line + CRLF
}

/** A column of a CSV file: its header, and how a record of type T gives its cell. */
export type CsvColumn<T> = { readonly header: string; readonly cell: (record: T) => CsvValue }

/** The header line of some columns. */
export function csvHeader<T>(columns: readonly CsvColumn<T>[]): string {
  return csvLine(columns.map((column) => column.header))
}

/** One record as a line of some columns, built as one string (no array per record). */
export function csvRecord<T>(columns: readonly CsvColumn<T>[], record: T): string {
  let line = ""
  for (let i = 0; i < columns.length; i++) {
    if (i > 0) line += ","
    line += csvCell(columns[i].cell(record))
  }
  return line + CRLF
}

/** Records as lines, in one string: a batch is written to the response at once. */
export function csvRecords<T>(columns: readonly CsvColumn<T>[], records: readonly T[]): string {
  let text = ""
  for (const record of records) text += csvRecord(columns, record)
  return text
}
