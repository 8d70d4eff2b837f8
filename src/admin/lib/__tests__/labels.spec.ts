import { COINS, PAYMENT_STATUSES as SERVICE_STATUSES } from "../../../lib/crypto-api/constants"
import { LEDGER_FLAGS } from "../../../modules/crypto-payment/types"
import { refund as owedRefund } from "../../__tests__/fixtures"
import { LANGUAGES, translator } from "../../i18n/__tests__/messages"
import type { MessageKey } from "../i18n"
import {
  FLAG_FILTERS,
  FLAGS,
  flagFilterLabel,
  flagLabel,
  healthCheckLabel,
  latePaymentsLabel,
  networkLabel,
  owedKindLabel,
  owedNowText,
  PAYMENT_STATUSES,
  statusLabel,
  TOKEN_COINS,
} from "../payment-labels"
import type { PaymentRefund } from "../payment-types"

const en = translator("en")
const de = translator("de")

describe("the server's codes as words of the admin's language", () => {
  it("knows every flag of the ledger (one list for both sides, from the server's pure types file)", () => {
    expect([...FLAGS]).toEqual([...LEDGER_FLAGS])
  })

  it("names every flag, and shows a flag it does not know as its code", () => {
    expect(flagLabel(en, "paid_late")).toBe("Paid late")
    expect(flagLabel(de, "paid_late")).toBe("Verspätet bezahlt")
    expect(flagLabel(de, "some_new_flag")).toBe("some_new_flag")
    for (const flag of FLAGS) expect(flagLabel(de, flag)).not.toBe(flag)
  })

  it("filters by the flags asking for work first, naming refund_owed for what it lists", () => {
    expect(FLAG_FILTERS.slice(0, 2)).toEqual(["needs_attention", "refund_owed"])
    expect([...FLAG_FILTERS].sort()).toEqual([...FLAGS].sort())
    expect(flagFilterLabel(en, "refund_owed")).toBe("Owed to customers")
    expect(flagFilterLabel(en, "refund_owed")).not.toBe(flagLabel(en, "refund_owed"))
  })

  it("knows every status of the service (the admin keeps its own list: its bundle takes no constants file of the server)", () => {
    expect([...PAYMENT_STATUSES]).toEqual([...SERVICE_STATUSES])
  })

  it("names statuses, and keeps one it does not know as the service wrote it", () => {
    expect(statusLabel(en, "COMPLETED")).toBe("Completed")
    expect(statusLabel(de, "PENDING")).toBe("Ausstehend")
    expect(statusLabel(de, "CONFIRMING")).toBe("CONFIRMING")
  })

  it("names the network of a token payment in every language, and none for a coin of its own chain", () => {
    expect(networkLabel(en, "USDT_ERC20")).toBe("USDT on Ethereum (ERC-20)")
    expect(networkLabel(en, "USDT_BEP20")).toBe("USDT on BNB Smart Chain (BEP-20)")
    expect(networkLabel(de, "USDT_BEP20")).toBe("USDT auf BNB Smart Chain (BEP-20)")
    expect(networkLabel(translator("fr"), "USDT_ERC20")).toBe("USDT sur Ethereum (ERC-20)")
    expect(networkLabel(translator("es"), "USDT_BEP20")).toBe("USDT en BNB Smart Chain (BEP-20)")
    for (const coin of ["BTC", "LTC", "ETH", null, "SOME_NEW_COIN"]) expect(networkLabel(en, coin)).toBeNull()
    // the service's tokens are its USDT_* coins (the admin keeps its own list)
    expect([...TOKEN_COINS]).toEqual(COINS.filter((coin) => coin.startsWith("USDT_")))
  })

  it("names the kinds of owed money", () => {
    expect(owedKindLabel(en, "excess")).toBe("Overpaid (excess)")
    expect(owedKindLabel(de, "late")).toBe("Verspätet bezahlt")
  })

  it("translates a health check's label by its id, and keeps the server's for a check it does not know", () => {
    expect(healthCheckLabel(de, { id: "api_key", label: "API key" })).toBe("API-Schlüssel")
    expect(healthCheckLabel(de, { id: "provider", label: "Crypto provider" })).toBe("Krypto-Anbieter")
    expect(healthCheckLabel(de, { id: "exchange_rates", label: "Exchange rates" })).toBe("Wechselkurse")
    expect(healthCheckLabel(de, { id: "disk_space", label: "Disk space" })).toBe("Disk space")
  })

  it("names the health levels with nouns and adjectives, never a command beside the panel's buttons", () => {
    expect(["green", "amber", "red"].map((level) => en(`health.levels.${level}` as MessageKey))).toEqual([
      "OK",
      "Attention",
      "Action needed",
    ])
    expect(de("health.levels.amber")).toBe("Achtung")
    expect(translator("fr")("health.levels.amber")).toBe("Attention")
    expect(translator("es")("health.levels.amber")).toBe("Atención")
    for (const language of LANGUAGES) {
      const t = translator(language)
      const buttons = [t("health.checkAgain"), t("health.acknowledge")].join(" ").toLowerCase()
      for (const level of ["green", "amber", "red"]) {
        const word = t(`health.levels.${level}` as MessageKey)
        expect(buttons).not.toContain(word.toLowerCase())
      }
    }
  })

  it("words the late-payment choices with the window", () => {
    expect(latePaymentsLabel(en, "fulfil", 24)).toMatch(/^Keep the order awaiting payment for 24 h after expiry/)
    expect(latePaymentsLabel(de, "fulfil", 24)).toContain("24 Std.")
    expect(latePaymentsLabel(de, "flag", 24)).toBe("Verspätete Zahlungen markieren, Bestellung bei Ablauf stornieren")
  })
})

describe("what to send now", () => {
  const refund = (over: Partial<PaymentRefund>) => owedRefund({ owed: true, coin: "BTC", ...over })

  it("gives the coins and about the base amount, in the language's numbers", () => {
    expect(owedNowText(en, "en", refund({ owed_now: "0.0012", owed_now_base: "1042.5" }), null)).toBe(
      "0.0012 BTC (≈ 1,042.5 EUR)"
    )
    expect(owedNowText(de, "de", refund({ owed_now: "0.0012", owed_now_base: "1042.5" }), null)).toBe(
      "0,0012 BTC (≈ 1.042,5 EUR)"
    )
  })

  it("gives the coins as a wallet sends them: rounded down by the server, the exact figure aside", () => {
    const eth = { coin: "ETH" as const, owed_now: "0.003336413333333333", owed_now_base: "10.84" }
    expect(owedNowText(en, "en", refund({ ...eth, owed_now_sendable: "0.00333641" }), null)).toBe(
      "0.00333641 ETH (≈ 10.84 EUR)"
    )
    // a server that sends no such figure: the exact coins
    expect(owedNowText(en, "en", refund(eth), null)).toBe("0.003336413333333333 ETH (≈ 10.84 EUR)")
  })

  it("says the base amount in the paid coin when the coins are unknown, and when nothing is known", () => {
    expect(owedNowText(en, "en", refund({ owed_now_base: "42", coin: null }), null)).toBe("≈ 42 EUR in the paid coin")
    expect(owedNowText(de, "de", refund({ owed_now_base: "42" }), null)).toBe("≈ 42 EUR in BTC")
    expect(owedNowText(de, "de", refund({}), null)).toBe("Betrag unbekannt")
  })
})
