import { CHANGES, CONFIG_SECRETS, SAVED_SECRETS, UNREADABLE_SECRETS } from "../../__tests__/fixtures"
import { translator } from "../../i18n/__tests__/messages"
import { formatDateTime } from "../format"
import { actorText, policyFieldLabel, policyValueText } from "../payment-labels"
import type { CryptoSettingChange } from "../payment-types"
import {
  acceptedSecretsText,
  apiKeySaver,
  apiKeySourceText,
  apiKeyToSend,
  apiKeyTypedWrong,
  currentLastFourToSend,
  currentLastFourTypedWrong,
  maskedKey,
  webhookSecretSourceText,
  webhookSecretWarns,
} from "../provider-keys"

const en = translator("en")
const de = translator("de")

const keyChange = (over: Partial<CryptoSettingChange>): CryptoSettingChange => ({
  id: "chg_key",
  provider_id: "pp_crypto_crypto",
  field: "api_key",
  from: null,
  to: "…7Q9Z",
  actor_id: "user_1",
  actor_email: "admin@shop.test",
  created_at: "2026-11-25T09:30:00.000Z",
  ...over,
})

describe("the API key in use", () => {
  it("shows four dots and the last four characters, never more", () => {
    expect(maskedKey("7Q9Z")).toBe("••••7Q9Z")
  })

  it("comes from medusa-config.ts until one is saved from the admin", () => {
    expect(apiKeySourceText(en, "en", "pp_crypto_crypto", CONFIG_SECRETS.api_key, CHANGES)).toBe(
      "from medusa-config.ts"
    )
    expect(apiKeySourceText(de, "de", "pp_crypto_crypto", CONFIG_SECRETS.api_key, CHANGES)).toBe("aus medusa-config.ts")
  })

  it("names who saved it from the admin, by the change log's email, and when", () => {
    const date = formatDateTime(SAVED_SECRETS.api_key.saved_at!, "en")
    expect(apiKeySourceText(en, "en", "pp_crypto_crypto", SAVED_SECRETS.api_key, CHANGES)).toBe(
      `saved from the admin by admin@shop.test on ${date}`
    )
  })

  it("is medusa-config's while a saved key does not open (the server says option then)", () => {
    expect(apiKeySourceText(en, "en", "pp_crypto_other", UNREADABLE_SECRETS.api_key, CHANGES)).toBe(
      "from medusa-config.ts"
    )
  })

  it.each([
    ["the email of that user's newest key change", [keyChange({})], "admin@shop.test"],
    ["the user id when the log names no email", [keyChange({ actor_email: null })], "user_1"],
    ["the user id when the log's change is another user's", [keyChange({ actor_id: "user_9" })], "user_1"],
    ["the user id when the change is another provider's", [keyChange({ provider_id: "pp_crypto_other" })], "user_1"],
    ["the user id when the change is of another field", [keyChange({ field: "late_payments" })], "user_1"],
    ["the user id without a log", [], "user_1"],
  ])("names the saver by %s", (_, changes, who) => {
    expect(apiKeySaver("pp_crypto_crypto", SAVED_SECRETS.api_key, changes)).toBe(who)
  })

  it("names nobody when the server names no saver, and says so with a dash", () => {
    const apiKey = { ...SAVED_SECRETS.api_key, saved_by: null, saved_at: null }
    expect(apiKeySaver("pp_crypto_crypto", apiKey, CHANGES)).toBeNull()
    expect(apiKeySourceText(en, "en", "pp_crypto_crypto", apiKey, CHANGES)).toBe("saved from the admin by — on —")
  })
})

describe("a pasted API key", () => {
  it.each([
    ["a key", "sk_live_4f9a7Q9Z", "sk_live_4f9a7Q9Z"],
    ["a key pasted with spaces around it", "  sk_live_4f9a7Q9Z\n", "sk_live_4f9a7Q9Z"],
    ["eight characters", "abcd1234", "abcd1234"],
    ["500 characters", "k".repeat(500), "k".repeat(500)],
  ])("is sent when it is %s", (_, typed, sent) => {
    expect(apiKeyToSend(typed)).toBe(sent)
    expect(apiKeyTypedWrong(typed)).toBe(false)
  })

  it.each([
    ["seven characters", "abc1234"],
    ["501 characters", "k".repeat(501)],
    ["a space inside", "sk_live 4f9a7Q9Z"],
    ["a character beyond ASCII", "sk_live_4f9a7Q9Ž"],
  ])("is not sent, and says why, with %s", (_, typed) => {
    expect(apiKeyToSend(typed)).toBeNull()
    expect(apiKeyTypedWrong(typed)).toBe(true)
  })

  it("says nothing while nothing is typed", () => {
    expect(apiKeyToSend("  ")).toBeNull()
    expect(apiKeyTypedWrong("")).toBe(false)
    expect(apiKeyTypedWrong("  ")).toBe(false)
  })
})

describe("the last four characters that confirm a key change", () => {
  it("are sent as typed, trimmed, when there are as many as the panel shows", () => {
    expect(currentLastFourToSend(" 7Q9Z ", "7Q9Z")).toBe("7Q9Z")
    // the server decides whether they are the key's
    expect(currentLastFourToSend("abcd", "7Q9Z")).toBe("abcd")
    expect(currentLastFourTypedWrong("abcd", "7Q9Z")).toBe(false)
    expect(currentLastFourToSend("xyz", "xyz")).toBe("xyz")
  })

  it("are not sent, and say why, when too few or too many", () => {
    for (const typed of ["7Q9", "47Q9Z", "••••7Q9Z"]) {
      expect(currentLastFourToSend(typed, "7Q9Z")).toBeNull()
      expect(currentLastFourTypedWrong(typed, "7Q9Z")).toBe(true)
    }
  })

  it("say nothing while nothing is typed", () => {
    expect(currentLastFourToSend(" ", "7Q9Z")).toBeNull()
    expect(currentLastFourTypedWrong(" ", "7Q9Z")).toBe(false)
    expect(en("policy.keys.currentLastFourInvalid", { number: 4 })).toBe("Type the 4 characters shown after the dots.")
  })
})

describe("the webhook secret", () => {
  it.each([
    ["option", "configured webhookSecret", false],
    ["generated", "generated by the plugin, stored sealed", false],
    ["api_key", "derived from the API key — set webhookSecret (or CRYPTO_SECRETS_KEY) before you rotate the key", true],
  ])("from %s reads %j (amber: %s)", (source, text, warns) => {
    expect(webhookSecretSourceText(en, source)).toBe(text)
    expect(webhookSecretWarns(source)).toBe(warns)
  })

  it("shows a source this admin does not know as its code", () => {
    expect(webhookSecretSourceText(en, "vault")).toBe("vault")
  })

  it("counts the older secrets still accepted, none said when there are none", () => {
    expect(acceptedSecretsText(en, 0)).toBeNull()
    expect(acceptedSecretsText(en, 1)).toBe("1 older secret still accepted")
    expect(acceptedSecretsText(en, 3)).toBe("3 older secrets still accepted")
    expect(acceptedSecretsText(de, 2)).toBe("2 ältere Geheimnisse werden noch akzeptiert")
  })
})

describe("an API key change in the change log", () => {
  it("reads as the key's last four from and to, medusa-config.ts before the first saved one, by whom", () => {
    const first = keyChange({ from: null, to: "…ab12" })
    const next = keyChange({ from: "…ab12", to: "…7Q9Z", actor_email: null })
    const line = (change: CryptoSettingChange) =>
      `${policyFieldLabel(en, change.field)}: ${policyValueText(en, "en", change.field, change.from)} → ${policyValueText(en, "en", change.field, change.to)} by ${actorText(change)}`
    expect(line(first)).toBe("API key: medusa-config.ts → …ab12 by admin@shop.test")
    expect(line(next)).toBe("API key: …ab12 → …7Q9Z by user_1")
    expect(policyFieldLabel(translator("fr"), "api_key")).toBe("Clé API")
  })
})
