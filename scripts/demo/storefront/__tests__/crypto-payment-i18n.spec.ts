import {
  cryptoPaymentI18n,
  cryptoPaymentLabels,
  cryptoPaymentLanguage,
  fillLabel,
  formatCryptoAmount,
  formatCryptoCount,
  formatCryptoTime,
  formatTimeLeft,
} from "../../../../docs/storefront/crypto-payment-i18n"
import { CRYPTO_PAYMENT_LABELS, CryptoPaymentLabels } from "../../../../docs/storefront/crypto-payment-labels"
import { CRYPTO_ERROR_CODES } from "../../../../docs/storefront/crypto-payment-errors"
import { COINS, CryptoPaymentView, describeCryptoVerdict } from "../../../../docs/storefront/crypto-payment"

/** Every text of a label set, by its path ("detailShort", "coins.BTC", "errors.crypto.payment_expired"). */
function texts(labels: CryptoPaymentLabels): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(labels)) {
    if (typeof value === "string") out[key] = value
    else for (const [inner, text] of Object.entries(value as Record<string, string>)) out[`${key}.${inner}`] = text
  }
  return out
}

const placeholders = (text: string) => (text.match(/\{\{\w+\}\}/g) ?? []).sort()
const ENGLISH = texts(CRYPTO_PAYMENT_LABELS.en)
const OTHERS = (["de", "fr", "es"] as const).map(
  (language) => [language, texts(CRYPTO_PAYMENT_LABELS[language])] as const
)

describe("the built-in labels", () => {
  it("name every coin and every error code, and Medusa's conflict", () => {
    expect(Object.keys(CRYPTO_PAYMENT_LABELS.en.coins).sort()).toEqual([...COINS].sort())
    expect(Object.keys(CRYPTO_PAYMENT_LABELS.en.errors).sort()).toEqual([...CRYPTO_ERROR_CODES, "conflict"].sort())
  })

  it("have no empty text", () => {
    for (const language of Object.keys(CRYPTO_PAYMENT_LABELS) as Array<keyof typeof CRYPTO_PAYMENT_LABELS>) {
      for (const [key, text] of Object.entries(texts(CRYPTO_PAYMENT_LABELS[language]))) {
        expect([language, key, text.trim() === ""]).toEqual([language, key, false])
      }
    }
  })

  describe.each(OTHERS)("%s", (language, translated) => {
    it("has exactly the English keys", () => {
      expect(Object.keys(translated).sort()).toEqual(Object.keys(ENGLISH).sort())
    })

    it("keeps every text's placeholders", () => {
      for (const key of Object.keys(ENGLISH)) {
        expect([key, placeholders(translated[key])]).toEqual([key, placeholders(ENGLISH[key])])
      }
    })

    it("translates the sentences (only names and codes may read as in English)", () => {
      const same = Object.keys(ENGLISH).filter((key) => translated[key] === ENGLISH[key] && /\s/.test(ENGLISH[key]))
      // "Confirmations" is French too; coin names such as "Bitcoin" have no space
      expect(same.filter((key) => !(language === "fr" && key === "confirmations"))).toEqual([])
    })
  })
})

describe("choosing the language and the formats", () => {
  it.each([
    ["de", "de"],
    ["de-DE", "de"],
    ["de_AT", "de"],
    ["FR-ca", "fr"],
    ["es-419", "es"],
    ["en-GB", "en"],
    ["pt-BR", "en"],
    ["", "en"],
    [undefined, "en"],
    [null, "en"],
  ])("%j speaks %s", (locale, language) => {
    expect(cryptoPaymentLanguage(locale)).toBe(language)
    expect(cryptoPaymentLabels(locale)).toBe(CRYPTO_PAYMENT_LABELS[language as "en"])
  })

  it("formats for the tag given, or its language when Intl cannot", () => {
    expect(cryptoPaymentI18n("de-CH")).toMatchObject({ locale: "de-CH", language: "de" })
    expect(cryptoPaymentI18n("pt-BR")).toMatchObject({ locale: "pt-BR", language: "en" })
    expect(cryptoPaymentI18n("not a tag!")).toMatchObject({ locale: "en", language: "en" })
    expect(cryptoPaymentI18n()).toMatchObject({ locale: "en", language: "en" })
  })

  it("puts overrides on top of the language's texts, at any depth", () => {
    const labels = cryptoPaymentLabels("de", {
      copy: "Kopie",
      coins: { BTC: "Bitcoin (BTC)" },
      errors: { "crypto.payment_expired": "Leider abgelaufen." },
    })
    expect(labels).toMatchObject({ copy: "Kopie", copied: "Kopiert", titlePaid: "Bezahlt" })
    expect(labels.coins).toMatchObject({ BTC: "Bitcoin (BTC)", ETH: "Ether" })
    expect(labels.errors["crypto.payment_expired"]).toBe("Leider abgelaufen.")
    expect(labels.errors["crypto.payment_failed"]).toBe(CRYPTO_PAYMENT_LABELS.de.errors["crypto.payment_failed"])
    // a language not built in starts from English
    expect(cryptoPaymentLabels("it", { copy: "Copia" })).toMatchObject({ copy: "Copia", copied: "Copied" })
  })

  it.each([
    ["en", "1234.50000000", "1,234.50000000"],
    ["de", "1234.50000000", "1.234,50000000"],
    ["fr", "1234.5", "1\u202f234,5"],
    ["es", "0.0013", "0,0013"],
    ["de-CH", "0.00000001", "0.00000001"],
    ["en", "84", "84"],
    ["de", "1e-7", "1e-7"],
  ])("writes the amount in %s, every digit kept: %s → %s", (locale, amount, text) => {
    expect(formatCryptoAmount(amount, locale)).toBe(text)
  })

  it("counts and counts down in the locale's digits", () => {
    expect(formatCryptoCount(1500, "de")).toBe("1.500")
    expect(formatTimeLeft(59 * 60_000 + 7_000, "de")).toBe("59:07")
    expect(formatTimeLeft(3_725_000, "fr")).toBe("1:02:05")
  })

  it("writes the expiry's time of day as the locale does", () => {
    const at = "2026-11-22T12:05:00.000Z"
    expect(formatCryptoTime(at, "de")).toBe(
      new Intl.DateTimeFormat("de", { hour: "numeric", minute: "2-digit" }).format(new Date(at))
    )
    expect(formatCryptoTime(at, "en")).toMatch(/^\d{1,2}:05\s?[AP]M$/)
    expect(formatCryptoTime("", "en")).toBe("")
  })

  it("fills placeholders and drops the space of an empty one", () => {
    expect(fillLabel("{{received}} {{coin}} arrived: {{n}}.", { received: "0.5", coin: "BTC", n: 1 })).toBe(
      "0.5 BTC arrived: 1."
    )
    expect(fillLabel("{{received}} {{coin}} arrived.", { received: "0.5", coin: "" })).toBe("0.5 arrived.")
    expect(fillLabel("{{coin}} arrived: {{received}}", { received: "0.5", coin: "" })).toBe("arrived: 0.5")
    expect(fillLabel("Total : {{n}}", { n: 2 })).toBe("Total : 2")
    expect(fillLabel("Left {{unknown}}", {})).toBe("Left {{unknown}}")
  })

  it("describes a payment in German, with German numbers", () => {
    const view: CryptoPaymentView = {
      paymentId: "pay_1",
      kind: "payment",
      status: "PENDING",
      verdict: "short",
      final: false,
      confirmations: 0,
      requiredConfirmations: 3,
      receivedAmount: "0.001",
      requiredAmount: "0.0013",
      currency: "USDT_ERC20",
      address: "0xabc",
      qrCode: null,
      invoiceUrl: "https://pay.example.test/p/pay_1",
      expiresAt: "2026-11-22T12:00:00.000Z",
      underpaid: true,
      overpaid: false,
      checkedAt: "2026-11-22T11:00:00.000Z",
    }
    expect(describeCryptoVerdict(view, cryptoPaymentI18n("de-DE"))).toEqual({
      verdict: "short",
      title: "Teilweise bezahlt",
      detail:
        "0,001 von 0,0013 USDT ERC20 eingegangen. Senden Sie die restlichen 0,0003 USDT ERC20 an dieselbe Adresse, bevor das Zahlungsfenster schließt.",
    })
  })
})
