import { randomBytes } from "node:crypto"
import type { Coin } from "./spec-facts"

const BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

function randomFrom(alphabet: string, length: number): string {
  const bytes = randomBytes(length)
  let out = ""
  for (let i = 0; i < length; i++) out += alphabet[bytes[i] % alphabet.length]
  return out
}

/** A fresh address in the format of the coin's chain. */
export function generateAddress(coin: Coin): string {
  switch (coin) {
    case "BTC":
      return `bc1q${randomFrom(BECH32, 38)}`
    case "LTC":
      return `ltc1q${randomFrom(BECH32, 38)}`
    default:
      return `0x${randomBytes(20).toString("hex")}`
  }
}
