/**
 * Which rate source a url is, so a stored publication follows a change of `exchangeRates.url` to
 * another spelling of the same source, and never crosses to another source.
 *
 * Not told by the file's content: a copy of the ECB's file (the service sandbox's, a shop's test file)
 * carries the ECB's name as sender and made-up rates, dated today. Taken as the ECB's, its rates would
 * price real checkouts until the ECB's file replaced them, and one dated ahead would shut the ECB's out.
 */

/** The ECB's own site, under its current and its former domain: every rates file there is one publication. */
const ECB_HOSTS = new Set(["www.ecb.europa.eu", "ecb.europa.eu", "www.ecb.int", "ecb.int"])

/**
 * The source a url names: the ECB for any file on the ECB's site (the daily file, the 90-day history:
 * their newest day is the same publication); otherwise the host, port, path and query, over http or
 * https alike, without credentials or fragment.
 */
export function rateSourceOf(url: string): string {
  try {
    const { hostname, host, pathname, search } = new URL(url.trim())
    if (ECB_HOSTS.has(hostname)) return "ecb.europa.eu"
    return `${host}${pathname}${search}`
  } catch {
    return url.trim()
  }
}

export function sameRateSource(a: string, b: string): boolean {
  return rateSourceOf(a) === rateSourceOf(b)
}

type StoredUnder = { url: string; published_on: string | null }

/**
 * The stored row of `url`'s source: the newest publication among the rows of that source (another
 * spelling of the url included), the url's own row first among equals.
 */
export function rowOfSource<T extends StoredUnder>(rows: T[], url: string): T | undefined {
  return rows
    .filter((row) => sameRateSource(row.url, url))
    .sort(
      (a, b) =>
        (b.published_on ?? "").localeCompare(a.published_on ?? "") || Number(b.url === url) - Number(a.url === url)
    )[0]
}

/** The publications stored from other sources than `url`'s, newest first. */
export function otherSources<T extends StoredUnder>(
  rows: T[],
  url: string
): Array<{ url: string; publishedOn: string }> {
  return rows
    .filter((row): row is T & { published_on: string } => !!row.published_on && !sameRateSource(row.url, url))
    .sort((a, b) => b.published_on.localeCompare(a.published_on))
    .map((row) => ({ url: row.url, publishedOn: row.published_on }))
}
