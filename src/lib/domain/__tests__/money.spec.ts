import { BigNumber } from "@medusajs/framework/utils"
import { coinAmountText, coversAmount, serviceAmount, toAmountCurrency } from "../money"

describe("money conversion", () => {
  it.each([
    [25, "USD", "25.00", 25],
    ["19.999", "USD", "20.00", 20],
    [new BigNumber(10.005), "USD", "10.01", 10.01],
    [0.1 + 0.2, "USDT", "0.30", 0.3],
    ["0.123456789", "BTC", "0.12345679", 0.12345679],
    [1.5, "ETH", "1.50000000", 1.5],
  ] as const)("serviceAmount(%p, %s) = %s", (amount, currency, text, value) => {
    expect(serviceAmount(amount as never, currency)).toEqual({ text, value })
  })

  it.each([
    [0.00038462, "BTC", "0.00038462"],
    [1e-7, "BTC", "0.00000010"],
    [19.99, "USDT_ERC20", "19.990000"],
    // ETH and the USDT chains keep every digit up to their native 18 decimals, never rounded
    ["0.123456789", "ETH", "0.123456789"],
    ["0.033333333333333333", "ETH", "0.033333333333333333"],
    [0.5, "ETH", "0.50000000"],
    ["12.000000000000000001", "USDT_BEP20", "12.000000000000000001"],
    // digits beyond the native decimals round up: the customer is never told to send less
    ["0.00000000000000000049", "ETH", "0.000000000000000001"],
  ] as const)("coinAmountText(%p, %s) = %s", (amount, coin, text) => {
    expect(coinAmountText(amount, coin)).toBe(text)
  })

  it("maps store currencies to the service's amount currencies", () => {
    expect(toAmountCurrency("usd")).toBe("USD")
    expect(toAmountCurrency("USDT")).toBe("USDT")
    expect(toAmountCurrency("eur")).toBeUndefined()
  })
})

describe("a payment's base amount covers a collection", () => {
  it.each([
    ["25.00 USD for 25 usd", { amount: "25.00", currency: "USD" }, { amount: 25, currency: "usd" }, true],
    ["24.99 USD for 25 usd", { amount: "24.99", currency: "USD" }, { amount: 25, currency: "usd" }, false],
    ["25.00 USD for 25 usdt", { amount: "25.00", currency: "USD" }, { amount: 25, currency: "usdt" }, false],
    // a BTC cart is compared in satoshis: at two decimals 0.001 and 0.0049 would both be 0.00
    ["0.001 BTC for 0.0049 btc", { amount: "0.00100000", currency: "BTC" }, { amount: 0.0049, currency: "btc" }, false],
    ["0.0049 BTC for 0.0049 btc", { amount: "0.00490000", currency: "BTC" }, { amount: 0.0049, currency: "btc" }, true],
    ["25 EUR for 25 eur", { amount: "25.00", currency: "EUR" }, { amount: 25, currency: "eur" }, true],
    ["25 EUR for 25.01 eur", { amount: "25.00", currency: "EUR" }, { amount: 25.01, currency: "eur" }, false],
    ["25 EUR for 25 usd", { amount: "25.00", currency: "EUR" }, { amount: 25, currency: "usd" }, false],
    // JPY has no decimals: 5000.4 yen is 5000
    ["5000 JPY for 5000.4 jpy", { amount: "5000", currency: "JPY" }, { amount: 5000.4, currency: "jpy" }, true],
    ["a code Medusa does not know", { amount: "25.00", currency: "XYZ" }, { amount: 25, currency: "xyz" }, false],
  ])("%s → %s", (_, base, asked, covers) => {
    expect(coversAmount(base, asked)).toBe(covers)
  })
})
