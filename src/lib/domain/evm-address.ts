import { keccak_256 } from "@noble/hashes/sha3"
import { utf8ToBytes } from "@noble/hashes/utils"
import { isCoin } from "../crypto-api/constants"
import { ON_CHAIN } from "./chains"

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/

export const isEvmAddress = (address: string): boolean => EVM_ADDRESS.test(address)

/** EIP-55: which of the address's letters are capitals, from the keccak-256 of its lowercase hex. */
function checksumCase(lowerHex: string): string {
  const hash = keccak_256(utf8ToBytes(lowerHex))
  let out = ""
  for (let i = 0; i < 40; i++) {
    const nibble = i % 2 === 0 ? hash[i >> 1] >> 4 : hash[i >> 1] & 0x0f
    out += nibble >= 8 ? lowerHex[i].toUpperCase() : lowerHex[i]
  }
  return out
}

/** The hex digits' case matches EIP-55, or the address is in one case only (which carries no checksum). */
export function hasValidChecksum(address: string): boolean {
  const hex = address.slice(2)
  const lower = hex.toLowerCase()
  return hex === lower || hex === hex.toUpperCase() || checksumCase(lower) === hex
}

/**
 * With its EIP-55 checksum, which wallets verify. A mixed-case address whose checksum does not match is
 * returned as it is: correcting it would hide a typo, and the wallet that refuses it is the right outcome.
 */
export function checksummedAddress(address: string): string {
  if (!isEvmAddress(address) || !hasValidChecksum(address)) return address
  return `0x${checksumCase(address.slice(2).toLowerCase())}`
}

/**
 * A payment's address as the plugin hands it out (session data, the store's status view): EIP-55 for a
 * coin of an EVM chain, any other coin's as the service wrote it (a checksum is Ethereum's, never applied
 * to a Bitcoin or Litecoin address whatever it looks like). The ledger keeps the service's form, so two
 * EVM addresses are compared by their lowercase.
 */
export function addressForCoin(coin: string | null | undefined, address: string): string {
  return isCoin(coin) && ON_CHAIN[coin].uri === "eip681" ? checksummedAddress(address) : address
}
