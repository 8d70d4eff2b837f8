/** Numbers, amounts, percents and dates in the dashboard's language, through Intl. */

/** A plain decimal, as the API sends amounts: "0.00123", "-3.20", "42". */
const DECIMAL = /^-?\d+(\.\d+)?$/

/**
 * The dashboard's language code as an Intl locale: "de" → "de", "enGB" → "en-GB", "ptBR" → "pt-BR";
 * undefined (the browser's locale) for anything Intl does not take.
 */
export function intlLocale(language: string | undefined): string | undefined {
  if (!language) return undefined
  const tag = language.replace(/^([a-z]{2,3})([A-Z]{2})$/, "$1-$2")
  try {
    return Intl.getCanonicalLocales(tag)[0]
  } catch {
    return undefined
  }
}

const decimalsOf = (text: string) => text.split(".")[1]?.length ?? 0

/**
 * The language's separators and every decimal it was sent with ("1.234,50" in German), formatted as
 * text (exact, no float); anything that is not a plain decimal is returned as it is.
 */
export function formatAmount(value: string | number, locale: string | undefined): string {
  const text = String(value).trim()
  if (!DECIMAL.test(text)) return text
  const digits = decimalsOf(text)
  try {
    const format = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits })
    // Intl formats a decimal string exactly (ES2023); the ES2020 types only name numbers
    return format.format(text as unknown as number)
  } catch {
    return text
  }
}

/** A percent given in percent ("1.5", 0.5, "-3.20"), in the language's way ("1.5%", "1,5 %"); signed on request. */
export function formatPercent(value: string | number, locale: string | undefined, signed = false): string {
  const text = String(value).trim()
  if (!DECIMAL.test(text)) return `${text} %`
  const digits = decimalsOf(text)
  try {
    return new Intl.NumberFormat(locale, {
      style: "percent",
      minimumFractionDigits: digits,
      maximumFractionDigits: Math.max(digits, 2),
      signDisplay: signed ? "always" : "auto",
    }).format(Number(text) / 100)
  } catch {
    return `${signed && !text.startsWith("-") ? "+" : ""}${text} %`
  }
}

/** "12.5" in "usd" → "$12.50" in English, "12,50 $" in German; the plain amount and code if the code is unknown. */
export function formatMoney(amount: string, currencyCode: string, locale: string | undefined): string {
  const code = currencyCode.toUpperCase()
  try {
    // display only: the amount itself was computed exactly
    return new Intl.NumberFormat(locale, { style: "currency", currency: code }).format(Number(amount))
  } catch {
    return `${amount} ${code}`
  }
}

/**
 * How many decimals a currency's amounts are written with: "EUR" 2, "JPY" 0, "KWD" 3 (Intl's data);
 * undefined for a code Intl does not take ("USDT").
 */
export function currencyDecimals(currencyCode: string): number | undefined {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency: currencyCode.trim() }).resolvedOptions()
      .maximumFractionDigits
  } catch {
    return undefined
  }
}

export function formatDateTime(at: string, locale: string | undefined): string {
  const date = new Date(at)
  if (Number.isNaN(date.getTime())) return at
  try {
    return date.toLocaleString(locale)
  } catch {
    return date.toLocaleString()
  }
}

/** An ISO 8601 instant as the server writes them (UTC): "2026-12-07T10:15:00.000Z". */
const ISO_INSTANT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z\b/g

/**
 * A server's finding (English, shown as sent) with each instant it names written the language's way, as
 * the rest of the panel writes times; a day alone ("2026-12-07", a rate publication's) stays as it is.
 */
export function localTimesIn(text: string, locale: string | undefined): string {
  return text.replace(ISO_INSTANT, (at) => formatDateTime(at, locale))
}
