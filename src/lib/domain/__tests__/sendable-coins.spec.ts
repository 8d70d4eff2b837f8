import { COIN_DECIMALS, COINS, type Coin } from "../../crypto-api/constants"
import { downToSendableUnit, ON_CHAIN, SENDABLE_DECIMALS, sendableUnitIn } from "../chains"
import { fromUnits } from "../decimal"
import { coinUnits, sendableCoins, sendableCoinsOf } from "../money"

describe("the places coins owed back are shown and sent with", () => {
  it("are the chain's smallest unit, at most 8 places; 6 for USDT on either chain", () => {
    expect(SENDABLE_DECIMALS).toEqual({ BTC: 8, LTC: 8, ETH: 8, USDT_ERC20: 6, USDT_BEP20: 6 })
  })

  it.each(COINS)("%s: never more places than its chain sends, nor than amounts are parsed at", (coin) => {
    expect(SENDABLE_DECIMALS[coin]).toBeLessThanOrEqual(ON_CHAIN[coin].decimals)
    expect(SENDABLE_DECIMALS[coin]).toBeLessThanOrEqual(COIN_DECIMALS[coin])
    expect(sendableUnitIn(coin)).toBe(10n ** BigInt(COIN_DECIMALS[coin] - SENDABLE_DECIMALS[coin]))
  })
})

describe("sendableCoins: owed coins as the shop sends them, rounded down", () => {
  it.each<[Coin, string, string]>([
    // the figure: ETH to 8 places
    ["ETH", "0.003336413333333333", "0.00333641"],
    ["ETH", "0.003336419999999999", "0.00333641"],
    ["ETH", "1.000000009", "1.00000000"],
    ["ETH", "0.000000009999999999", "0.00000000"],
    ["BTC", "0.00012345", "0.00012345"],
    ["BTC", "0.1", "0.10000000"],
    ["BTC", "0.123456789", "0.12345678"],
    ["LTC", "2.99999999", "2.99999999"],
    ["LTC", "12", "12.00000000"],
    ["USDT_ERC20", "12.345678", "12.345678"],
    ["USDT_ERC20", "12.345678901234567891", "12.345678"],
    ["USDT_BEP20", "9.999999999999999999", "9.999999"],
    ["USDT_BEP20", "0.5", "0.500000"],
  ])("%s %s → %s", (coin, exact, sent) => {
    expect(sendableCoins(exact, coin)).toBe(sent)
  })

  // amounts across a coin's places (as the ledger parses them): exact at the sendable precision, and beyond it
  const samples = (coin: Coin): string[] => {
    const unit = sendableUnitIn(coin)
    const one = 10n ** BigInt(COIN_DECIMALS[coin])
    // and 200 more of a fixed pseudo-random sequence, up to 1000 coins
    let seed = 65n
    const drawn = Array.from({ length: 200 }, () => {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n
      return seed % (1000n * one)
    })
    return [0n, 1n, unit - 1n, unit, unit + 1n, 2n * unit - 1n, 123n * unit, 123n * unit + unit / 2n, 8n * one - 1n]
      .concat(drawn)
      .map((units) => fromUnits(units, COIN_DECIMALS[coin]))
  }

  it.each(COINS)(
    "%s: never rounds up, falls short by less than one sendable unit, and keeps an amount at its places",
    (coin) => {
      const unit = sendableUnitIn(coin)
      for (const exact of samples(coin)) {
        const units = coinUnits(exact, coin)
        const sent = coinUnits(sendableCoins(exact, coin), coin)
        expect({ exact, rounds_up: sent > units }).toEqual({ exact, rounds_up: false })
        expect({ exact, unit_or_more_short: units - sent >= unit }).toEqual({ exact, unit_or_more_short: false })
        expect({ exact, whole_units: sent % unit === 0n }).toEqual({ exact, whole_units: true })
        if (units % unit === 0n) expect({ exact, unchanged: sent === units }).toEqual({ exact, unchanged: true })
        expect(sendableCoins(exact, coin).split(".")[1]).toHaveLength(SENDABLE_DECIMALS[coin])
      }
    }
  )

  it("downToSendableUnit floors whole units, below zero too", () => {
    const unit = sendableUnitIn("ETH")
    expect(downToSendableUnit("ETH", 3n * unit + 1n) === 3n * unit).toBe(true)
    expect(downToSendableUnit("ETH", 3n * unit) === 3n * unit).toBe(true)
    expect(downToSendableUnit("ETH", -1n) === -unit).toBe(true)
    expect(downToSendableUnit("BTC", 12345n) === 12345n).toBe(true)
  })

  it("sendableCoinsOf: none worked out stays none; a coin not known keeps its text", () => {
    expect(sendableCoinsOf("ETH", "0.003336413333333333")).toBe("0.00333641")
    expect(sendableCoinsOf("ETH", null)).toBeNull()
    expect(sendableCoinsOf(null, null)).toBeNull()
    expect(sendableCoinsOf("DOGE", "1.123456789")).toBe("1.123456789")
  })
})
