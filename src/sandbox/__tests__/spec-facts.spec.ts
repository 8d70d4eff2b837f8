/**
 * The sandbox keeps its own copy of the spec's facts (../spec-facts.ts) and its own exact
 * arithmetic (../decimal.ts), so that it shares no misreading with the plugin it stands in for.
 * These tests put the two side by side: a failure here is a disagreement to settle against the spec.
 */
import * as plugin from "../../lib/crypto-api/constants"
import * as pluginDecimal from "../../lib/domain/decimal"
import * as facts from "../spec-facts"
import * as decimal from "../decimal"

describe("the plugin's constants and the sandbox's facts of the spec", () => {
  it.each([
    "COINS",
    "INVOICE_AMOUNT_CURRENCIES",
    "PAYMENT_AMOUNT_CURRENCIES",
    "PAYMENT_STATUSES",
    "REQUIRED_CONFIRMATIONS",
    "EXPIRATION_MINUTES",
  ] as const)("agree on %s", (name) => {
    expect(plugin[name]).toEqual(facts[name])
  })

  it("agree on the coins' decimals: the plugin parses at the native ones, shows at least the quoted ones", () => {
    expect(plugin.COIN_DECIMALS).toEqual(facts.NATIVE_COIN_DECIMALS)
    expect(plugin.COIN_SHOWN_DECIMALS).toEqual(facts.COIN_DECIMALS)
  })

  it("agree on which codes are coins", () => {
    for (const value of [...facts.COINS, "btc", "USDT", "USD", "", undefined, 3]) {
      expect(plugin.isCoin(value)).toBe(facts.isCoin(value))
    }
  })

  it("agree that every status but PENDING is final (the spec: stop polling at COMPLETED, EXPIRED or FAILED)", () => {
    expect([...plugin.FINAL_STATUSES].sort()).toEqual(
      facts.PAYMENT_STATUSES.filter((status) => status !== "PENDING").sort()
    )
  })
})

/** What a call returns, or the error it throws (the sandbox answers some of them as 409s). */
function outcome<T>(call: () => T): { value: T } | { error: string } {
  try {
    return { value: call() }
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` }
  }
}

describe("the sandbox's decimal arithmetic and the plugin's", () => {
  const numbers = [
    0,
    -0,
    1,
    25,
    0.1,
    0.5,
    82.5,
    65000,
    1e-7,
    1.5e-7,
    -2.5e-8,
    123456789.123456,
    1e21,
    1.2345e22,
    5e-324,
    NaN,
    Infinity,
  ]
  const texts = [
    "0",
    "12.345",
    " 7.1 ",
    "0.000000015",
    "0.000000014999",
    "-3.999999995",
    "100",
    "0.5",
    "1.",
    ".5",
    "abc",
    "1e5",
    "",
  ]
  const places = [0, 2, 6, 8]

  it.each(numbers)("write %p the same way", (value) => {
    expect(outcome(() => decimal.numberToDecimalString(value))).toEqual(
      outcome(() => pluginDecimal.numberToDecimalString(value))
    )
  })

  it.each([...numbers, ...texts])("read %p into the same units", (value) => {
    for (const decimals of places) {
      expect(outcome(() => decimal.toUnits(value, decimals))).toEqual(
        outcome(() => pluginDecimal.toUnits(value, decimals))
      )
    }
  })

  it("format units the same way", () => {
    for (const units of [0n, 1n, 5n, -5n, 99n, 100n, 123456789n, -123456789n, 10n ** 20n]) {
      for (const decimals of places)
        expect(decimal.fromUnits(units, decimals)).toBe(pluginDecimal.fromUnits(units, decimals))
    }
  })

  it("divide rounding up the same way", () => {
    for (const [a, b] of [
      [10n, 5n],
      [11n, 5n],
      [1n, 3n],
      [0n, 7n],
      [-11n, 5n],
      [5n, 0n],
      [5n, -1n],
    ]) {
      expect(outcome(() => decimal.divideRoundingUp(a, b))).toEqual(outcome(() => pluginDecimal.divideRoundingUp(a, b)))
    }
  })
})
