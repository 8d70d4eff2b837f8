import { ratesCheck } from "../rates-check"
import type { RatesState } from "../../domain/exchange-rates/rates-state"

const europe = { name: "Europe", currency: "eur" }
const us = { name: "United States", currency: "usd" }
const japan = { name: "Japan", currency: "jpy" }
const ecbState = (state: Partial<RatesState> = {}): RatesState => ({
  source: "ecb",
  url: "https://rates.example.test/file.xml",
  maxAgeHours: 144,
  markupPercent: "0",
  publishedOn: "2026-11-24",
  ageHours: 20,
  fresh: true,
  missesWorkingDay: false,
  held: null,
  rates: { EUR: "1.0842", GBP: "1.259" },
  ...state,
})

describe("the exchange rates line of the setup health", () => {
  it.each<[string, Parameters<typeof ratesCheck>[0]["regions"], RatesState, "green" | "amber" | "red", RegExp]>([
    ["USD regions need no rate", [us], { source: "off" }, "green", /no rate is needed/],
    [
      "EUR with conversion off",
      [us, europe],
      { source: "off" },
      "red",
      /refused in Europe \(EUR\).*exchangeRates is false/,
    ],
    [
      "EUR at a fresh ECB rate",
      [europe],
      ecbState(),
      "green",
      /Europe \(EUR\) priced in USD through ECB reference rates of 2026-11-24/,
    ],
    ["a currency the file lacks", [europe, japan], ecbState(), "red", /refused in Japan \(JPY\).*no rate for JPY/],
    [
      "a stale rate",
      [europe],
      ecbState({ fresh: false, ageHours: 170 }),
      "red",
      /refused in Europe \(EUR\): the newest stored publication is 2026-11-24, 170 h old/,
    ],
    [
      "no rate ever fetched",
      [europe],
      ecbState({ fresh: false, publishedOn: null, lastError: "HTTP 503" }),
      "red",
      /no publication has been fetched; last fetch: HTTP 503/,
    ],
    [
      "a working day missing",
      [europe],
      ecbState({ missesWorkingDay: true }),
      "amber",
      /a working day's publication is missing/,
    ],
    [
      "a held publication",
      [europe],
      ecbState({ held: { publishedOn: "2026-11-25", fetchedAt: "", moved: [{ currency: "EUR", percent: "29.1" }] } }),
      "amber",
      /\(2026-11-25\) is held: EUR moved 29.1 %/,
    ],
    [
      "fixed rates lacking the currency",
      [japan],
      { source: "fixed", rates: { EUR: "1.08" }, fresh: true },
      "red",
      /refused in Japan \(JPY\)/,
    ],
  ])("%s", (_, regions, rates, level, detail) => {
    const line = ratesCheck({ providerId: "pp_crypto_crypto", mode: "invoice", regions, rates })
    expect(line).toMatchObject({ id: "exchange_rates", provider_id: "pp_crypto_crypto", level })
    expect(line.detail).toMatch(detail)
    if (level !== "green") expect(line.action).toBeTruthy()
  })

  it("says a publication stored from another source is not used, why, and what to do", () => {
    const line = ratesCheck({
      providerId: "pp_crypto_crypto",
      mode: "invoice",
      regions: [europe],
      rates: ecbState({
        url: "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml",
        fresh: false,
        publishedOn: null,
        lastError: "ENOTFOUND",
        otherSources: [{ url: "http://127.0.0.1:4010/ecb/eurofxref-daily.xml", publishedOn: "2026-12-07" }],
      }),
    })
    expect(line.level).toBe("red")
    expect(line.detail).toBe(
      "Crypto checkouts are refused in Europe (EUR): no publication has been fetched from https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml yet; last fetch: ENOTFOUND. " +
        "The publication of 2026-12-07 stored from http://127.0.0.1:4010/ecb/eurofxref-daily.xml is not used: rates are kept per source, and a file of another source (a test file's made-up rates) never prices this one's checkouts."
    )
    expect(line.action).toBe(
      'Check that this server can reach https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml, or set exchangeRates: { source: "fixed", rates } in the provider options.'
    )
  })

  it.each([
    [
      "https://rates.example.test/file.xml?date=latest&format=xml",
      "https://rates.example.test/file.xml?date=latest&format=xml",
    ],
    [
      "https://user:pass@rates.example.test/file.xml?api_key=s3cr3t&date=latest&X-Amz-Signature=abc",
      "https://rates.example.test/file.xml?api_key=***&date=latest&X-Amz-Signature=***",
    ],
  ])("names the configured url %s with its query in what to do, never a credential", (url, shown) => {
    const line = ratesCheck({
      providerId: "p",
      mode: "invoice",
      regions: [europe],
      rates: ecbState({ url, fresh: false, publishedOn: null }),
    })
    expect(line.action).toBe(
      `Check that this server can reach ${shown}, or set exchangeRates: { source: "fixed", rates } in the provider options.`
    )
    expect(line.action).not.toMatch(/s3cr3t|pass|abc/)
  })

  it("needs no rate for a BTC region in payment mode, but does for invoices", () => {
    const btc = [{ name: "Bitcoin", currency: "btc" }]
    expect(ratesCheck({ providerId: "p", mode: "payment", regions: btc, rates: { source: "off" } }).level).toBe("green")
    const invoices = ratesCheck({ providerId: "p", mode: "invoice", regions: btc, rates: ecbState() })
    expect(invoices).toMatchObject({
      level: "red",
      detail: expect.stringMatching(/Invoices are refused in Bitcoin \(BTC\)/),
    })
  })
})
