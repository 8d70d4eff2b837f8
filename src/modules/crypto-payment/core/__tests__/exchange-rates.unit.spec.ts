import { MedusaError } from "@medusajs/framework/utils"
import { ExchangeRates } from "../exchange-rates"
import type { HeldPublication, RateStore, StoredRates } from "../../rate-store"
import type { RatePublication } from "../../../../lib/domain/exchange-rates/ecb-file"
import type { PluginLog } from "../../../../lib/runtime/log"

const URL = "https://rates.example.test/eurofxref-daily.xml"
const ECB = { source: "ecb", url: URL, maxAgeHours: 144, markupPercent: 0, refreshMinutes: 60 } as const

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10)
const file = (date: string, rates: Record<string, string>) =>
  `<?xml version="1.0"?><gesmes:Envelope><Cube><Cube time='${date}'>${Object.entries(rates)
    .map(([c, r]) => `<Cube currency='${c}' rate='${r}'/>`)
    .join("")}</Cube></Cube></gesmes:Envelope>`

/** The crypto_exchange_rate row of one source, in memory, with the same rules as RateStore's statements. */
class MemoryRates implements Pick<
  RateStore,
  "read" | "ofSource" | "claim" | "store" | "hold" | "failed" | "acceptHeld"
> {
  row?: StoredRates
  claims = 0
  reads = 0
  /** store() fails with this while it is set (a database error). */
  failure?: Error

  async read() {
    this.reads++
    return this.row && { ...this.row }
  }
  async ofSource() {
    this.reads++
    return this.row ? [{ ...this.row }] : []
  }
  async acceptHeld() {
    return undefined
  }
  async claim(_source: string, _url: string, seconds: number) {
    const last = this.row?.attempted_at?.getTime() ?? 0
    if (this.row && Date.now() - last < seconds * 1000) return false
    this.claims++
    this.row = { ...this.empty(), ...this.row, attempted_at: new Date() }
    return true
  }
  async store(_source: string, _url: string, publication: RatePublication, replacing: string | null = null) {
    if (this.failure) throw this.failure
    const stored = this.row?.published_on
    if (stored && stored > publication.publishedOn && stored !== replacing) return false
    Object.assign(this.row!, {
      published_on: publication.publishedOn,
      rates: publication.rates,
      fetched_at: new Date(),
      held: null,
      last_error: null,
      settled_at: new Date(),
    })
    return true
  }
  async hold(_source: string, _url: string, held: HeldPublication) {
    this.row!.held = held
    this.row!.settled_at = new Date()
  }
  async failed(_source: string, _url: string, reason: string) {
    this.row!.last_error = reason
    this.row!.failures++
    this.row!.settled_at = new Date()
  }
  /** A stored publication, as if fetched long enough ago to be due. */
  stored(publishedOn: string, rates: Record<string, string>) {
    this.row = { ...this.empty(), published_on: publishedOn, rates, attempted_at: new Date(Date.now() - 7_200_000) }
  }
  private empty(): StoredRates {
    const none = {
      published_on: null,
      rates: null,
      fetched_at: null,
      held: null,
      attempted_at: null,
      settled_at: null,
      last_error: null,
    }
    return { id: "cryptorate_1", source: "ecb", url: URL, failures: 0, ...none }
  }
}

/** An answer of the rate source: the file, a failure, or either after a delay. */
type Answer = string | Error | { afterMs: number; answer: string | Error }

function setup(answers: Answer[], checkoutWaitMs = 200) {
  const store = new MemoryRates()
  const fetched: string[] = []
  const warnings: string[] = []
  const log = { warn: (l: string) => warnings.push(l), info: () => undefined } as unknown as PluginLog
  const rates = new ExchangeRates({
    option: ECB,
    store,
    fetchFile: async (url) => {
      fetched.push(url)
      let answer = answers.shift() ?? new Error("no answer scripted")
      if (typeof answer === "object" && "afterMs" in answer) {
        const { afterMs } = answer
        answer = answer.answer
        await new Promise((resolve) => setTimeout(resolve, afterMs))
      }
      if (answer instanceof Error) throw answer
      return answer
    },
    log,
    checkoutWaitMs,
  })
  return { store, rates, fetched, warnings }
}

const refusal = (call: Promise<unknown>) =>
  call.then(
    () => undefined,
    (e: MedusaError) => (e as MedusaError & { code?: string }).code
  )

describe("exchange rates from the ECB file", () => {
  it("fetches once when none is stored, then prices from the stored rate", async () => {
    const { rates, fetched } = setup([file(day(0), { USD: "1.0842", GBP: "0.8610" })])
    const [eur, gbp] = await Promise.all([rates.rateFor("eur"), rates.rateFor("GBP")])
    expect(eur).toMatchObject({ rate: "1.0842", source: "ecb", url: URL, publishedOn: day(0), markupPercent: "0" })
    expect(gbp.rate).toBe("1.25923344947735192")
    expect(fetched).toEqual([URL])
  })

  it("refuses a currency the file does not list, and a stale rate with the source down", async () => {
    const { rates, store } = setup([new Error("HTTP 503")])
    store.stored(day(-2), { USD: "1.0842" })
    expect(await refusal(rates.rateFor("GBP"))).toBe("crypto.currency_not_priced")
    store.stored(day(-7), { USD: "1.0842" })
    expect(await refusal(rates.rateFor("EUR"))).toBe("crypto.rate_stale")
    await expect(rates.rateFor("EUR")).rejects.toThrow("the exchange rate to USD is out of date")
    expect(store.row?.last_error).toMatch(/HTTP 503/)
  })

  it("says a rate never fetched could not be fetched yet, not that it is out of date", async () => {
    const { rates } = setup([new Error("getaddrinfo ENOTFOUND")])
    await expect(rates.rateFor("EUR")).rejects.toMatchObject({
      code: "crypto.rate_stale",
      message: expect.stringContaining("the exchange rate to USD could not be fetched yet"),
    })
  })

  it.each<[string, string]>([
    ["a malformed file", "<Cube time='2026-11-24'><Cube currency='USD' rate='abc'/>"],
    ["a rate of zero", file(day(0), { USD: "0" })],
    ["an older file", file(day(-4), { USD: "1.2" })],
  ])("keeps the stored rate over %s", async (_, answer) => {
    const { rates, store } = setup([answer])
    store.stored(day(-2), { USD: "1.0842" })
    await rates.refresh()
    expect(store.row).toMatchObject({ published_on: day(-2), rates: { USD: "1.0842" }, held: null })
    expect(store.row?.last_error).toBeTruthy()
    expect((await rates.rateFor("EUR")).rate).toBe("1.0842")
  })

  it("holds a jump of more than 20 % until a later publication agrees with it", async () => {
    const jumped = file(day(-1), { USD: "1.4000" })
    const { rates, store, warnings } = setup([jumped, jumped, file(day(0), { USD: "1.4100" })])
    store.stored(day(-2), { USD: "1.0842" })
    await rates.refresh()
    expect(store.row?.held).toMatchObject({ publishedOn: day(-1), moved: [{ currency: "EUR", percent: "29.1" }] })
    expect(warnings.join()).toMatch(/held: EUR moved 29.1 %/)
    expect((await rates.rateFor("EUR")).rate).toBe("1.0842")
    expect(await rates.state()).toMatchObject({ held: { publishedOn: day(-1) }, fresh: true })

    store.row!.attempted_at = new Date(Date.now() - 7_200_000)
    await rates.refresh()
    expect(store.row).toMatchObject({ published_on: day(-2), rates: { USD: "1.0842" } })

    store.row!.attempted_at = new Date(Date.now() - 7_200_000)
    await rates.refresh()
    expect(store.row).toMatchObject({ published_on: day(0), rates: { USD: "1.4100" }, held: null })
  })

  it("6. a held jump is not released by fetching the same publication again", async () => {
    const jumped = file(day(0), { USD: "1.0842" })
    const { rates, store } = setup([jumped, jumped, jumped])
    store.stored(day(-1), { USD: "10.842" })
    for (let fetch = 0; fetch < 3; fetch++) {
      store.row!.attempted_at = new Date(Date.now() - 7_200_000)
      await rates.refresh()
      expect(store.row).toMatchObject({ published_on: day(-1), held: { publishedOn: day(0) } })
    }
    expect((await rates.rateFor("EUR")).rate).toBe("10.842")
  })

  it("holds a 10× file after an outage longer than maxAgeHours, against the stale stored rate", async () => {
    const jumped = file(day(-1), { USD: "10.842" })
    const { rates, store, fetched, warnings } = setup([jumped, file(day(0), { USD: "10.850" })])
    // the last stored publication is 8 days old (maxAgeHours 144): the checkout fetches, and the file is held
    store.stored(day(-8), { USD: "1.0842" })
    expect(await refusal(rates.rateFor("EUR"))).toBe("crypto.rate_stale")
    expect(fetched).toEqual([URL])
    expect(store.row).toMatchObject({
      published_on: day(-8),
      rates: { USD: "1.0842" },
      held: { publishedOn: day(-1), moved: [{ currency: "EUR", percent: "900.0" }] },
    })
    expect(warnings.join()).toMatch(/held: EUR moved 900.0 % against/)
    expect(await rates.state()).toMatchObject({ held: { publishedOn: day(-1) }, fresh: false })

    // released only by a later publication that agrees with it
    store.row!.attempted_at = new Date(Date.now() - 7_200_000)
    await rates.refresh()
    expect(store.row).toMatchObject({ published_on: day(0), rates: { USD: "10.850" }, held: null })
  })

  it("stores a file that agrees with the stored rate after an outage longer than maxAgeHours", async () => {
    const { rates, store } = setup([file(day(0), { USD: "1.0900" })])
    store.stored(day(-30), { USD: "1.0842" })
    expect((await rates.rateFor("EUR")).rate).toBe("1.09")
    expect(store.row).toMatchObject({ published_on: day(0), rates: { USD: "1.0900" }, held: null })
  })

  it("never keeps a file dated more than a day ahead, and replaces one kept before with a normal file", async () => {
    const { rates, store } = setup([file(day(3), { USD: "1.0842" }), file(day(0), { USD: "1.0900" })])
    store.stored(day(-1), { USD: "1.0842" })
    await rates.refresh()
    expect(store.row).toMatchObject({
      published_on: day(-1),
      last_error: expect.stringMatching(/more than a day ahead/),
    })
    // a row dated ahead (written before this check): the next normal file still replaces it
    store.stored(day(5), { USD: "1.0842" })
    await rates.refresh()
    expect(store.row).toMatchObject({ published_on: day(0), rates: { USD: "1.0900" } })
  })

  it("stops waiting for another process's fetch as soon as it failed, and refuses", async () => {
    const { rates, store, fetched } = setup([], 5000)
    store.stored(day(-8), { USD: "1.0842" })
    store.row!.attempted_at = new Date() // another process claimed the fetch just now
    setTimeout(() => void store.failed("ecb", URL, "HTTP 503"), 300)
    expect(await refusal(rates.rateFor("EUR"))).toBe("crypto.rate_stale")
    expect(fetched).toEqual([])
    // polled a few times (every 200 ms), not until the 5 s deadline
    expect(store.reads).toBeLessThan(8)
  })

  it("refuses at once after a failed fetch, and does not fetch again until the claim lapses", async () => {
    const { rates, fetched } = setup([new Error("ECONNREFUSED")], 5000)
    expect(await refusal(rates.rateFor("EUR"))).toBe("crypto.rate_stale")
    const started = Date.now()
    for (let i = 0; i < 3; i++) expect(await refusal(rates.rateFor("EUR"))).toBe("crypto.rate_stale")
    // the failure is recorded: nothing to wait for (it used to wait the whole claim out)
    expect(Date.now() - started).toBeLessThan(1000)
    expect(fetched).toEqual([URL])
  })

  it("waits at most checkoutWaitMs for a slow fetch, which stores for the next checkout", async () => {
    const { rates, store, fetched } = setup([{ afterMs: 700, answer: file(day(0), { USD: "1.0842" }) }], 200)
    const started = Date.now()
    expect(await refusal(rates.rateFor("EUR"))).toBe("crypto.rate_stale")
    expect(Date.now() - started).toBeLessThan(650)
    // the fetch went on: once it stored, the next checkout prices without fetching again
    await new Promise((resolve) => setTimeout(resolve, 800))
    expect(store.row?.published_on).toBe(day(0))
    expect((await rates.rateFor("EUR")).rate).toBe("1.0842")
    expect(fetched).toEqual([URL])
  })

  it("answers a database error while keeping a file with the clear refusal, never the raw error", async () => {
    const { rates, store, warnings } = setup([file(day(0), { USD: "1.0842" })])
    store.stored(day(-8), { USD: "1.0842" })
    store.failure = new Error("connection terminated")
    expect(await refusal(rates.rateFor("EUR"))).toBe("crypto.rate_stale")
    expect(warnings.join()).toMatch(/not kept: connection terminated/)
  })

  it("takes a move of exactly 20 % at once", async () => {
    const { rates, store } = setup([file(day(0), { USD: "1.2" })])
    store.stored(day(-1), { USD: "1" })
    await rates.refresh()
    expect(store.row).toMatchObject({ published_on: day(0), held: null })
  })

  it("refreshes only a source in use, and only once refreshMinutes have passed", async () => {
    const { rates, store, fetched } = setup([file(day(0), { USD: "1.0842" })])
    await rates.refresh()
    expect(fetched).toEqual([])
    store.stored(day(-1), { USD: "1.0842" })
    store.row!.attempted_at = new Date(Date.now() - 30 * 60_000)
    await rates.refresh()
    expect(fetched).toEqual([])
    store.row!.attempted_at = new Date(Date.now() - 61 * 60_000)
    await rates.refresh()
    expect(fetched).toEqual([URL])
  })
})

describe("fixed exchange rates", () => {
  it("price from the options, never fetch, and refuse a currency they lack", async () => {
    const fetched: string[] = []
    const rates = new ExchangeRates({
      option: { source: "fixed", rates: { EUR: "1.0842" }, markupPercent: 1.5 },
      store: new MemoryRates(),
      fetchFile: async (url) => (fetched.push(url), ""),
      log: {} as PluginLog,
      checkoutWaitMs: 200,
    })
    expect(await rates.rateFor("eur")).toMatchObject({
      rate: "1.0842",
      source: "fixed",
      publishedOn: null,
      markupPercent: "1.5",
    })
    expect(await refusal(rates.rateFor("GBP"))).toBe("crypto.currency_not_priced")
    await rates.refresh()
    expect(fetched).toEqual([])
  })
})
