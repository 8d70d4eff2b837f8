/**
 * Store amounts and the exchange rates that priced them in USD, as the admin words them. Pure: the
 * amounts and rates are decimal text, shown exactly (rounded only for reading, never through a float).
 */
import type { ExchangeRates, HeldRateMove, PaymentExchange, RateSource, UsdRates } from "./payment-types"
import { compareDecimals, toSignificant, withPlaces } from "./decimal"
import { currencyDecimals, formatAmount, formatPercent } from "./format"
import type { Translate } from "./i18n"

/** The significant digits a rate is read with; the exact rate goes in a title. */
export const RATE_DIGITS = 6

const USD_DECIMALS = 2

/**
 * "25.00 EUR", "5,000 JPY": decimals the API sent beyond the currency's are kept unless they are zeros; a
 * code Intl does not know ("USDT") keeps the amount as sent.
 */
export function storeAmountText(amount: string, currency: string, locale: string | undefined): string {
  const places = currencyDecimals(currency)
  const text = places === undefined ? amount : (withPlaces(amount, places) ?? amount)
  return `${formatAmount(text, locale)} ${currency.toUpperCase()}`
}

/** A rate (USD per unit) as a person reads it: six significant digits, the language's separator ("1,0842"). */
export function rateText(rate: string, locale: string | undefined): string {
  return formatAmount(toSignificant(rate, RATE_DIGITS) ?? rate, locale)
}

/** The exact rate, every digit, for a title: "Exact rate: 1 EUR = 1.08420000000000000 USD". */
export function exactRateText(t: Translate, locale: string | undefined, currency: string, rate: string): string {
  return t("exchange.exactRate", { currency: currency.toUpperCase(), rate: formatAmount(rate, locale) })
}

export function hasMarkup(markupPercent: string | null): markupPercent is string {
  return markupPercent !== null && compareDecimals(markupPercent, "0") === 1
}

/** "+1.5% markup"; null when there is none. */
export function markupText(t: Translate, locale: string | undefined, markupPercent: string | null): string | null {
  return hasMarkup(markupPercent) ? t("exchange.markup", { percent: formatPercent(markupPercent, locale, true) }) : null
}

const KNOWN_SOURCES: readonly string[] = ["ecb", "fixed", "off"] satisfies readonly RateSource[]

/** A payment's rate source in a word or two: "ECB", "fixed rate"; one this admin does not know as its code. */
export function rateSourceShort(t: Translate, source: string): string {
  return source === "ecb" || source === "fixed" ? t(`exchange.sourceShort.${source}`) : source
}

/** A provider's rate source in full: "ECB reference rates", "Fixed rates (provider options)", "Off: …". */
export function rateSourceLabel(t: Translate, source: string): string {
  return KNOWN_SOURCES.includes(source) ? t(`policy.exchangeRates.sources.${source as RateSource}`) : source
}

/** "≈ $27.11 USD at 1.0842 (ECB, 2026-11-24)": the date is the publication's, as the ECB dates it. */
export function exchangeText(t: Translate, locale: string | undefined, exchange: PaymentExchange): string {
  const usd = withPlaces(exchange.usd_amount, USD_DECIMALS) ?? exchange.usd_amount
  const details = [
    exchange.source && rateSourceShort(t, exchange.source),
    exchange.published_on,
    markupText(t, locale, exchange.markup_percent),
  ]
    .filter(Boolean)
    .join(", ")
  return t("exchange.line", { usd: formatAmount(usd, locale), rate: rateText(exchange.rate, locale), details })
}

export function storedRates(rates: UsdRates): Array<[currency: string, rate: string]> {
  return Object.entries(rates).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
}

/** The stored publication and its age: "2026-11-24, 20.5 h old"; "none fetched yet" before the first. */
export function publicationText(
  t: Translate,
  locale: string | undefined,
  rates: Pick<ExchangeRates, "published_on" | "age_hours">
): string {
  if (!rates.published_on) return t("policy.exchangeRates.noPublication")
  if (rates.age_hours === null) return rates.published_on
  return t("policy.exchangeRates.publication", {
    date: rates.published_on,
    hours: formatAmount(rates.age_hours, locale),
  })
}

/** What jumped in a held publication: "EUR moved 23.4%, GBP moved 21%". */
export function heldMovesText(t: Translate, locale: string | undefined, moved: HeldRateMove[]): string {
  return moved
    .map((move) =>
      t("policy.exchangeRates.moved", { currency: move.currency, percent: formatPercent(move.percent, locale) })
    )
    .join(", ")
}
