/**
 * The service's answers are not trusted to be links: a `javascript:` or `data:` URL in an `href` runs in
 * the admin's or the customer's page when clicked.
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

export const webUrlOrNull = (url: string | null | undefined): string | null => (isWebUrl(url) ? url : null)
