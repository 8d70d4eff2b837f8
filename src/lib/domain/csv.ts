/**
 * CSV as RFC 4180 writes it, kept cheap: an export formats every cell of a hundred thousand rows here.
 *
 * Formula injection (OWASP): a spreadsheet runs a cell starting with `=`, `+`, `-` or `@` (also after
 * leading whitespace or NUL, and in fullwidth forms), so text a customer typed could run on the
 * accountant's machine. Such a cell gets a leading `'`; a plain decimal number stays numeric.
 */

export type CsvValue = string | number | null | undefined

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

export function csvLine(values: readonly CsvValue[]): string {
  let line = ""
  for (let i = 0; i < values.length; i++) {
    if (i > 0) line += ","
    line += csvCell(values[i])
  }
  return line + CRLF
}

export type CsvColumn<T> = { readonly header: string; readonly cell: (record: T) => CsvValue }

export function csvHeader<T>(columns: readonly CsvColumn<T>[]): string {
  return csvLine(columns.map((column) => column.header))
}

/** Built as one string: no array per record. */
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
