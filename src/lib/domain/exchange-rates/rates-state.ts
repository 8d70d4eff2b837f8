/** What the health, the policy panel and the job are told of a provider's rates. */
export type RatesState = {
  source: "ecb" | "fixed" | "off"
  url?: string
  maxAgeHours?: number
  markupPercent?: string
  refreshMinutes?: number
  publishedOn?: string | null
  fetchedAt?: string | null
  ageHours?: number | null
  fresh?: boolean
  /** A TARGET working day's publication is missing (the source did not publish, or fetches fail). */
  missesWorkingDay?: boolean
  nextRefreshAt?: string | null
  lastError?: string | null
  held?: { publishedOn: string; fetchedAt: string; moved: Array<{ currency: string; percent: string }> } | null
  /** USD per one unit of each stored (or fixed) currency, 18 significant digits. */
  rates?: Record<string, string>
  /**
   * Publications stored from other sources (another url, not the same source: rate-source.ts), while none
   * of this one is: they are not used, and the health says so.
   */
  otherSources?: Array<{ url: string; publishedOn: string }>
}

/** A query parameter whose name says it may carry a credential (api_key, token, X-Amz-Signature, sig, password…). */
const CREDENTIAL_NAME = /key|token|secret|sig|pass|pwd|auth|credential|session|jwt/i

/**
 * A source's url as logs and the admin show it, query included (it can say which file it is): never the
 * user part, and the value of a parameter named like a credential as ***. A rates file is public; this
 * keeps a key out of sight should a shop's proxy ask for one in the url anyway.
 */
export function shownUrl(url: string): string {
  try {
    const { origin, pathname, search } = new URL(url)
    const query = search
      .slice(1)
      .split("&")
      .filter(Boolean)
      .map((pair) => {
        const eq = pair.indexOf("=")
        if (eq < 0) return pair
        const name = pair.slice(0, eq)
        let decoded = name
        try {
          decoded = decodeURIComponent(name.replace(/\+/g, " "))
        } catch {
          // shown as written
        }
        return CREDENTIAL_NAME.test(decoded) ? `${name}=***` : pair
      })
    return `${origin}${pathname}${query.length ? `?${query.join("&")}` : ""}`
  } catch {
    return "the configured url"
  }
}
