import {
  exceedsPercent,
  movedPercent,
  Ratio,
  ratioFixed,
  ratioOf,
  ratioText,
  USD_DECIMALS,
  usdAmountFor,
  usdPerUnit,
} from "../conversion"

const PUBLICATION = { rates: { USD: "1.0842", JPY: "162.53", GBP: "0.8610" } }
const rateOf = (currency: string): Ratio => {
  const rate = usdPerUnit(PUBLICATION, currency)
  if (!rate) throw new Error(`no rate for ${currency}`)
  return rate
}

describe("USD per unit of a store currency", () => {
  it.each([
    ["USD", 1n, 1n],
    ["EUR", 5421n, 5000n],
    // 1.0842 / 0.8610 = 10842 / 8610
    ["GBP", 1807n, 1435n],
    ["gbp", 1807n, 1435n],
    [" Gbp ", 1807n, 1435n],
    // 1.0842 / 162.53 = 108420 / 16253000
    ["JPY", 5421n, 812650n],
  ])("usdPerUnit(%p) = %p/%p", (currency, num, den) => {
    expect(usdPerUnit(PUBLICATION, currency)).toEqual({ num, den })
  })

  it("is undefined for a currency the file does not list", () => {
    expect(usdPerUnit(PUBLICATION, "CHF")).toBeUndefined()
    expect(usdPerUnit(PUBLICATION, "constructor")).toBeUndefined()
  })

  it("is undefined for anything but USD when the file has no USD rate", () => {
    const noUsd = { rates: { GBP: "0.8610" } }
    expect(usdPerUnit(noUsd, "EUR")).toBeUndefined()
    expect(usdPerUnit(noUsd, "GBP")).toBeUndefined()
    expect(usdPerUnit(noUsd, "USD")).toEqual({ num: 1n, den: 1n })
  })
})

describe("USD amount to ask for", () => {
  it("counts in cents", () => {
    expect(USD_DECIMALS).toBe(2)
  })

  it.each([
    // 46 × 1.0842 = 49.8732, rounded up
    ["46.00", "EUR", 0, "49.88"],
    // 86.10 / 0.8610 × 1.0842 is exactly 108.42: no drift from a rounded cross rate
    ["86.10", "GBP", 0, "108.42"],
    // 5000 × 1.0842 / 162.53 = 33.3538…
    ["5000", "JPY", 0, "33.36"],
    // 100 × 1.0842 × 1.015 = 110.0463
    ["100.00", "EUR", 1.5, "110.05"],
    ["100.00", "EUR", "1.5", "110.05"],
    // 50 × 1.0842 = 54.21 exactly: not bumped to 54.22
    ["50.00", "EUR", 0, "54.21"],
    ["50", "EUR", "0.000", "54.21"],
    // 100 × 1.0842 × 1.10 = 119.262
    ["100.00", "EUR", 10, "119.27"],
    // 0.01 × 1.0842 = 0.010842: a fraction of a cent still costs a cent
    ["0.01", "EUR", 0, "0.02"],
    ["0", "EUR", 0, "0.00"],
    ["19.99", "USD", 0, "19.99"],
    // 19.99 × 1.025 = 20.48975
    ["19.99", "USD", 2.5, "20.49"],
  ])("%s %s with %p %% markup → %s USD", (amount, currency, markup, usd) => {
    expect(usdAmountFor(amount, rateOf(currency), markup)).toBe(usd)
  })

  it("rounds up a product that is one step of the rate above a cent", () => {
    // 1 × 1.0000001 = 1.0000001 → 1.01, where rounding half-up would give 1.00
    expect(usdAmountFor("1", ratioOf("1.0000001"))).toBe("1.01")
  })

  it.each([[10.01], ["10.0000001"], [-1], ["-0.5"], [Number.NaN], [Number.POSITIVE_INFINITY], ["abc"], ["1e1"]])(
    "refuses a markup of %p",
    (markup) => {
      expect(() => usdAmountFor("100.00", rateOf("EUR"), markup as string | number)).toThrow(RangeError)
    }
  )

  it.each([["-1.00"], ["1e2"], ["12,50"], [""], ["abc"]])("refuses a store amount of %p", (amount) => {
    expect(() => usdAmountFor(amount, rateOf("EUR"))).toThrow(RangeError)
  })

  it("refuses a rate that is not positive", () => {
    expect(() => usdAmountFor("1.00", { num: 0n, den: 1n })).toThrow(RangeError)
    expect(() => usdAmountFor("1.00", { num: -1n, den: 1n })).toThrow(RangeError)
    expect(() => usdAmountFor("1.00", { num: 1n, den: 0n })).toThrow(RangeError)
  })
})

describe("ratios from and to decimal text", () => {
  it.each([
    ["1.0842", 5421n, 5000n],
    ["0.8610", 861n, 1000n],
    ["162.53", 16253n, 100n],
    ["007", 7n, 1n],
    ["0", 0n, 1n],
    ["-2.5", -5n, 2n],
  ])("ratioOf(%p) = %p/%p", (text, num, den) => {
    expect(ratioOf(text)).toEqual({ num, den })
  })

  it.each([["1e3"], [""], ["abc"], ["1."], [".5"], ["1,5"], ["NaN"], ["0x10"]])("ratioOf(%p) throws", (text) => {
    expect(() => ratioOf(text)).toThrow(RangeError)
  })

  it.each([
    [10842n, 8610n, 18, "1.25923344947735192"],
    [10842n, 8610n, 12, "1.25923344948"],
    [657856n, 100000000n, 18, "0.00657856"],
    [108420n, 16253000n, 18, "0.00667076847351258229"],
    [1n, 3n, 18, "0.333333333333333333"],
    [2n, 3n, 5, "0.66667"],
    [-1n, 3n, 3, "-0.333"],
    [1n, 8n, 2, "0.13"],
    [1n, 4n, 18, "0.25"],
    [123456789n, 1n, 3, "123000000"],
    [999995n, 100000n, 5, "10"],
    [5421n, 5000n, 18, "1.0842"],
    [0n, 7n, 18, "0"],
    [1n, 7n, 30, "0.142857142857142857142857142857"],
    [1n, 10n ** 30n, 18, "0.000000000000000000000000000001"],
  ])("ratioText(%p/%p, %i) = %s", (num, den, significant, text) => {
    expect(ratioText({ num, den }, significant)).toBe(text)
  })

  it("writes the default 18 significant digits", () => {
    expect(ratioText({ num: 10842n, den: 8610n })).toBe("1.25923344947735192")
  })

  it("refuses a count of significant digits below one", () => {
    expect(() => ratioText({ num: 1n, den: 3n }, 0)).toThrow(RangeError)
  })

  it.each([
    [{ num: 234n, den: 10n }, "23.4"],
    [{ num: 2345n, den: 100n }, "23.5"],
    [{ num: 2344n, den: 100n }, "23.4"],
    [{ num: 20n, den: 1n }, "20.0"],
  ])("ratioFixed(%p, 1) = %s", (r, text) => {
    expect(ratioFixed(r, 1)).toBe(text)
  })
})

describe("how far a rate moved", () => {
  it.each([
    ["1.00", "1.20", "20"],
    ["1.20", "1.00", "16.6666666666666667"],
    ["1.0842", "1.0842", "0"],
    ["0.8610", "0.9471", "10"],
  ])("from %s to %s is %s %%", (before, after, percent) => {
    expect(ratioText(movedPercent(ratioOf(before), ratioOf(after)))).toBe(percent)
  })

  it("cannot measure a move from zero", () => {
    expect(() => movedPercent(ratioOf("0"), ratioOf("1"))).toThrow(RangeError)
  })

  it.each([
    ["20", 20, false],
    ["20.0000000001", 20, true],
    ["19.9999999999", 20, false],
    ["2", 1.5, true],
    ["1.5", 1.5, false],
  ])("exceedsPercent(%s, %p) = %p", (value, limit, expected) => {
    expect(exceedsPercent(ratioOf(value), limit)).toBe(expected)
  })
})
