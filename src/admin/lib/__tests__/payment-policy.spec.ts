import { actorText, policyFieldLabel, policyValueText } from "../payment-labels"
import { overridesDefault, parseTolerancePercent, policyUpdate } from "../payment-policy"
import type { CryptoSetting } from "../payment-types"
import { translator } from "../../i18n/__tests__/messages"
import { CONFIG_SECRETS, RATES_OFF } from "../../__tests__/fixtures"

const setting = (over: Partial<CryptoSetting> = {}): CryptoSetting => ({
  provider_id: "pp_crypto_crypto",
  underpayment_tolerance_percent: 0.5,
  late_payments: "flag",
  late_window_hours: 24,
  defaults: { underpayment_tolerance_percent: 0, late_payments: "flag" },
  saved: { underpayment_tolerance_percent: 0.5, late_payments: null },
  updated_at: "2026-11-02T10:00:00.000Z",
  updated_by: "user_1",
  exchange_rates: RATES_OFF,
  secrets: CONFIG_SECRETS,
  ...over,
})

describe("the underpayment tolerance as typed", () => {
  it.each([
    ["0", 0],
    ["1", 1],
    [" 1.5 ", 1.5],
    ["0.01", 0.01],
    ["4.99", 4.99],
    ["5", 5],
    ["5.00", 5],
  ])("reads %j as %s %", (text, percent) => {
    expect(parseTolerancePercent(text)).toBe(percent)
  })

  it.each([
    ["nothing", ""],
    ["more than 5 %", "5.01"],
    ["a negative percent", "-1"],
    ["three decimals", "0.125"],
    ["a comma", "1,5"],
    ["text", "one"],
    ["an exponent", "1e0"],
  ])("refuses %s", (_, text) => {
    expect(parseTolerancePercent(text)).toBeNull()
  })
})

describe("what Save posts", () => {
  it.each([
    ["nothing touched", {}],
    ["the tolerance typed back to what applies", { underpayment_tolerance_percent: "0.50" }],
    ["the late payments picked back to what applies", { late_payments: "flag" as const }],
    ["a tolerance that is not a percent", { underpayment_tolerance_percent: "7", late_payments: "fulfil" as const }],
  ])("nothing when %s", (_, edits) => {
    expect(policyUpdate(setting(), edits)).toBeNull()
  })

  it.each([
    ["the tolerance alone", { underpayment_tolerance_percent: "1" }, { underpayment_tolerance_percent: 1 }],
    ["the late payments alone", { late_payments: "fulfil" as const }, { late_payments: "fulfil" }],
    [
      "both fields",
      { underpayment_tolerance_percent: "1", late_payments: "fulfil" as const },
      { underpayment_tolerance_percent: 1, late_payments: "fulfil" },
    ],
    [
      "only the changed one of two touched fields",
      { underpayment_tolerance_percent: "0.5", late_payments: "fulfil" as const },
      { late_payments: "fulfil" },
    ],
    [
      "a value equal to the default, saved over it",
      { underpayment_tolerance_percent: "0" },
      { underpayment_tolerance_percent: 0 },
    ],
  ])("%s, with the provider", (_, edits, changed) => {
    expect(policyUpdate(setting(), edits)).toEqual({ provider_id: "pp_crypto_crypto", ...changed })
  })
})

describe("a setting's default and saved value", () => {
  it("tells a saved value from the default", () => {
    expect(overridesDefault(setting(), "underpayment_tolerance_percent")).toBe(true)
    expect(overridesDefault(setting(), "late_payments")).toBe(false)
    expect(overridesDefault(setting({ saved: null }), "underpayment_tolerance_percent")).toBe(false)
  })

  it("counts a saved 0 % as overriding", () => {
    const saved = { underpayment_tolerance_percent: 0, late_payments: null }
    expect(overridesDefault(setting({ saved }), "underpayment_tolerance_percent")).toBe(true)
  })
})

describe("the change log's words", () => {
  it.each([
    ["underpayment_tolerance_percent", "1", "1%"],
    ["underpayment_tolerance_percent", 0.5, "0.5%"],
    ["underpayment_tolerance_percent", null, "default"],
    ["late_payments", "flag", "Flag"],
    ["late_payments", "fulfil", "Keep awaiting payment"],
    ["late_payments", null, "default"],
  ] as const)("%s %j reads %j", (field, value, text) => {
    expect(policyValueText(translator("en"), "en", field, value)).toBe(text)
  })

  it.each([
    ["underpayment_tolerance_percent", "1.5", "1,5 %"],
    ["underpayment_tolerance_percent", null, "Standard"],
    ["late_payments", "fulfil", "Weiter auf Zahlung warten"],
  ] as const)("in German, %s %j reads %j", (field, value, text) => {
    // Intl puts a no-break space between the number and the sign
    expect(policyValueText(translator("de"), "de", field, value).replace(/\s/g, " ")).toBe(text)
  })

  it("names accepted exchange rates by their publication dates, none before the first", () => {
    const en = translator("en")
    expect(policyFieldLabel(en, "exchange_rates")).toBe("Exchange rates")
    expect(policyFieldLabel(translator("fr"), "exchange_rates")).toBe("Taux de change")
    expect(policyValueText(en, "en", "exchange_rates", "2026-11-24")).toBe("2026-11-24")
    expect(policyValueText(en, "en", "exchange_rates", null)).toBe("none")
    expect(policyValueText(translator("de"), "de", "exchange_rates", null)).toBe("keine")
  })

  it.each([
    ["the admin's email", { actor_email: "admin@shop.test", actor_id: "user_1" }, "admin@shop.test"],
    ["the user id without an email", { actor_email: null, actor_id: "user_1" }, "user_1"],
    ["a dash for nobody", { actor_email: null, actor_id: null }, "—"],
  ])("names who changed it: %s", (_, change, text) => {
    expect(actorText(change)).toBe(text)
  })
})
