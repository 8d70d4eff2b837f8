/**
 * A URL the shop renders as a link (the service's payment page): only `http:` or `https:`. The service's
 * answers are not trusted to be links at all: a `javascript:` or `data:` URL in an `href` runs in the
 * admin's or the customer's page when clicked.
 */
export function isWebUrl(url: unknown): url is string {
  if (typeof url !== "string") return false
  try {
    const { protocol } = new URL(url)
    return protocol === "http:" || protocol === "https:"
  } catch {
    return false
  }
}

/** The URL when it is a web page's, else null. */
export const webUrlOrNull = (url: string | null | undefined): string | null => (isWebUrl(url) ? url : null)
