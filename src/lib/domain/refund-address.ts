import { sha256 } from "@noble/hashes/sha2"
import { base58, bech32, bech32m, createBase58check } from "@scure/base"
import type { Coin } from "../crypto-api/constants"
import { hasValidChecksum, isEvmAddress } from "./evm-address"

/**
 * A refund sent to a mistyped, testnet or other-chain address is lost, so what is refused says why,
 * naming the network, and never repeats the address (a message may be logged where it should not be).
 */

export type RefundNetwork = {
  coin: Coin
  network: "bitcoin" | "litecoin" | "ethereum" | "bsc"
  label: "Bitcoin" | "Litecoin" | "Ethereum" | "Ethereum (ERC-20)" | "BNB Smart Chain (BEP-20)"
  format: "bitcoin" | "litecoin" | "evm"
}

export const REFUND_NETWORKS: Readonly<Record<Coin, Readonly<RefundNetwork>>> = {
  BTC: { coin: "BTC", network: "bitcoin", label: "Bitcoin", format: "bitcoin" },
  ETH: { coin: "ETH", network: "ethereum", label: "Ethereum", format: "evm" },
  LTC: { coin: "LTC", network: "litecoin", label: "Litecoin", format: "litecoin" },
  USDT_ERC20: { coin: "USDT_ERC20", network: "ethereum", label: "Ethereum (ERC-20)", format: "evm" },
  USDT_BEP20: { coin: "USDT_BEP20", network: "bsc", label: "BNB Smart Chain (BEP-20)", format: "evm" },
}

/**
 * An Ethereum address is a valid BNB Smart Chain address, so the address cannot tell the network and
 * the customer must confirm it: coins sent on the wrong chain are lost.
 */
export function sharesAddressFormat(coin: Coin): boolean {
  const format = REFUND_NETWORKS[coin].format
  return Object.values(REFUND_NETWORKS).some((other) => other.coin !== coin && other.format === format)
}

export const REFUND_ADDRESS_ERROR_CODES = [
  "empty",
  "too_long",
  "testnet",
  "wrong_network",
  "bad_checksum",
  "invalid",
] as const
export type RefundAddressErrorCode = (typeof REFUND_ADDRESS_ERROR_CODES)[number]

export type RefundAddressCheck =
  { ok: true; address: string } | { ok: false; code: RefundAddressErrorCode; message: string }

/** The longest input looked at; every address of ours is shorter (a bech32 one is at most 90). */
export const REFUND_ADDRESS_MAX_LENGTH = 128

// ---------------------------------------------------------------------------------------------------
// What an address is, whatever coin it was given for

type Chain = "bitcoin" | "litecoin"

type Recognised =
  { kind: "utxo"; chains: readonly Chain[]; test: boolean; address: string } | { kind: "evm"; address: string }

/** Why a string is no well-formed address, and which format it was written in (as far as that shows). */
type Unrecognised = {
  kind: "unrecognised"
  code: "bad_checksum" | "invalid"
  format: "utxo" | "evm" | "mweb" | "unknown"
  /** The chains it was written for, as far as that shows (a segwit hrp, a base58 version byte). */
  chains?: readonly Chain[]
  reason?: "mixed_case" | "zero_address" | "burn_address" | "token_contract"
}

/**
 * EVM addresses no wallet holds, where refunded coins are lost: the USDT token contracts the shop takes
 * payments in (ERC-20, BEP-20; a customer may paste the token's address from an explorer) and the common
 * burn address. Lowercase, without 0x.
 */
const NOT_A_WALLET = new Map<string, "burn_address" | "token_contract">([
  ["dac17f958d2ee523a2206206994597c13d831ec7", "token_contract"],
  ["55d398326f99059ff775485246999027b3197955", "token_contract"],
  ["000000000000000000000000000000000000dead", "burn_address"],
])

/** Segwit human-readable parts: mainnet and the test networks (testnet/signet "tb", regtest "bcrt"). */
const SEGWIT_HRPS = new Map<string, { chain: Chain; test: boolean }>([
  ["bc", { chain: "bitcoin", test: false }],
  ["tb", { chain: "bitcoin", test: true }],
  ["bcrt", { chain: "bitcoin", test: true }],
  ["ltc", { chain: "litecoin", test: false }],
  ["tltc", { chain: "litecoin", test: true }],
])

/**
 * 0x05 ("3…") is Bitcoin's; Litecoin once used it too, but a "3…" address given for a Litecoin refund is
 * as likely a Bitcoin one (coins sent across are lost), so Litecoin takes only its own prefixes.
 */
const BASE58_VERSIONS: Record<number, { chains: readonly Chain[]; test: boolean }> = {
  0x00: { chains: ["bitcoin"], test: false },
  0x05: { chains: ["bitcoin"], test: false },
  0x30: { chains: ["litecoin"], test: false },
  0x32: { chains: ["litecoin"], test: false },
  0x6f: { chains: ["bitcoin", "litecoin"], test: true },
  0xc4: { chains: ["bitcoin", "litecoin"], test: true },
  0x3a: { chains: ["litecoin"], test: true },
}

const base58check = createBase58check(sha256)
const BASE58_SHAPE = /^[1-9A-HJ-NP-Za-km-z]{25,35}$/
const BECH32_DATA = /^[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{6,}$/

function unrecognised(
  code: Unrecognised["code"],
  format: Unrecognised["format"],
  more: Pick<Unrecognised, "chains" | "reason"> = {}
): Unrecognised {
  return { kind: "unrecognised", code, format, ...more }
}

/** A segwit address (BIP-173 / BIP-350) of one of SEGWIT_HRPS. */
function readSegwit(address: string, hrp: { chain: Chain; test: boolean }): Recognised | Unrecognised {
  const invalid = unrecognised("invalid", "utxo", { chains: [hrp.chain] })
  const lower = address.toLowerCase()
  if (address !== lower && address !== address.toUpperCase()) return { ...invalid, reason: "mixed_case" }
  if (lower.length > 90 || !BECH32_DATA.test(lower.slice(lower.lastIndexOf("1") + 1))) return invalid
  const asBech32 = bech32.decodeUnsafe(lower)
  const decoded = asBech32 ?? bech32m.decodeUnsafe(lower)
  if (!decoded) return unrecognised("bad_checksum", "utxo", { chains: [hrp.chain] })
  if (decoded.words.length === 0) return invalid
  const [version, ...programWords] = decoded.words
  if (version > 16) return invalid
  // BIP-350: version 0 is written in bech32, versions 1 to 16 in bech32m, and nothing else is valid
  if ((version === 0) !== Boolean(asBech32)) return invalid
  const program = bech32.fromWordsUnsafe(programWords) // refuses more than 4 bits of padding, or non-zero ones
  if (!program) return invalid
  const length = program.length
  const lengthOk =
    version === 0
      ? length === 20 || length === 32 // P2WPKH, P2WSH
      : // taproot; another length, or a later version (2–16), is an output no wallet spends yet and anyone
        // could: valid for BIP-350, but coins refunded there would be lost
        version === 1 && length === 32
  if (!lengthOk) return invalid
  return { kind: "utxo", chains: [hrp.chain], test: hrp.test, address: lower }
}

/** A base58check P2PKH or P2SH address of one of BASE58_VERSIONS. */
function readBase58(address: string): Recognised | Unrecognised {
  if (!BASE58_SHAPE.test(address)) return unrecognised("invalid", "unknown")
  let raw: Uint8Array
  try {
    raw = base58.decode(address)
  } catch {
    return unrecognised("invalid", "unknown")
  }
  if (raw.length !== 25) return unrecognised("invalid", "unknown") // version, 20-byte hash, 4-byte checksum
  const version = BASE58_VERSIONS[raw[0]]
  if (!version) return unrecognised("invalid", "unknown")
  try {
    base58check.decode(address)
  } catch {
    return unrecognised("bad_checksum", "utxo", { chains: version.chains })
  }
  return { kind: "utxo", chains: version.chains, test: version.test, address }
}

/** An EVM address: 0x and 40 hex digits; mixed case must be EIP-55's checksum. */
function readEvm(address: string): Recognised | Unrecognised {
  if (!isEvmAddress(address)) return unrecognised("invalid", "unknown")
  const hex = address.slice(2)
  const lower = hex.toLowerCase()
  if (/^0+$/.test(hex)) return unrecognised("invalid", "evm", { reason: "zero_address" })
  const notAWallet = NOT_A_WALLET.get(lower)
  if (notAWallet) return unrecognised("invalid", "evm", { reason: notAWallet })
  if (!hasValidChecksum(address)) return unrecognised("bad_checksum", "evm")
  return { kind: "evm", address }
}

function read(address: string): Recognised | Unrecognised {
  const lower = address.toLowerCase()
  if (lower.startsWith("0x")) return readEvm(address)
  // Litecoin's MimbleWimble extension blocks: a refund cannot be sent there by the service
  if (lower.startsWith("ltcmweb1")) return unrecognised("invalid", "mweb")
  const hrp = SEGWIT_HRPS.get(lower.slice(0, Math.max(0, lower.lastIndexOf("1"))))
  return hrp ? readSegwit(address, hrp) : readBase58(address)
}

// ---------------------------------------------------------------------------------------------------
// What that means for the coin it was given for

const CHAIN_LABELS: Record<Chain, string> = { bitcoin: "Bitcoin", litecoin: "Litecoin" }

function an(words: string): string {
  return `${/^[AEIOU]/i.test(words) ? "an" : "a"} ${words}`
}

/** What an address of another network looks like, for a customer who gave it for this one. */
function lookalike(found: Recognised | Unrecognised): string {
  if (found.kind === "utxo") {
    const names = found.chains.map((chain) => CHAIN_LABELS[chain]).join(" or ")
    return an(`${names}${found.test ? " testnet" : ""} address`)
  }
  return found.kind === "unrecognised" && found.format === "mweb"
    ? "a Litecoin MWEB address"
    : "an Ethereum or BNB Smart Chain address"
}

function refused(code: RefundAddressErrorCode, message: string): RefundAddressCheck {
  return { ok: false, code, message }
}

const AGAIN = "copy it again from your wallet."

function wrongNetwork(found: Recognised | Unrecognised, network: RefundNetwork): RefundAddressCheck {
  return refused("wrong_network", `This looks like ${lookalike(found)}: give ${an(network.label)} address.`)
}

function notAnAddress(network: RefundNetwork): RefundAddressCheck {
  return network.format === "evm"
    ? refused("invalid", `This is not ${an(network.label)} address, which is 0x followed by 40 characters 0-9 and a-f.`)
    : refused("invalid", `This is not a valid ${network.label} address: ${AGAIN}`)
}

/** An address of this network's format that is no valid address. */
function malformed(found: Unrecognised, network: RefundNetwork): RefundAddressCheck {
  const label = network.label
  if (found.reason === "zero_address" || found.reason === "burn_address") {
    return refused("invalid", `This is a burn address, where coins are lost: give your own ${label} address.`)
  }
  if (found.reason === "token_contract") {
    return refused(
      "invalid",
      `This is the USDT token's contract, not a wallet: coins sent there are lost. Give your own ${label} address.`
    )
  }
  if (found.format === "mweb") {
    return refused(
      "invalid",
      "Litecoin MWEB addresses are not supported: give a regular Litecoin address (starting with ltc1, L or M)."
    )
  }
  if (found.reason === "mixed_case") {
    return refused("invalid", `This mixes capital and small letters, which ${an(label)} address never does: ${AGAIN}`)
  }
  if (found.code === "bad_checksum") {
    return network.format === "evm"
      ? refused(
          "bad_checksum",
          `This ${label} address's capital and small letters do not match its checksum, so it has a typo: ${AGAIN}`
        )
      : refused("bad_checksum", `This ${label} address has a typo (its checksum does not match): ${AGAIN}`)
  }
  return notAnAddress(network)
}

/**
 * Whether `address` can take a refund of `coin`, and the address as it should be stored: trimmed,
 * bech32 lowercased, EVM and base58 as given.
 */
export function validateRefundAddress(coin: Coin, address: string): RefundAddressCheck {
  const network = REFUND_NETWORKS[coin]
  const label = network.label
  const given = typeof address === "string" ? address.trim() : ""
  if (!given) return refused("empty", `Enter the ${label} address to send the refund to.`)
  if (given.length > REFUND_ADDRESS_MAX_LENGTH) {
    return refused("too_long", `This is too long to be ${an(label)} address: paste the address only.`)
  }
  const found = read(given)

  if (network.format === "evm") {
    if (found.kind === "evm") return { ok: true, address: found.address }
    if (found.kind === "utxo") return wrongNetwork(found, network)
    if (found.format === "evm") return malformed(found, network)
    return found.format === "mweb" ? wrongNetwork(found, network) : notAnAddress(network)
  }

  const chain: Chain = network.format
  if (found.kind === "utxo") {
    if (!found.chains.includes(chain)) return wrongNetwork(found, network)
    return found.test
      ? refused("testnet", `This is a ${CHAIN_LABELS[chain]} testnet address: give a ${label} mainnet address.`)
      : { ok: true, address: found.address }
  }
  if (found.kind === "evm" || found.format === "evm") return wrongNetwork(found, network)
  if (found.format === "mweb") return chain === "litecoin" ? malformed(found, network) : wrongNetwork(found, network)
  // a broken address of the other chain is no typo of this one's
  if (found.chains && !found.chains.includes(chain)) return notAnAddress(network)
  return malformed(found, network)
}

/**
 * An address shown back to someone who only holds the link: its first 6 and last 4 characters (an
 * input too short for that: its first 2).
 */
export function maskAddress(address: string): string {
  const given = address.trim()
  if (!given) return ""
  return given.length > 12 ? `${given.slice(0, 6)}…${given.slice(-4)}` : `${given.slice(0, 2)}…`
}
