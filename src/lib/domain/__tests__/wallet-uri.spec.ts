import { COIN_DECIMALS, COINS, Coin } from "../../crypto-api/constants"
import { ON_CHAIN } from "../chains"
import { fromUnits, toUnits } from "../decimal"
import { addressForCoin, checksummedAddress, hasValidChecksum } from "../evm-address"
import { amountToSend, walletUri, walletUriOf } from "../wallet-uri"

/** A wallet's reading of a URI, written from BIP-21 and EIP-681 rather than from walletUri. */
type Parsed = { scheme: string; address: string; chainId?: number; contract?: string; fn?: string; units: bigint }

function parse(uri: string, coin: Coin): Parsed {
  const decimals = ON_CHAIN[coin].decimals
  const bip21 = /^(bitcoin|litecoin):([A-Za-z0-9]+)\?amount=(\d+(?:\.\d+)?)$/.exec(uri)
  if (bip21) {
    expect(bip21[3].split(".")[1]?.length ?? 0).toBeLessThanOrEqual(decimals)
    return { scheme: bip21[1], address: bip21[2], units: toUnits(bip21[3], decimals, "down") }
  }
  const token = /^ethereum:(0x[0-9a-fA-F]{40})@(\d+)\/(\w+)\?address=(0x[0-9a-fA-F]{40})&uint256=(\d+)$/.exec(uri)
  if (token) {
    return {
      scheme: "ethereum",
      contract: token[1],
      chainId: Number(token[2]),
      fn: token[3],
      address: token[4],
      units: BigInt(token[5]),
    }
  }
  const ether = /^ethereum:(0x[0-9a-fA-F]{40})@(\d+)\?value=(\d+)$/.exec(uri)
  if (ether) return { scheme: "ethereum", address: ether[1], chainId: Number(ether[2]), units: BigInt(ether[3]) }
  throw new Error(`not a wallet URI: ${uri}`)
}

const ADDRESSES: Record<Coin, string> = {
  BTC: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
  LTC: "ltc1qg82vx5eyzkd0e6tgyr3p4c7j3lz0nq6kwwh8lt",
  ETH: "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
  USDT_ERC20: "0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359",
  USDT_BEP20: "0xdbf03b407c01e7cd3cbea99509d93f8dddc8c6fb",
}
/** EIP-55's own test vectors, for the three lowercase addresses above. */
const CHECKSUMMED: Partial<Record<Coin, string>> = {
  ETH: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  USDT_ERC20: "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
  USDT_BEP20: "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
}

describe("the on-chain table", () => {
  it("pins each coin's network, chain, contract and decimals", () => {
    expect(ON_CHAIN).toMatchObject({
      BTC: { scheme: "bitcoin", uri: "bip21", decimals: 8 },
      LTC: { scheme: "litecoin", uri: "bip21", decimals: 8 },
      ETH: { scheme: "ethereum", uri: "eip681", chainId: 1, decimals: 18 },
      USDT_ERC20: {
        network: "ethereum",
        chainId: 1,
        contract: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
        decimals: 6,
      },
      USDT_BEP20: { network: "bsc", chainId: 56, contract: "0x55d398326f99059fF775485246999027B3197955", decimals: 18 },
    })
    expect(ON_CHAIN.ETH.contract).toBeUndefined()
  })

  it("names a public page that confirms every row", () => {
    for (const coin of COINS) {
      expect(ON_CHAIN[coin].confirmedBy.length).toBeGreaterThan(0)
      for (const page of ON_CHAIN[coin].confirmedBy) expect(page).toMatch(/^https:\/\//)
    }
  })

  it("keeps the contracts in their EIP-55 form", () => {
    for (const coin of ["USDT_ERC20", "USDT_BEP20"] as const) {
      const contract = ON_CHAIN[coin].contract!
      expect(checksummedAddress(contract.toLowerCase())).toBe(contract)
    }
  })

  it("parses the service's amounts at least as finely as every chain counts (no chain unit is lost)", () => {
    for (const coin of COINS) expect(COIN_DECIMALS[coin]).toBeGreaterThanOrEqual(ON_CHAIN[coin].decimals)
    // the parse precision is not the chain's: 18 for USDT on Ethereum would make uint256 10^12 too large
    expect(ON_CHAIN.USDT_ERC20.decimals).not.toBe(COIN_DECIMALS.USDT_ERC20)
  })
})

describe("EIP-55", () => {
  it.each(Object.values(CHECKSUMMED))("checksums %s", (address) => {
    expect(checksummedAddress(address.toLowerCase())).toBe(address)
    expect(checksummedAddress(address.toUpperCase().replace("0X", "0x"))).toBe(address)
    expect(hasValidChecksum(address)).toBe(true)
  })

  it("leaves a mixed-case address with a wrong checksum as written (a typo shows, it is not corrected)", () => {
    const wrong = "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
    expect(hasValidChecksum(wrong)).toBe(false)
    expect(checksummedAddress(wrong)).toBe(wrong)
  })

  it("passes other addresses through", () => {
    expect(checksummedAddress(ADDRESSES.BTC)).toBe(ADDRESSES.BTC)
    expect(checksummedAddress("0x123")).toBe("0x123")
  })

  it.each(COINS)("hands out a %s address in EIP-55 only on an EVM chain, whatever the address looks like", (coin) => {
    const lower = ADDRESSES.ETH
    expect(addressForCoin(coin, lower)).toBe(CHECKSUMMED[coin] ? CHECKSUMMED.ETH : lower)
    expect(addressForCoin(coin, ADDRESSES[coin])).toBe(CHECKSUMMED[coin] ?? ADDRESSES[coin])
  })

  it("leaves the address of an unknown or missing coin as written", () => {
    for (const coin of [undefined, null, "DOGE", "eth"]) expect(addressForCoin(coin, ADDRESSES.ETH)).toBe(ADDRESSES.ETH)
  })
})

describe("wallet URIs", () => {
  const amounts: Array<[string, string, Record<Coin, bigint>]> = [
    [
      "typical",
      "0.0123",
      {
        BTC: 1_230_000n,
        LTC: 1_230_000n,
        ETH: 12_300_000_000_000_000n,
        USDT_ERC20: 12_300n,
        USDT_BEP20: 12_300_000_000_000_000n,
      },
    ],
    [
      "tiny (1 unit of the finest chain)",
      "0.000000000000000001",
      { BTC: 1n, LTC: 1n, ETH: 1n, USDT_ERC20: 1n, USDT_BEP20: 1n },
    ],
    [
      "large",
      "123456789.5",
      {
        BTC: 12_345_678_950_000_000n,
        LTC: 12_345_678_950_000_000n,
        ETH: 123_456_789_500_000_000_000_000_000n,
        USDT_ERC20: 123_456_789_500_000n,
        USDT_BEP20: 123_456_789_500_000_000_000_000_000n,
      },
    ],
    [
      "many decimals",
      "49.123456789012345678",
      {
        BTC: 4_912_345_679n,
        LTC: 4_912_345_679n,
        ETH: 49_123_456_789_012_345_678n,
        USDT_ERC20: 49_123_457n,
        USDT_BEP20: 49_123_456_789_012_345_678n,
      },
    ],
  ]

  describe.each(COINS.map((coin) => [coin]))("%s", (coin) => {
    const chain = ON_CHAIN[coin]
    const to = CHECKSUMMED[coin] ?? ADDRESSES[coin]

    it.each(amounts)("%s amount %s parses back to the address, network and amount", (_, amount, expected) => {
      const parsed = parse(walletUri(coin, ADDRESSES[coin], amount)!, coin)
      expect(parsed.scheme).toBe(chain.scheme)
      expect(parsed.address).toBe(to)
      expect(parsed.chainId).toBe(chain.chainId)
      expect(parsed.contract).toBe(chain.contract)
      expect(parsed.fn).toBe(chain.contract ? "transfer" : undefined)
      expect(parsed.units.toString()).toBe(expected[coin].toString())
    })

    it("asks for no amount of nothing and for no address of another form", () => {
      expect(walletUri(coin, ADDRESSES[coin], "0")).toBeNull()
      expect(walletUri(coin, `${ADDRESSES[coin]}?amount=1000`, "1")).toBeNull()
      expect(walletUri(coin, "0x12&uint256=1", "1")).toBeNull()
    })

    it("asks for the amount to the last unit whatever it is (random amounts)", () => {
      let seed = 0x2545f491 ^ coin.length
      const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed)
      for (let i = 0; i < 500; i++) {
        // up to 10^12 coins, at any precision up to the service's parse precision
        const places = next() % (COIN_DECIMALS[coin] + 1)
        const units = (BigInt(next()) * BigInt(next()) + BigInt(next())) % 10n ** BigInt(12 + places) || 1n
        const amount = fromUnits(units, places)
        const parsed = parse(walletUri(coin, ADDRESSES[coin], amount)!, coin)
        const scaled = places <= chain.decimals ? units * 10n ** BigInt(chain.decimals - places) : undefined
        const ceiling = toUnits(amount, chain.decimals, "up")
        expect(parsed.units.toString()).toBe(ceiling.toString())
        // exact whenever the service wrote no more places than the chain has
        if (scaled !== undefined) expect(parsed.units.toString()).toBe(scaled.toString())
        // rounded up by less than one chain unit otherwise
        expect(
          toUnits(amount, COIN_DECIMALS[coin]) <= parsed.units * 10n ** BigInt(COIN_DECIMALS[coin] - chain.decimals)
        ).toBe(true)
      }
    })
  })

  it("asks for what is still to send once part arrived, and for nothing once all did", () => {
    const pending = { status: "PENDING", coin: "USDT_BEP20", address: ADDRESSES.USDT_BEP20, required: "100.5" }
    expect(parse(walletUriOf({ ...pending, received: "0" })!, "USDT_BEP20").units.toString()).toBe(
      "100500000000000000000"
    )
    expect(parse(walletUriOf({ ...pending, received: "40.25" })!, "USDT_BEP20").units.toString()).toBe(
      "60250000000000000000"
    )
    expect(walletUriOf({ ...pending, received: "100.5" })).toBeNull()
    expect(walletUriOf({ ...pending, received: "120" })).toBeNull()
    expect(amountToSend("BTC", "0.001", "0.0004").toString()).toBe("60000")
  })

  it("has none before a coin and address are known, or once the service takes no more", () => {
    const open = { status: "PENDING", coin: "BTC", address: ADDRESSES.BTC, required: "0.001", received: "0" }
    expect(walletUriOf(open)).toBe(`bitcoin:${ADDRESSES.BTC}?amount=0.001`)
    expect(walletUriOf({ ...open, coin: null })).toBeNull()
    expect(walletUriOf({ ...open, coin: "DOGE" })).toBeNull()
    expect(walletUriOf({ ...open, address: null })).toBeNull()
    expect(walletUriOf({ ...open, required: null })).toBeNull()
    for (const status of ["COMPLETED", "EXPIRED", "FAILED"]) expect(walletUriOf({ ...open, status })).toBeNull()
  })
})
