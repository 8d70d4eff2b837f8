import {
  currencyDecimals,
  formatAmount,
  formatDateTime,
  formatMoney,
  formatPercent,
  intlLocale,
  localTimesIn,
} from "../format"

// Intl separates some numbers from their signs with no-break spaces: compare with plain ones
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ")

describe("the dashboard's language as an Intl locale", () => {
  it.each([
    ["en", "en"],
    ["de", "de"],
    ["enGB", "en-GB"],
    ["ptBR", "pt-BR"],
    ["zhTW", "zh-TW"],
  ])("%s → %s", (language, locale) => {
    expect(intlLocale(language)).toBe(locale)
  })

  it("is the browser's locale for nothing, or for what Intl does not take", () => {
    expect(intlLocale(undefined)).toBeUndefined()
    expect(intlLocale("not a language")).toBeUndefined()
  })
})

describe("amounts in the admin's language", () => {
  it.each([
    ["en", "1234.50", "1,234.50"],
    ["de", "1234.50", "1.234,50"],
    ["fr", "1234.50", "1 234,50"],
    ["es", "12345.5", "12.345,5"],
    ["de", "0.00030", "0,00030"],
  ])("in %s, %s reads %s", (locale, amount, text) => {
    expect(plain(formatAmount(amount, locale))).toBe(text)
  })

  it("keeps every decimal, exactly (no float on the way)", () => {
    expect(formatAmount("0.123456789012345678", "en")).toBe("0.123456789012345678")
    expect(formatAmount("0.123456789012345678", "de")).toBe("0,123456789012345678")
  })

  it("formats numbers the API sent as numbers, and leaves anything else as it is", () => {
    expect(formatAmount(0.5, "de")).toBe("0,5")
    expect(formatAmount(3, "en")).toBe("3")
    expect(formatAmount("1e-7", "en")).toBe("1e-7")
    expect(formatAmount("abc", "en")).toBe("abc")
  })
})

describe("percents in the admin's language", () => {
  it.each([
    ["en", "1.5", false, "1.5%"],
    ["de", "1.5", false, "1,5 %"],
    ["fr", 0.5, false, "0,5 %"],
    ["en", "5.00", true, "+5.00%"],
    ["de", "-3.20", true, "-3,20 %"],
    ["en", "0", true, "+0%"],
  ] as const)("in %s, %j (signed: %s) reads %s", (locale, value, signed, text) => {
    expect(plain(formatPercent(value, locale, signed))).toBe(text)
  })
})

describe("money and dates in the admin's language", () => {
  it("formats the amount due in the order's currency, and falls back to the code for an unknown one", () => {
    expect(formatMoney("12.5", "usd", "en")).toBe("$12.50")
    expect(plain(formatMoney("12.5", "eur", "de"))).toBe("12,50 €")
    expect(formatMoney("12.5", "not-a-currency", "en")).toBe("12.5 NOT-A-CURRENCY")
  })

  it("knows each currency's decimals, and none for a code Intl does not take", () => {
    expect(currencyDecimals("EUR")).toBe(2)
    expect(currencyDecimals("jpy")).toBe(0)
    expect(currencyDecimals("KWD")).toBe(3)
    expect(currencyDecimals("USDT")).toBeUndefined()
  })

  it("writes dates the language's way, and leaves what is not one as it is", () => {
    const at = "2026-11-02T10:00:00.000Z"
    expect(formatDateTime(at, "de")).toBe(new Date(at).toLocaleString("de"))
    expect(formatDateTime(at, "de")).not.toBe(formatDateTime(at, "en"))
    expect(formatDateTime("soon", "en")).toBe("soon")
  })

  it("writes the instants of a server's English text the language's way, and leaves its days as they are", () => {
    const at = "2026-12-07T10:15:00.000Z"
    const text = `API key changed from the admin at ${at} by ops@shop.test; rates of 2026-12-07 (${at.slice(0, 19)}Z).`
    expect(localTimesIn(text, "de")).toBe(
      `API key changed from the admin at ${new Date(at).toLocaleString("de")} by ops@shop.test; rates of 2026-12-07 (${new Date(at).toLocaleString("de")}).`
    )
    expect(localTimesIn("No time here.", "fr")).toBe("No time here.")
  })
})
