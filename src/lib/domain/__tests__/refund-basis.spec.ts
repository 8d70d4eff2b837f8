import { refundCoinsOf } from "../refund-basis"
import type { PaymentRate } from "../owed"

// 25.00 USD priced at 0.00038462 BTC
const rate: PaymentRate = { coin: "BTC", required: "0.00038462", baseAmount: "25.00", baseCurrency: "USD" }
const record = { base_amount: "10.00" }

describe("the coins a refund sends back", () => {
  it.each([
    ["the payment's rate", { basis: "rate_then" as const }, "1", "0.00015384", "0.00000000", false],
    ["the rate less 10%", { basis: "rate_then" as const, feePercent: "10" }, "1", "0.00013845", "0.00001539", false],
    ["fixed coins", { basis: "fixed_coins" as const, coins: "0.0001" }, "1", "0.00010000", "0.00000000", false],
    [
      "fixed coins less 1.5%",
      { basis: "fixed_coins" as const, coins: "0.0001", feePercent: "1.5" },
      "1",
      "0.00009850",
      "0.00000150",
      false,
    ],
    [
      "capped at what arrived",
      { basis: "fixed_coins" as const, coins: "5" },
      "0.00038462",
      "0.00038462",
      "0.00000000",
      true,
    ],
    ["the whole fee", { basis: "rate_then" as const, feePercent: "100" }, "1", "0.00000000", "0.00015384", false],
  ])("%s", (_why, choice, cap, coins, fee, capped) => {
    expect(refundCoinsOf(choice, record, rate, cap)).toEqual({ coins, fee, capped })
  })

  it("refuses a fee over 100%", () => {
    expect(() => refundCoinsOf({ basis: "rate_then", feePercent: "100.01" }, record, rate, "1")).toThrow(RangeError)
  })
})

describe("7. rate_then on late or excess coins", () => {
  it("sends the coins recorded, not its rounded-down store amount priced back", () => {
    // 0.00012345 BTC late is 8.02 USD at the rate (8.0241…, rounded down); priced back: 0.00012338
    const late = { kind: "late", base_amount: "8.02", recorded_coin_amount: "0.00012345" }
    expect(refundCoinsOf({ basis: "rate_then" }, late, rate, "1").coins).toBe("0.00012345")
    expect(refundCoinsOf({ basis: "rate_then", feePercent: "1" }, late, rate, "1").coins).toBe("0.00012221")
    // a refund is still its store amount at the rate
    const refund = { kind: "refund", base_amount: "10.00", recorded_coin_amount: "0.00015384" }
    expect(refundCoinsOf({ basis: "rate_then" }, refund, rate, "1").coins).toBe("0.00015384")
  })
})
