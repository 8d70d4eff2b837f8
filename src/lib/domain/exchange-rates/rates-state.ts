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
}

/** A source's url as logs and the admin show it: no credentials, no query (a token could ride there). */
export function shownUrl(url: string): string {
  try {
    const { origin, pathname } = new URL(url)
    return `${origin}${pathname}`
  } catch {
    return "the configured url"
  }
}
