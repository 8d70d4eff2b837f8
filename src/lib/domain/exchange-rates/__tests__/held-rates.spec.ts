import { agrees, JUMP_LIMIT_PERCENT, jumps } from "../held-rates"

const STORED = { rates: { USD: "1.0842", JPY: "162.53", GBP: "0.8610" } }
const withRates = (rates: Record<string, string>) => ({ rates: { ...STORED.rates, ...rates } })

describe("a rate that jumps", () => {
  it("holds moves of more than 20 % by default", () => {
    expect(JUMP_LIMIT_PERCENT).toBe(20)
  })

  it("finds nothing between identical files", () => {
    expect(jumps(STORED, withRates({}))).toEqual([])
  })

  it.each([
    // USD per JPY up 23.3999 % (yen from 162.53 to 131.71 per EUR)
    [{ JPY: "131.71" }, [{ currency: "JPY", percent: "23.4" }]],
    // USD per GBP up exactly 20 % (0.8610 / 1.2 = 0.7175): not a jump
    [{ GBP: "0.7175" }, []],
    [{ GBP: "0.7174" }, [{ currency: "GBP", percent: "20.0" }]],
    // USD per GBP down exactly 20 % (0.8610 / 0.8 = 1.07625): not a jump
    [{ GBP: "1.07625" }, []],
    [{ GBP: "1.0763" }, [{ currency: "GBP", percent: "20.0" }]],
    // USD per JPY down 20.003 %
    [{ JPY: "203.17" }, [{ currency: "JPY", percent: "20.0" }]],
    [{ JPY: "150.00", GBP: "0.8700" }, []],
  ])("between the stored file and %p: %p", (fetched, expected) => {
    expect(jumps(STORED, withRates(fetched))).toEqual(expected)
  })

  it("counts EUR, and a jump of USD moves every currency", () => {
    expect(jumps(STORED, withRates({ USD: "1.3200" }))).toEqual([
      { currency: "EUR", percent: "21.7" },
      { currency: "GBP", percent: "21.7" },
      { currency: "JPY", percent: "21.7" },
    ])
  })

  it("does not count exactly 20 % for EUR", () => {
    const stored = { rates: { USD: "1.0000", GBP: "0.8000" } }
    expect(jumps(stored, { rates: { USD: "1.2000", GBP: "0.9600" } })).toEqual([])
    expect(jumps(stored, { rates: { USD: "1.2001", GBP: "0.9600" } })).toEqual([{ currency: "EUR", percent: "20.0" }])
  })

  it("compares only the currencies both files list", () => {
    const fetched = { rates: { USD: "1.0842", GBP: "0.8610", ISK: "1.00" } }
    expect(jumps(STORED, fetched)).toEqual([])
  })

  it("takes another limit", () => {
    expect(jumps(STORED, withRates({ JPY: "150.00" }), 5)).toEqual([{ currency: "JPY", percent: "8.4" }])
    expect(jumps(STORED, withRates({ JPY: "150.00" }), 10)).toEqual([])
  })

  it("refuses files without a USD rate", () => {
    expect(() => jumps({ rates: { GBP: "0.8610" } }, STORED)).toThrow(RangeError)
    expect(() => jumps(STORED, { rates: { GBP: "0.8610" } })).toThrow(RangeError)
  })
})

describe("a later file agreeing with a held one", () => {
  it.each([
    [{}, true],
    [{ JPY: "131.71" }, false],
    // USD per GBP 1.5 % higher
    [{ GBP: "0.8483" }, true],
    [{ GBP: "0.8400" }, false],
  ])("the held file and %p agree: %p", (later, expected) => {
    expect(agrees(STORED, withRates(later))).toBe(expected)
  })

  it("measures from the smaller value, so the order of the files does not matter", () => {
    const held = { rates: { USD: "1.00", GBP: "0.80" } }
    // 2 % above: within the tolerance both ways
    const up2 = { rates: { USD: "1.02", GBP: "0.816" } }
    // 2.01 % above, but only 1.97 % below when measured from the larger value
    const up201 = { rates: { USD: "1.0201", GBP: "0.8161" } }
    expect(agrees(held, up2)).toBe(true)
    expect(agrees(up2, held)).toBe(true)
    expect(agrees(held, up201)).toBe(false)
    expect(agrees(up201, held)).toBe(false)
  })

  it("takes another tolerance", () => {
    expect(agrees(STORED, withRates({ GBP: "0.8400" }), 3)).toBe(true)
    expect(agrees(STORED, withRates({ GBP: "0.8400" }), 2)).toBe(false)
  })

  it("does not agree when a currency is in one file only", () => {
    expect(agrees(STORED, withRates({ ISK: "150.10" }))).toBe(false)
    expect(agrees(withRates({ ISK: "150.10" }), STORED)).toBe(false)
    const withoutJpy = { rates: { USD: "1.0842", GBP: "0.8610" } }
    expect(agrees(STORED, withoutJpy)).toBe(false)
  })

  it("does not agree without USD on both sides", () => {
    const noUsd = { rates: { GBP: "0.8610" } }
    expect(agrees(noUsd, noUsd)).toBe(false)
    expect(agrees(STORED, noUsd)).toBe(false)
  })
})
