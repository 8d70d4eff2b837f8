import {
  baseFor,
  coinsOfRecords,
  coinsBeyond,
  coinsFor,
  excessCoins,
  isZero,
  PaymentRate,
  rateOf,
  sumAmounts,
} from "../owed"

const btc: PaymentRate = { coin: "BTC", required: "0.00038462", baseAmount: "25.00", baseCurrency: "USD" }

describe("owed money at a payment's rate", () => {
  it.each([
    ["25.00", "0.00038462"],
    ["10.00", "0.00015384"],
    ["15.00", "0.00023077"],
    ["0.01", "0.00000015"],
  ])("a refund of %s USD is %s BTC (rounded down)", (base, coins) => {
    expect(coinsFor(btc, base)).toBe(coins)
  })

  it("values coins back in the base currency, rounded down", () => {
    expect(baseFor(btc, "0.00038462")).toBe("25.00")
    expect(baseFor(btc, "0.00061538")).toBe("39.99")
  })

  it.each([
    ["exactly paid", "0.00038462", undefined, "0.00000000"],
    ["overpaid", "0.001", undefined, "0.00061538"],
    ["short", "0.0003", undefined, "0.00000000"],
    // a $100 invoice ($25 here) that paid a cheaper cart: the order took 80 % of the required coins, rounded up
    ["a cheaper cart", "0.00038462", "20.00", "0.00007692"],
  ])("excess when %s", (_, received, takenBase, excess) => {
    expect(excessCoins(btc, received, takenBase)).toBe(excess)
  })

  it("knows a rate only with a coin, a required amount and a base amount above zero", () => {
    const row = {
      coin: "BTC",
      required_amount: "0.0004",
      crypto_amount: null,
      base_amount: "25.00",
      base_currency: "USD",
    }
    expect(rateOf(row)).toEqual({ coin: "BTC", required: "0.0004", baseAmount: "25.00", baseCurrency: "USD" })
    expect(rateOf({ ...row, coin: null })).toBeUndefined()
    expect(rateOf({ ...row, required_amount: null })).toBeUndefined()
    expect(rateOf({ ...row, required_amount: "0" })).toBeUndefined()
    // any store currency Medusa knows, at its own decimals; none for a code it does not know
    expect(rateOf({ ...row, base_currency: "EUR" })).toMatchObject({ baseCurrency: "EUR" })
    expect(rateOf({ ...row, base_amount: "5000", base_currency: "jpy" })).toMatchObject({ baseCurrency: "JPY" })
    expect(rateOf({ ...row, base_currency: "XYZ" })).toBeUndefined()
    // a BTC-priced cart compares at eight places, not two
    expect(rateOf({ ...row, base_amount: "0.001", base_currency: "BTC" })).toMatchObject({ baseCurrency: "BTC" })
  })

  it("sums and subtracts exactly", () => {
    expect(sumAmounts(8, ["0.1", "0.2", null, "0.00000001"])).toBe("0.30000001")
    expect(coinsBeyond("BTC", "0.3", "0.1")).toBe("0.20000000")
    expect(coinsBeyond("BTC", "0.1", "0.3")).toBe("0.00000000")
    expect(isZero("0.00000000")).toBe(true)
    expect(isZero("0.00000001")).toBe(false)
  })
})

describe("the coins of owed records", () => {
  it("sums them when the coin and every amount are known, else null", () => {
    expect(coinsOfRecords("BTC", [{ coin_amount: "0.0001" }, { coin_amount: "0.00000002" }])).toBe("0.00010002")
    expect(coinsOfRecords("BTC", [{ coin_amount: "0.0001" }, { coin_amount: null }])).toBeNull()
    expect(coinsOfRecords(null, [{ coin_amount: "0.0001" }])).toBeNull()
    expect(coinsOfRecords("BTC", [])).toBeNull()
  })
})
