import { divideRoundingUp, fromUnits, normaliseDecimal, numberToDecimalString, toUnits } from "../decimal"

describe("decimal amounts", () => {
  it.each([
    ["25", 2, 2500n],
    ["0.1", 8, 10000000n],
    ["0.00038462", 8, 38462n],
    ["19.99", 6, 19990000n],
    ["1.005", 2, 101n],
    ["1.004", 2, 100n],
    [0.1 + 0.2, 8, 30000000n],
    [1e-7, 8, 10n],
    ["-2.5", 1, -25n],
  ])("toUnits(%p, %i) = %p", (value, decimals, units) => {
    expect(toUnits(value as string | number, decimals)).toBe(units)
  })

  it.each([
    [38462n, 8, "0.00038462"],
    [2500n, 2, "25.00"],
    [0n, 6, "0.000000"],
    [7n, 0, "7"],
    [-5n, 2, "-0.05"],
  ])("fromUnits(%p, %i) = %p", (units, decimals, text) => {
    expect(fromUnits(units, decimals)).toBe(text)
  })

  it.each([
    [1e-7, "0.0000001"],
    [1.5e-9, "0.0000000015"],
    [1e21, "1000000000000000000000"],
    [25, "25"],
  ])("writes %p without an exponent", (value, text) => {
    expect(numberToDecimalString(value)).toBe(text)
  })

  it("rejects what is not a decimal amount", () => {
    expect(() => toUnits("1e5", 2)).toThrow(RangeError)
    expect(() => toUnits("abc", 2)).toThrow(RangeError)
    expect(() => toUnits(Number.NaN, 2)).toThrow(RangeError)
  })

  it("rounds a division up, never down", () => {
    expect(divideRoundingUp(10n, 3n)).toBe(4n)
    expect(divideRoundingUp(9n, 3n)).toBe(3n)
    expect(() => divideRoundingUp(1n, 0n)).toThrow(RangeError)
  })

  it("normalises to a fixed number of places", () => {
    expect(normaliseDecimal("0.5", 8)).toBe("0.50000000")
    expect(normaliseDecimal(25, 2)).toBe("25.00")
  })
})

describe("rounding beyond a precision", () => {
  it.each([
    ["0.123456785", "half-up", 12345679n],
    ["0.123456784", "half-up", 12345678n],
    ["0.123456789", "down", 12345678n],
    ["0.123456781", "up", 12345679n],
    ["0.123456780", "up", 12345678n],
    ["0.12345678", "up", 12345678n],
  ] as const)("toUnits(%p, 8, %s) = %p", (value, rounding, units) => {
    expect(toUnits(value, 8, rounding)).toBe(units)
  })
})
