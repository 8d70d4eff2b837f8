import { ECB_EXCHANGE, ECB_RATES, FIXED_EXCHANGE } from "../../__tests__/fixtures"
import { translator } from "../../i18n/__tests__/messages"
import type { PaymentExchange } from "../payment-types"
import {
  exactRateText,
  exchangeText,
  hasMarkup,
  heldMovesText,
  markupText,
  publicationText,
  rateSourceLabel,
  rateSourceShort,
  rateText,
  storeAmountText,
  storedRates,
} from "../exchange-rates"

// the types come from the module of the hooks, which reads the dashboard's session client
jest.mock("../sdk", () => ({ sdk: {} }))

const en = translator("en")
const de = translator("de")
const fr = translator("fr")
const es = translator("es")

// Intl separates some numbers from their signs with no-break spaces: compare with plain ones
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ")

const exchange = (over: Partial<PaymentExchange> = {}): PaymentExchange => ({
  usd_amount: "27.11",
  rate: "1.0842",
  source: "ecb",
  url: "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml",
  published_on: "2026-11-24",
  markup_percent: "0",
  ...over,
})

describe("a store amount at its currency's decimals", () => {
  it.each([
    ["25.00", "EUR", "en", "25.00 EUR"],
    ["25.5", "EUR", "en", "25.50 EUR"],
    ["25", "eur", "de", "25,00 EUR"],
    ["5000", "JPY", "en", "5,000 JPY"],
    ["5000.00", "JPY", "de", "5.000 JPY"],
    ["1.5", "KWD", "en", "1.500 KWD"],
    ["1234.5", "USD", "fr", "1 234,50 USD"],
  ])("%s %s in %s reads %s", (amount, currency, locale, text) => {
    expect(plain(storeAmountText(amount, currency, locale))).toBe(text)
  })

  it("never rounds away a digit the API sent, and keeps a code Intl does not know as sent", () => {
    expect(storeAmountText("5000.5", "JPY", "en")).toBe("5,000.5 JPY")
    expect(storeAmountText("12.345", "EUR", "en")).toBe("12.345 EUR")
    expect(storeAmountText("42.1", "USDT", "en")).toBe("42.1 USDT")
    expect(storeAmountText("abc", "EUR", "en")).toBe("abc EUR")
  })
})

describe("how a store amount was priced in USD", () => {
  it("gives the USD, the rate, the source and the publication date", () => {
    expect(exchangeText(en, "en", exchange())).toBe("≈ $27.11 USD at 1.0842 (ECB, 2026-11-24)")
    expect(exchangeText(de, "de", exchange())).toBe("≈ 27,11 USD zum Kurs von 1,0842 (EZB, 2026-11-24)")
    expect(exchangeText(fr, "fr", exchange())).toBe("≈ 27,11 USD au taux de 1,0842 (BCE, 2026-11-24)")
    expect(exchangeText(es, "es", exchange())).toBe("≈ 27,11 USD al tipo de 1,0842 (BCE, 2026-11-24)")
  })

  it("adds the markup when there is one, signed in the language's way", () => {
    expect(exchangeText(en, "en", exchange({ markup_percent: "1.5" }))).toBe(
      "≈ $27.11 USD at 1.0842 (ECB, 2026-11-24, +1.5% markup)"
    )
    expect(plain(exchangeText(de, "de", exchange({ markup_percent: "1.5" })))).toBe(
      "≈ 27,11 USD zum Kurs von 1,0842 (EZB, 2026-11-24, +1,5 % Aufschlag)"
    )
    for (const none of ["0", "0.00", null]) {
      expect(exchangeText(en, "en", exchange({ markup_percent: none }))).not.toContain("markup")
    }
  })

  it("says a fixed rate is one, without a date", () => {
    expect(exchangeText(en, "en", FIXED_EXCHANGE)).toBe("≈ $33.50 USD at 0.0067 (fixed rate)")
    expect(exchangeText(de, "de", FIXED_EXCHANGE)).toBe("≈ 33,50 USD zum Kurs von 0,0067 (fester Kurs)")
    expect(exchangeText(en, "en", { ...FIXED_EXCHANGE, markup_percent: "2" })).toBe(
      "≈ $33.50 USD at 0.0067 (fixed rate, +2% markup)"
    )
  })

  it("writes the USD at cents, and a rate of 18 digits at six significant ones, the exact rate in the title", () => {
    expect(exchangeText(en, "en", ECB_EXCHANGE)).toBe("≈ $44.02 USD at 1.0842 (ECB, 2026-11-24, +1.5% markup)")
    expect(exchangeText(en, "en", exchange({ usd_amount: "1234.5", rate: "0.00670552677577000000" }))).toBe(
      "≈ $1,234.50 USD at 0.00670553 (ECB, 2026-11-24)"
    )
    expect(exactRateText(en, "en", "jpy", "0.00670552677577000000")).toBe(
      "Exact rate: 1 JPY = 0.00670552677577000000 USD"
    )
    expect(exactRateText(de, "de", "EUR", "1.08420000000000000")).toBe("Genauer Kurs: 1 EUR = 1,08420000000000000 USD")
  })

  it("shows a source this admin does not know as its code", () => {
    expect(exchangeText(en, "en", exchange({ source: "bank" }))).toBe("≈ $27.11 USD at 1.0842 (bank, 2026-11-24)")
  })
})

describe("rates and their sources", () => {
  it.each([
    ["1.0842", "en", "1.0842"],
    ["1.25923312883435583", "en", "1.25923"],
    ["1.25923312883435583", "de", "1,25923"],
    ["0.00670552677577000000", "en", "0.00670553"],
    ["3.25", "en", "3.25"],
    ["not a rate", "en", "not a rate"],
  ])("%s in %s reads %s", (rate, locale, text) => {
    expect(rateText(rate, locale)).toBe(text)
  })

  it("tells a markup from none", () => {
    expect(hasMarkup("1.5")).toBe(true)
    expect(hasMarkup("0")).toBe(false)
    expect(hasMarkup("0.000")).toBe(false)
    expect(hasMarkup(null)).toBe(false)
    expect(markupText(en, "en", "0.25")).toBe("+0.25% markup")
    expect(markupText(en, "en", "0")).toBeNull()
  })

  it("names the sources, short and in full", () => {
    expect(rateSourceShort(en, "ecb")).toBe("ECB")
    expect(rateSourceShort(fr, "fixed")).toBe("taux fixe")
    expect(rateSourceLabel(en, "ecb")).toBe("ECB reference rates")
    expect(rateSourceLabel(de, "fixed")).toBe("Feste Kurse (Anbieteroptionen)")
    expect(rateSourceLabel(en, "off")).toMatch(/^Off: /)
    expect(rateSourceLabel(en, "bank")).toBe("bank")
  })
})

describe("the policy panel's exchange rates", () => {
  it("lists the stored rates by currency code", () => {
    expect(storedRates({ JPY: "0.0067", EUR: "1.08", GBP: "1.26" })).toEqual([
      ["EUR", "1.08"],
      ["GBP", "1.26"],
      ["JPY", "0.0067"],
    ])
    expect(storedRates({})).toEqual([])
  })

  it("gives the stored publication with its age, or says none was fetched", () => {
    expect(publicationText(en, "en", ECB_RATES)).toBe("2026-11-24, 20.5 h old")
    expect(publicationText(de, "de", ECB_RATES)).toBe("2026-11-24, 20,5 Std. alt")
    expect(publicationText(en, "en", { published_on: "2026-11-24", age_hours: null })).toBe("2026-11-24")
    expect(publicationText(en, "en", { published_on: null, age_hours: null })).toBe("none fetched yet")
  })

  it("says what jumped in a held publication", () => {
    expect(heldMovesText(en, "en", ECB_RATES.held!.moved)).toBe("GBP moved 23.4%, JPY moved 21.0%")
    expect(plain(heldMovesText(de, "de", [{ currency: "EUR", percent: "25" }]))).toBe("EUR um 25 %")
  })
})
