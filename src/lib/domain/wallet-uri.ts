import type { Coin } from "../crypto-api/constants"
import { isCoin } from "../crypto-api/constants"
import { ON_CHAIN } from "./chains"
import { fromUnits, toUnits } from "./decimal"
import { coinText, coinUnits } from "./money"
import { checksummedAddress, isEvmAddress } from "./evm-address"

/**
 * The URI a wallet opens (docs/money.md, "Wallet URIs"): the spec's QR payload (`btc:<address>?amount=`)
 * is no wallet's scheme.
 */

const BIP21_ADDRESS = /^[A-Za-z0-9]{1,128}$/

/** An amount in the chain's smallest units, rounded up. */
export function chainUnits(coin: Coin, amount: string): bigint {
  return toUnits(amount, ON_CHAIN[coin].decimals, "up")
}

/**
 * The wallet URI asking for `amount` (decimal text) of `coin` at `address`; null when the address is not
 * of its network's form (nothing the service wrote is put into a URI unchecked) or the amount is nothing.
 */
export function walletUri(coin: Coin, address: string, amount: string): string | null {
  const chain = ON_CHAIN[coin]
  const units = chainUnits(coin, amount)
  if (units <= 0n) return null
  if (chain.uri === "bip21") {
    if (!BIP21_ADDRESS.test(address)) return null
    const coins = fromUnits(units, chain.decimals).replace(/\.?0+$/, "")
    return `${chain.scheme}:${address}?amount=${coins}`
  }
  if (!isEvmAddress(address)) return null
  const to = checksummedAddress(address)
  return chain.contract
    ? `${chain.scheme}:${chain.contract}@${chain.chainId}/transfer?address=${to}&uint256=${units}`
    : `${chain.scheme}:${to}@${chain.chainId}?value=${units}`
}

/** What a payment's address still has to receive: required − received, nothing below zero. */
export function amountToSend(coin: Coin, required: string, received: string | null | undefined): bigint {
  const left = coinUnits(required, coin, "up") - (received ? coinUnits(received, coin, "down") : 0n)
  return left > 0n ? left : 0n
}

/** A payment as far as its wallet URI needs it: its own amounts at its own address. */
export type PaymentToPay = {
  status: string
  coin?: string | null
  address?: string | null
  required?: string | null
  received?: string | null
}

/**
 * The wallet URI of a payment still open, for what is left to send; null before a coin and address are
 * known, once nothing is left, or when the service no longer takes money for it.
 */
export function walletUriOf(payment: PaymentToPay): string | null {
  const { coin, address, required } = payment
  if (payment.status !== "PENDING" || !isCoin(coin) || !address || !required) return null
  const left = amountToSend(coin, required, payment.received)
  return left > 0n ? walletUri(coin, address, coinText(left, coin)) : null
}
