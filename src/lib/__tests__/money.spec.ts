import { BigNumber } from "@medusajs/framework/utils"
import { coinAmountText, serviceAmount, toAmountCurrency } from "../money"

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
    ["0.123456789", "ETH", "0.12345679"],
  ] as const)("coinAmountText(%p, %s) = %s", (amount, coin, text) => {
    expect(coinAmountText(amount, coin)).toBe(text)
  })

  it("maps store currencies to the service's amount currencies", () => {
    expect(toAmountCurrency("usd")).toBe("USD")
    expect(toAmountCurrency("USDT")).toBe("USDT")
    expect(toAmountCurrency("eur")).toBeUndefined()
  })
})
