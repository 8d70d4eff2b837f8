import { ExchangeRates } from "../exchange-rates"
import type { HeldPublication, RateStore, StoredRates } from "../../rate-store"
import type { RatePublication } from "../../../../lib/domain/exchange-rates/ecb-file"
import type { PluginLog } from "../../../../lib/runtime/log"
import { ECB_DAILY_URL } from "../exchange-rate-options"

const SANDBOX_URL = "http://127.0.0.1:4010/ecb/eurofxref-daily.xml"
const today = () => new Date().toISOString().slice(0, 10)

/** crypto_exchange_rate with one row per source and url, as RateStore keeps it (its conditions simplified). */
class RateTable implements Pick<RateStore, "read" | "ofSource" | "claim" | "store" | "hold" | "failed" | "acceptHeld"> {
  rows: StoredRates[] = []

  async read(source: string, url: string) {
    const row = this.rows.find((r) => r.source === source && r.url === url)
    return row && { ...row }
  }
  async ofSource(source: string) {
    return this.rows.filter((r) => r.source === source).map((r) => ({ ...r }))
  }
  async claim(source: string, url: string) {
    if (!this.rows.some((r) => r.source === source && r.url === url))
      this.rows.push({ ...empty(url), id: `cryptorate_${this.rows.length + 1}`, source })
    this.at(source, url).attempted_at = new Date()
    return true
  }
  async store(source: string, url: string, publication: RatePublication) {
    Object.assign(this.at(source, url), {
      published_on: publication.publishedOn,
      rates: publication.rates,
      fetched_at: new Date(),
      settled_at: new Date(),
      last_error: null,
    })
    return true
  }
  async hold(source: string, url: string, held: HeldPublication) {
    this.at(source, url).held = held
  }
  async failed(source: string, url: string, reason: string) {
    Object.assign(this.at(source, url), { last_error: reason, settled_at: new Date() })
  }
  async acceptHeld(_providerId: string, source: string, url: string) {
    const row = this.at(source, url)
    if (!row.held) return undefined
    const change = { field: "exchange_rates", from: row.published_on, to: row.held.publishedOn }
    Object.assign(row, { published_on: row.held.publishedOn, rates: row.held.rates, held: null })
    return change
  }
  /** A publication fetched from `url` two hours ago (so a refresh is due). */
  stored(url: string, publishedOn: string, rates: Record<string, string>) {
    this.rows.push({
      ...empty(url),
      id: `cryptorate_${this.rows.length + 1}`,
      published_on: publishedOn,
      rates,
      fetched_at: new Date(Date.now() - 7_200_000),
      attempted_at: new Date(Date.now() - 7_200_000),
    })
  }
  private at(source: string, url: string): StoredRates {
    const row = this.rows.find((r) => r.source === source && r.url === url)
    if (!row) throw new Error(`no row for ${url}`)
    return row
  }
}

const empty = (url: string): StoredRates => ({
  id: "cryptorate_0",
  source: "ecb",
  url,
  published_on: null,
  rates: null,
  fetched_at: null,
  held: null,
  attempted_at: null,
  settled_at: null,
  last_error: null,
  failures: 0,
})

function ratesFrom(url: string, table: RateTable, fetchFile: (url: string) => Promise<string>) {
  const log = { warn: () => undefined, info: () => undefined } as unknown as PluginLog
  return new ExchangeRates({
    option: { source: "ecb", url, maxAgeHours: 144, markupPercent: 0, refreshMinutes: 60 },
    store: table,
    fetchFile,
    log,
    checkoutWaitMs: 200,
  })
}

const unreachable = async (): Promise<string> => {
  throw new Error("ENOTFOUND")
}

describe("a stored publication and a change of exchangeRates.url", () => {
  it("keeps pricing from the publication stored under another spelling of the same source", async () => {
    for (const before of [
      "http://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml",
      "https://ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml",
    ]) {
      const table = new RateTable()
      table.stored(before, today(), { USD: "1.0842" })
      const rates = ratesFrom(ECB_DAILY_URL, table, unreachable)

      await expect(rates.rateFor("EUR")).resolves.toMatchObject({ rate: "1.0842", publishedOn: today() })
      expect(await rates.state()).toMatchObject({ url: ECB_DAILY_URL, publishedOn: today(), fresh: true })
      // the refresh is written to that row: no second row of the same source
      await rates.refresh()
      expect(table.rows.map((r) => r.url)).toEqual([before])
      expect(table.rows[0].last_error).toMatch(/ENOTFOUND/)
    }
  })

  it("never prices with the sandbox's file once the url is the ECB's, and says where a publication is stored", async () => {
    const table = new RateTable()
    table.stored(SANDBOX_URL, today(), { USD: "1.0842" })
    const rates = ratesFrom(ECB_DAILY_URL, table, unreachable)

    await expect(rates.rateFor("EUR")).rejects.toMatchObject({ code: "crypto.rate_stale" })
    expect(await rates.state()).toMatchObject({
      publishedOn: null,
      fresh: false,
      otherSources: [{ url: SANDBOX_URL, publishedOn: today() }],
    })
  })

  it("accepts a held publication stored under another spelling of the same source", async () => {
    const table = new RateTable()
    table.stored("http://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml", today(), { USD: "1.0842" })
    table.rows[0].held = { publishedOn: today(), rates: { USD: "1.40" }, fetched_at: "", moved: [] }
    const rates = ratesFrom(ECB_DAILY_URL, table, unreachable)

    expect(await rates.acceptHeld("pp_crypto_crypto", "user_1")).toMatchObject({ field: "exchange_rates" })
    expect(table.rows[0].rates).toEqual({ USD: "1.40" })
  })
})
