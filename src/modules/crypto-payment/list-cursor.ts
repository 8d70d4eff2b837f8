import { isoInstant } from "../../lib/domain/iso-instant"

/** Which way a cursor pages from its row: to older payments (`next`) or to newer ones (`prev`). */
export type ListDirection = "next" | "prev"

/** A position in the admin's list (newest first): a row's created_at and id, and the way to page from it. */
export type ListCursor = { direction: ListDirection; createdAt: string; id: string }

/**
 * The database's own text, to the microsecond: a JavaScript Date keeps milliseconds, and a cursor built
 * from one skips the rows created in the same millisecond after it.
 */
export function cursorTimeSql(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
}

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
const ROW_ID = /^[A-Za-z0-9_]{1,100}$/
const BASE64URL = /^[A-Za-z0-9_-]{1,400}$/

/** The cursor as the API hands it out: base64url of `["n"|"p", created_at, id]`, opaque to clients. */
export function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify([cursor.direction === "next" ? "n" : "p", cursor.createdAt, cursor.id])).toString(
    "base64url"
  )
}

/** A cursor the list handed out, or undefined for anything else (a 400 naming `cursor`). */
export function decodeCursor(text: string): ListCursor | undefined {
  if (!BASE64URL.test(text)) return undefined
  const bytes = Buffer.from(text, "base64url")
  // Node skips characters it cannot decode: only the exact encoding of what was decoded is a cursor
  if (bytes.toString("base64url") !== text) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(bytes.toString("utf8"))
  } catch {
    return undefined
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) return undefined
  const [way, createdAt, id] = parsed as unknown[]
  if (way !== "n" && way !== "p") return undefined
  if (typeof createdAt !== "string" || !CURSOR_TIME.test(createdAt) || !isoInstant(createdAt)) return undefined
  if (typeof id !== "string" || !ROW_ID.test(id)) return undefined
  return { direction: way === "n" ? "next" : "prev", createdAt, id }
}
