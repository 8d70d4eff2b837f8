/**
 * The customer's language for the crypto payment components: which built-in texts a locale gets, your
 * overrides on top, and numbers, times and the countdown formatted with Intl for that locale. Amounts stay
 * exact: they are decimal text, and only their separators change ("0.0013" → "0,0013" in German).
 * No framework; copy it with the rest of docs/storefront.
 */
import {
  CRYPTO_PAYMENT_LABELS,
  CryptoPaymentLabelOverrides,
  CryptoPaymentLabels,
  CryptoPaymentLanguage,
} from "./crypto-payment-labels"

export type CryptoPaymentI18n = {
  /** The locale numbers, times and the countdown are formatted for ("de-CH"); "en" when Intl knows none of it. */
  locale: string
  /** The built-in language the texts come from: the locale's language, or English. */
  language: CryptoPaymentLanguage
  labels: CryptoPaymentLabels
}

/** A locale as a BCP 47 tag: "de_CH" → "de-CH"; empty for nothing. */
function tagOf(locale: string | null | undefined): string {
  return String(locale || "")
    .trim()
    .replace(/_/g, "-")
}

/**
 * The built-in language for a locale: any BCP 47 tag (a Medusa locale code such as "de-DE", a browser's
 * "fr-CA", a plain "es") by its language subtag; English for a language with no texts built in.
 */
export function cryptoPaymentLanguage(locale?: string | null): CryptoPaymentLanguage {
  const language = tagOf(locale).split("-")[0].toLowerCase()
  return Object.prototype.hasOwnProperty.call(CRYPTO_PAYMENT_LABELS, language)
    ? (language as CryptoPaymentLanguage)
    : "en"
}

/** The locale Intl formats with: the tag as given when Intl supports it, else its built-in language. */
function intlLocale(locale: string | null | undefined, language: CryptoPaymentLanguage): string {
  try {
    return Intl.NumberFormat.supportedLocalesOf(tagOf(locale) || language)[0] || language
  } catch {
    return language // not a well-formed tag
  }
}

/** The texts for a locale: the built-in language's (English if none), with `overrides` on top. */
export function cryptoPaymentLabels(
  locale?: string | null,
  overrides?: CryptoPaymentLabelOverrides
): CryptoPaymentLabels {
  const base = CRYPTO_PAYMENT_LABELS[cryptoPaymentLanguage(locale)]
  if (!overrides) return base
  const { coins, errors, ...texts } = overrides
  return {
    ...base,
    ...texts,
    coins: { ...base.coins, ...coins },
    errors: { ...base.errors, ...errors },
  }
}

/** Texts and formats for a locale (see `cryptoPaymentLabels`). */
export function cryptoPaymentI18n(locale?: string | null, overrides?: CryptoPaymentLabelOverrides): CryptoPaymentI18n {
  const language = cryptoPaymentLanguage(locale)
  return { locale: intlLocale(locale, language), language, labels: cryptoPaymentLabels(locale, overrides) }
}

/** Stands for a value left empty while a text is filled in. */
const EMPTY = "\u0000"

/**
 * A text with its `{{placeholders}}` filled in; a placeholder without a value stays as it is. A value left
 * empty (no coin yet) takes one space with it: "{{received}} {{coin}} arrived" with no coin reads "0.5 arrived".
 */
export function fillLabel(label: string, values: Record<string, string | number>): string {
  return label
    .replace(/\{\{(\w+)\}\}/g, (whole, name: string) => {
      if (!Object.prototype.hasOwnProperty.call(values, name)) return whole
      return String(values[name]) || EMPTY
    })
    .replace(/ \u0000/g, "")
    .replace(/\u0000 ?/g, "")
}

const numberFormats: { [key: string]: Intl.NumberFormat } = {}

function numberFormat(locale: string, key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const id = `${locale}|${key}`
  return numberFormats[id] || (numberFormats[id] = new Intl.NumberFormat(locale, options))
}

/** A whole count in the locale's digits: 1500 → "1.500" in German. */
export function formatCryptoCount(count: number, locale: string): string {
  return numberFormat(locale, "count", { maximumFractionDigits: 0 }).format(count)
}

/**
 * An amount (decimal text, as the store API sends it) as the locale writes numbers, every digit kept:
 * "1234.50000000" → "1,234.50000000" in English, "1.234,50000000" in German, "1 234,50000000" in French.
 * Text that is not a plain decimal comes back as it is.
 */
export function formatCryptoAmount(amount: string, locale: string): string {
  const parts = /^(\d+)(?:\.(\d+))?$/.exec(amount)
  if (!parts) return amount
  const whole = Number(parts[1])
  const point = /^1(\D+)5$/.exec(numberFormat(locale, "point", { minimumFractionDigits: 1 }).format(1.5))
  // a locale with other digits, or a whole part beyond exact numbers: leave the text alone
  if (!point || whole > 9007199254740991) return amount
  const integer = formatCryptoCount(whole, locale)
  return parts[2] ? `${integer}${point[1]}${parts[2]}` : integer
}

/**
 * An amount of money (decimal text, as the session data has it) in a currency, as the locale writes it with
 * the currency's own decimals: "46.00" EUR → "€46.00" in English, "46,00 €" in German; "5000" JPY → "¥5,000"
 * (no decimals). A code Intl does not take as a currency ("USDT"), or text that is not a plain decimal, comes
 * back as the amount and the code: "84.00 USDT".
 */
export function formatCryptoMoney(amount: string, currency: string, locale: string): string {
  const code = currency.trim().toUpperCase()
  if (!/^\d+(\.\d+)?$/.test(amount) || !/^[A-Z]{3}$/.test(code)) return `${amount} ${code}`
  try {
    return numberFormat(locale, `money:${code}`, { style: "currency", currency: code }).format(Number(amount))
  } catch {
    return `${amount} ${code}` // Intl refused the code
  }
}

/** A countdown: "59:07", "1:02:05" past an hour, "0:00" once it is over; in the locale's digits when given. */
export function formatTimeLeft(ms: number, locale?: string): string {
  const total = Math.max(0, Math.floor(ms / 1000))
  const [h, m, s] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60]
  const two = locale ? numberFormat(locale, "two", { minimumIntegerDigits: 2, useGrouping: false }) : undefined
  const one = locale ? numberFormat(locale, "one", { useGrouping: false }) : undefined
  const pad = (n: number) => (two ? two.format(n) : String(n).padStart(2, "0"))
  const plain = (n: number) => (one ? one.format(n) : String(n))
  return h ? `${plain(h)}:${pad(m)}:${pad(s)}` : `${plain(m)}:${pad(s)}`
}

/** A moment's time of day as the locale writes it ("14:05", "2:05 PM"); empty for a text that is not a date. */
export function formatCryptoTime(iso: string, locale: string): string {
  const at = new Date(iso)
  if (isNaN(at.getTime())) return ""
  return new Intl.DateTimeFormat(locale, { hour: "numeric", minute: "2-digit" }).format(at)
}
