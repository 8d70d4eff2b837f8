import { sha256 } from "@noble/hashes/sha2"
import { bech32, bech32m, createBase58check } from "@scure/base"
import { COINS, Coin } from "../../crypto-api/constants"
import {
  maskAddress,
  REFUND_ADDRESS_ERROR_CODES,
  REFUND_NETWORKS,
  RefundAddressErrorCode,
  sharesAddressFormat,
  validateRefundAddress,
} from "../refund-address"

// Addresses made here from a fixed 20-byte hash with the library, rather than copied from memory
const HASH20 = Uint8Array.from({ length: 20 }, (_, i) => (i * 37 + 11) & 0xff)
const PROGRAM32 = Uint8Array.from({ length: 32 }, (_, i) => (i * 53 + 7) & 0xff)
const base58check = createBase58check(sha256)
const base58Address = (version: number) => base58check.encode(Uint8Array.of(version, ...HASH20))
const segwitAddress = (hrp: string, version: number, program: Uint8Array, coder = version === 0 ? bech32 : bech32m) =>
  coder.encode(hrp, [version, ...bech32.toWords(program)])

/** The same string with its last character changed to another of the same alphabet. */
const lastChanged = (address: string, a = "a", b = "b") => address.slice(0, -1) + (address.endsWith(a) ? b : a)
/** The same EVM address with the case of its first letter flipped. */
const firstLetterFlipped = (address: string) => {
  const i = address.slice(2).search(/[a-fA-F]/) + 2
  const letter = address[i]
  return (
    address.slice(0, i) +
    (letter === letter.toLowerCase() ? letter.toUpperCase() : letter.toLowerCase()) +
    address.slice(i + 1)
  )
}

const LTC_P2PKH = base58Address(0x30) // L…
const LTC_P2SH = base58Address(0x32) // M…
const SHARED_P2SH = base58Address(0x05) // 3…, Bitcoin's (Litecoin's legacy one: refused for Litecoin)
const BTC_P2PKH = base58Address(0x00) // 1…
const TESTNET_P2PKH = base58Address(0x6f) // m… or n…
const TESTNET_P2SH = base58Address(0xc4) // 2…
const LTC_TESTNET_P2SH = base58Address(0x3a) // Q…
const LTC_P2WPKH = segwitAddress("ltc", 0, HASH20)
const LTC_P2WSH = segwitAddress("ltc", 0, PROGRAM32)
const LTC_TAPROOT = segwitAddress("ltc", 1, PROGRAM32)
const LTC_TESTNET_P2WPKH = segwitAddress("tltc", 0, HASH20)
const LTC_V0_IN_BECH32M = segwitAddress("ltc", 0, HASH20, bech32m)
const LTC_V1_IN_BECH32 = segwitAddress("ltc", 1, PROGRAM32, bech32)
const MWEB = "ltcmweb1" + "q".repeat(100) // an MWEB address is ltcmweb1 and two public keys: refused before any decoding

const GENESIS_P2PKH = "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"
const P2SH = "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"
const P2WPKH_UPPER = "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4"
const TAPROOT = "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0"
const EIP55 = [
  "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
  "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
  "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
]

type Refused = [string, string, RefundAddressErrorCode]

describe("refund addresses", () => {
  it("the test's own addresses have the prefixes their networks show", () => {
    expect([LTC_P2PKH[0], LTC_P2SH[0], SHARED_P2SH[0], BTC_P2PKH[0], TESTNET_P2SH[0], LTC_TESTNET_P2SH[0]]).toEqual([
      "L",
      "M",
      "3",
      "1",
      "2",
      "Q",
    ])
    expect(TESTNET_P2PKH).toMatch(/^[mn]/)
    expect([LTC_P2WPKH, LTC_TAPROOT, LTC_TESTNET_P2WPKH]).toEqual([
      expect.stringMatching(/^ltc1q/),
      expect.stringMatching(/^ltc1p/),
      expect.stringMatching(/^tltc1q/),
    ])
  })

  it.each([
    ["BTC", "bitcoin", "Bitcoin", "bitcoin", false],
    ["LTC", "litecoin", "Litecoin", "litecoin", false],
    ["ETH", "ethereum", "Ethereum", "evm", true],
    ["USDT_ERC20", "ethereum", "Ethereum (ERC-20)", "evm", true],
    ["USDT_BEP20", "bsc", "BNB Smart Chain (BEP-20)", "evm", true],
  ] as const)(
    "%s is refunded on %s (%s), %s addresses; shares its format: %s",
    (coin, network, label, format, shares) => {
      expect(REFUND_NETWORKS[coin]).toEqual({ coin, network, label, format })
      expect(sharesAddressFormat(coin)).toBe(shares)
    }
  )

  it("describes every coin", () => {
    expect(Object.keys(REFUND_NETWORKS).sort()).toEqual([...COINS].sort())
  })

  describe("Bitcoin", () => {
    it.each([
      ["the genesis P2PKH", GENESIS_P2PKH, GENESIS_P2PKH],
      ["a P2SH", P2SH, P2SH],
      ["a P2PKH made here", BTC_P2PKH, BTC_P2PKH],
      ["a P2SH made here (Litecoin's legacy version too)", SHARED_P2SH, SHARED_P2SH],
      ["BIP-173 P2WPKH, all capitals (lowercased)", P2WPKH_UPPER, P2WPKH_UPPER.toLowerCase()],
      ["BIP-173 P2WPKH, lowercase", P2WPKH_UPPER.toLowerCase(), P2WPKH_UPPER.toLowerCase()],
      ["a P2WSH", segwitAddress("bc", 0, PROGRAM32), segwitAddress("bc", 0, PROGRAM32)],
      ["BIP-350's taproot example", TAPROOT, TAPROOT],
      ["one with spaces around it (trimmed)", `  ${TAPROOT}\n`, TAPROOT],
    ])("accepts %s", (_, address, normalised) => {
      expect(validateRefundAddress("BTC", address)).toEqual({ ok: true, address: normalised })
    })

    it.each<Refused>([
      ["the genesis P2PKH with one character changed", lastChanged(GENESIS_P2PKH), "bad_checksum"],
      ["the P2SH with one character changed", lastChanged(P2SH, "y", "z"), "bad_checksum"],
      ["P2WPKH with its last character changed", P2WPKH_UPPER.slice(0, -1) + "5", "bad_checksum"],
      ["taproot with its last character changed", lastChanged(TAPROOT, "0", "2"), "bad_checksum"],
      // BIP-350's invalid addresses
      ["a v1 program in bech32", "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd", "invalid"],
      ["a v16 program in bech32", "BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL", "invalid"],
      ["a v0 program in bech32m", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh", "invalid"],
      ["an invalid character (o)", "bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4", "invalid"],
      [
        "BIP-350's v16 (valid there, but no wallet spends it yet: the refund would be lost)",
        "BC1SW50QGDZ25J",
        "invalid",
      ],
      ["BIP-350's v2 (likewise)", "bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs", "invalid"],
      ["witness version 17", "BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R", "invalid"],
      ["a 1-byte program", "bc1pw5dgrnzv", "invalid"],
      ["a 41-byte program", "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav", "invalid"],
      ["a 16-byte v0 program", "BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P", "invalid"],
      [
        "more than 4 bits of zero padding",
        "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf",
        "invalid",
      ],
      ["an empty data section", "bc1gmk9yu", "invalid"],
      ["a valid bech32m string of another human-readable part", segwitAddress("constructor", 1, PROGRAM32), "invalid"],
      ["an unknown human-readable part", "tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut", "invalid"],
      ["mixed case", "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5Jj0", "invalid"],
      // a v1 program must be taproot's 32 bytes: BIP-350's valid v1 of 40 bytes is no taproot output
      [
        "BIP-350's v1 of 40 bytes",
        "bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y",
        "invalid",
      ],
      // test networks
      ["BIP-350's testnet P2WSH", "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7", "testnet"],
      ["BIP-350's testnet taproot", "tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c", "testnet"],
      ["a regtest P2WPKH", segwitAddress("bcrt", 0, HASH20), "testnet"],
      ["a testnet P2PKH", TESTNET_P2PKH, "testnet"],
      ["a testnet P2SH", TESTNET_P2SH, "testnet"],
      [
        "a testnet v0 in bech32m (BIP-350)",
        "tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47",
        "invalid",
      ],
      // other networks
      ["a Litecoin P2PKH", LTC_P2PKH, "wrong_network"],
      ["a Litecoin P2SH", LTC_P2SH, "wrong_network"],
      ["a Litecoin P2WPKH", LTC_P2WPKH, "wrong_network"],
      ["a Litecoin taproot", LTC_TAPROOT, "wrong_network"],
      ["a Litecoin testnet P2SH", LTC_TESTNET_P2SH, "wrong_network"],
      ["a Litecoin MWEB address", MWEB, "wrong_network"],
      ["an Ethereum address", EIP55[0], "wrong_network"],
      ["a broken Litecoin P2WPKH", lastChanged(LTC_P2WPKH, "q", "p"), "invalid"],
      ["a broken Litecoin P2PKH", lastChanged(LTC_P2PKH), "invalid"],
      // not an address
      ["a word", "hello world", "invalid"],
      ["a base58 string of the wrong length", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNaXY", "invalid"],
      ["a character outside base58 (0)", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfN0", "invalid"],
      ["an address of another base58 coin (version 0x1e)", base58Address(0x1e), "invalid"],
    ])("refuses %s: %s", (_, address, code) => {
      expect(validateRefundAddress("BTC", address)).toMatchObject({ ok: false, code })
    })

    it.each([
      [LTC_P2PKH, "This looks like a Litecoin address: give a Bitcoin address."],
      [EIP55[1], "This looks like an Ethereum or BNB Smart Chain address: give a Bitcoin address."],
      [TESTNET_P2PKH, "This is a Bitcoin testnet address: give a Bitcoin mainnet address."],
      [LTC_TESTNET_P2SH, "This looks like a Litecoin testnet address: give a Bitcoin address."],
      [
        lastChanged(GENESIS_P2PKH),
        "This Bitcoin address has a typo (its checksum does not match): copy it again from your wallet.",
      ],
    ])("says what %s is", (address, message) => {
      expect(validateRefundAddress("BTC", address)).toMatchObject({ ok: false, message })
    })
  })

  describe("Litecoin", () => {
    it.each([
      ["a P2PKH (L…)", LTC_P2PKH, LTC_P2PKH],
      ["a P2SH (M…)", LTC_P2SH, LTC_P2SH],
      ["a P2WPKH", LTC_P2WPKH, LTC_P2WPKH],
      ["a P2WPKH in capitals (lowercased)", LTC_P2WPKH.toUpperCase(), LTC_P2WPKH],
      ["a P2WSH", LTC_P2WSH, LTC_P2WSH],
      ["a taproot", LTC_TAPROOT, LTC_TAPROOT],
    ])("accepts %s", (_, address, normalised) => {
      expect(validateRefundAddress("LTC", address)).toEqual({ ok: true, address: normalised })
    })

    it.each<Refused>([
      ["a P2PKH with one character changed", lastChanged(LTC_P2PKH), "bad_checksum"],
      ["a P2SH with one character changed", lastChanged(LTC_P2SH), "bad_checksum"],
      ["a P2WPKH with one character changed", lastChanged(LTC_P2WPKH, "q", "p"), "bad_checksum"],
      ["a v0 program in bech32m", LTC_V0_IN_BECH32M, "invalid"],
      ["a v1 program in bech32", LTC_V1_IN_BECH32, "invalid"],
      ["mixed case", LTC_P2WPKH.slice(0, 4) + LTC_P2WPKH.slice(4).toUpperCase(), "invalid"],
      ["an MWEB address", MWEB, "invalid"],
      ["a testnet P2PKH (0x6f)", TESTNET_P2PKH, "testnet"],
      ["a testnet P2SH (0xc4)", TESTNET_P2SH, "testnet"],
      ["a testnet P2SH (0x3a)", LTC_TESTNET_P2SH, "testnet"],
      ["a testnet P2WPKH", LTC_TESTNET_P2WPKH, "testnet"],
      ["the Bitcoin genesis P2PKH", GENESIS_P2PKH, "wrong_network"],
      ["a Bitcoin P2WPKH", P2WPKH_UPPER, "wrong_network"],
      ["a Bitcoin taproot", TAPROOT, "wrong_network"],
      ["a Bitcoin testnet P2WSH", "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7", "wrong_network"],
      ["an EVM address", EIP55[2], "wrong_network"],
      ["a broken Bitcoin P2WPKH", P2WPKH_UPPER.slice(0, -1) + "5", "invalid"],
      ["a broken Bitcoin P2PKH", lastChanged(GENESIS_P2PKH), "invalid"],
      ["a broken legacy P2SH", lastChanged(P2SH, "y", "z"), "invalid"],
      ["a legacy P2SH (3…: Bitcoin's, once Litecoin's too)", SHARED_P2SH, "wrong_network"],
      ["the Bitcoin P2SH example", P2SH, "wrong_network"],
      ["a word", "litecoin", "invalid"],
    ])("refuses %s: %s", (_, address, code) => {
      expect(validateRefundAddress("LTC", address)).toMatchObject({ ok: false, code })
    })

    it.each([
      [GENESIS_P2PKH, "This looks like a Bitcoin address: give a Litecoin address."],
      [LTC_TESTNET_P2WPKH, "This is a Litecoin testnet address: give a Litecoin mainnet address."],
      [
        MWEB,
        "Litecoin MWEB addresses are not supported: give a regular Litecoin address (starting with ltc1, L or M).",
      ],
    ])("says what %s is", (address, message) => {
      expect(validateRefundAddress("LTC", address)).toMatchObject({ ok: false, message })
    })
  })

  describe.each(["ETH", "USDT_ERC20", "USDT_BEP20"] as const)("%s", (coin) => {
    const label = REFUND_NETWORKS[coin].label

    it.each([
      ...EIP55.map((address) => ["EIP-55's example", address]),
      ["all lowercase (no checksum)", EIP55[0].toLowerCase()],
      ["all capitals after 0x (no checksum)", "0x" + EIP55[1].slice(2).toUpperCase()],
      ["digits only", "0x1234567890123456789012345678901234567890"],
    ])("accepts %s %s as given", (_, address) => {
      expect(validateRefundAddress(coin, address)).toEqual({ ok: true, address })
      expect(validateRefundAddress(coin, ` ${address} `)).toEqual({ ok: true, address })
    })

    it.each<Refused>([
      ...EIP55.map((address): Refused => [
        "EIP-55's example with one letter's case flipped",
        firstLetterFlipped(address),
        "bad_checksum",
      ]),
      ["the zero address", "0x0000000000000000000000000000000000000000", "invalid"],
      ["6. the burn address", "0x000000000000000000000000000000000000dEaD", "invalid"],
      ["6. USDT's ERC-20 token contract", "0xdAC17F958D2ee523a2206206994597C13D831ec7", "invalid"],
      ["6. USDT's BEP-20 token contract, lowercased", "0x55d398326f99059ff775485246999027b3197955", "invalid"],
      ["39 hex digits", EIP55[0].slice(0, -1), "invalid"],
      ["41 hex digits", EIP55[0].toLowerCase() + "a", "invalid"],
      ["a non-hex character", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg", "invalid"],
      ["no 0x", EIP55[0].slice(2), "invalid"],
      ["0X", "0X" + EIP55[0].slice(2).toLowerCase(), "invalid"],
      ["a Bitcoin address", GENESIS_P2PKH, "wrong_network"],
      ["a Bitcoin taproot", TAPROOT, "wrong_network"],
      ["a Litecoin address", LTC_P2WPKH, "wrong_network"],
      ["a legacy P2SH", SHARED_P2SH, "wrong_network"],
      ["a Bitcoin testnet address", TESTNET_P2PKH, "wrong_network"],
      ["a Litecoin MWEB address", MWEB, "wrong_network"],
      ["a broken Bitcoin address", lastChanged(GENESIS_P2PKH), "invalid"],
    ])("refuses %s: %s", (_, address, code) => {
      expect(validateRefundAddress(coin, address)).toMatchObject({ ok: false, code })
    })

    it("6. says a token contract is no wallet", () => {
      expect(validateRefundAddress(coin, "0xdAC17F958D2ee523a2206206994597C13D831ec7")).toMatchObject({
        message: `This is the USDT token's contract, not a wallet: coins sent there are lost. Give your own ${label} address.`,
      })
    })

    it("names its network", () => {
      expect(validateRefundAddress(coin, firstLetterFlipped(EIP55[3]))).toMatchObject({
        message: `This ${label} address's capital and small letters do not match its checksum, so it has a typo: copy it again from your wallet.`,
      })
      expect(validateRefundAddress(coin, GENESIS_P2PKH)).toMatchObject({
        message: `This looks like a Bitcoin address: give ${label.startsWith("E") ? "an" : "a"} ${label} address.`,
      })
      expect(validateRefundAddress(coin, SHARED_P2SH)).toMatchObject({
        message: expect.stringContaining("a Bitcoin address"),
      })
    })
  })

  describe.each([...COINS])("any input for %s", (coin: Coin) => {
    it.each([
      ["nothing", ""],
      ["spaces", "   "],
      ["a newline", "\n"],
    ])("refuses %s as empty", (_, address) => {
      expect(validateRefundAddress(coin, address)).toMatchObject({ ok: false, code: "empty" })
    })

    it("refuses more than 128 characters as too long, and takes 128 to its checks", () => {
      expect(validateRefundAddress(coin, "a".repeat(129))).toMatchObject({ ok: false, code: "too_long" })
      expect(validateRefundAddress(coin, "a".repeat(128))).toMatchObject({ ok: false, code: "invalid" })
    })
  })

  it("never repeats the address in its message, and every message ends a sentence", () => {
    const inputs = [
      GENESIS_P2PKH,
      lastChanged(GENESIS_P2PKH),
      P2SH,
      P2WPKH_UPPER,
      "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh",
      "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5Jj0",
      "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7",
      TAPROOT,
      LTC_P2PKH,
      lastChanged(LTC_P2SH),
      LTC_P2WPKH,
      LTC_TESTNET_P2WPKH,
      TESTNET_P2PKH,
      MWEB,
      ...EIP55,
      ...EIP55.map(firstLetterFlipped),
      "0x0000000000000000000000000000000000000000",
      "hello world",
      "x".repeat(200),
    ]
    const codes = new Set<string>()
    for (const coin of COINS) {
      for (const address of inputs) {
        const check = validateRefundAddress(coin, address)
        if (check.ok) continue
        codes.add(check.code)
        expect(check.message.toLowerCase()).not.toContain(address.toLowerCase())
        expect(check.message.toLowerCase()).not.toContain(address.slice(0, 10).toLowerCase())
        expect(check.message).toMatch(/^[A-Z].*\.$/)
        expect(check.message).toContain(REFUND_NETWORKS[coin].label)
      }
    }
    expect([...codes].sort()).toEqual(REFUND_ADDRESS_ERROR_CODES.filter((code) => code !== "empty").sort())
  })

  it.each([
    [GENESIS_P2PKH, "1A1zP1…vfNa"],
    [TAPROOT, "bc1p0x…5jj0"],
    [EIP55[0], "0x5aAe…eAed"],
    ["  " + P2SH + " ", "3J98t1…WNLy"],
    ["bc1sw50qgdz", "bc…"],
    ["ab", "ab…"],
    ["", ""],
  ])("masks %s as %s", (address, masked) => {
    expect(maskAddress(address)).toBe(masked)
  })
})
