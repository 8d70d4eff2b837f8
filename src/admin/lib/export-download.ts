import { attachmentName, type ExportKind } from "./export-range"
import { sdk } from "./sdk"

/**
 * The dashboard's own JWT storage key, when the store builds its admin with ADMIN_JWT_TOKEN_STORAGE_KEY
 * (the admin build defines this name; elsewhere it is not defined at all, hence the typeof below).
 */
declare const __JWT_TOKEN_STORAGE_KEY__: string | undefined

/** Where the JS SDK keeps a JWT unless told otherwise. */
const DEFAULT_TOKEN_KEY = "medusa_auth_token"

/**
 * The dashboard's token when it signs in with tokens (ADMIN_AUTH_TYPE=jwt): the plugin's client sends the
 * session cookie only, so the export adds the token itself. At the server a session wins over a token.
 */
function dashboardToken(): string | null {
  const key =
    typeof __JWT_TOKEN_STORAGE_KEY__ === "string" && __JWT_TOKEN_STORAGE_KEY__
      ? __JWT_TOKEN_STORAGE_KEY__
      : DEFAULT_TOKEN_KEY
  try {
    return window.localStorage.getItem(key)
  } catch {
    return null
  }
}

/**
 * Saves the export as a file, read whole as a Blob (a month is a few megabytes). Asking for text/csv
 * makes the SDK return the raw response instead of parsing JSON; an error still comes as a FetchError.
 */
export async function downloadExport(query: { kind: ExportKind; from: string; to: string }): Promise<string> {
  // the server's name, or the same built here (a backend on another origin may not expose the header)
  const fallback = `crypto-${query.kind}-${query.from.slice(0, 10)}-${query.to.slice(0, 10)}.csv`
  const token = dashboardToken()
  const response = await sdk.client.fetch<Response>("/admin/crypto/payments/export", {
    query,
    headers: { accept: "text/csv", ...(token ? { authorization: `Bearer ${token}` } : {}) },
  })
  const blob = await response.blob()
  const name = attachmentName(response.headers.get("content-disposition"), fallback)
  const url = URL.createObjectURL(blob)
  try {
    const link = document.createElement("a")
    link.href = url
    link.download = name
    link.rel = "noopener"
    document.body.appendChild(link)
    link.click()
    link.remove()
  } finally {
    // after the click has handed the file to the browser's download
    setTimeout(() => URL.revokeObjectURL(url), 10_000)
  }
  return name
}
