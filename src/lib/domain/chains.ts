import { COIN_DECIMALS, type Coin } from "../crypto-api/constants"

/**
 * What a wallet needs to pay each coin on chain; each row names the public pages that confirm it.
 * `decimals` is the chain's smallest unit: a wallet can send no less, so an amount asked for at more
 * places is rounded up to it.
 */
export type ChainFacts = {
  /** The network, as the customer's wallet names it. */
  network: "bitcoin" | "litecoin" | "ethereum" | "bsc"
  /** `bip21`: `<scheme>:<address>?amount=<coins>`; `eip681`: ether or an ERC-20 `transfer`. */
  uri: "bip21" | "eip681"
  scheme: "bitcoin" | "litecoin" | "ethereum"
  decimals: number
  /** EIP-155 chain id (EVM networks). */
  chainId?: number
  /** The token's contract (EIP-55), for a token. */
  contract?: string
  confirmedBy: readonly string[]
}

export const ON_CHAIN: Readonly<Record<Coin, ChainFacts>> = {
  BTC: {
    network: "bitcoin",
    uri: "bip21",
    scheme: "bitcoin",
    decimals: 8,
    confirmedBy: ["https://github.com/bitcoin/bips/blob/master/bip-0021.mediawiki"],
  },
  LTC: {
    network: "litecoin",
    uri: "bip21",
    scheme: "litecoin",
    decimals: 8,
    // Litecoin Core parses `litecoin:` URIs as Bitcoin Core parses BIP-21 (src/qt/guiutil.cpp)
    confirmedBy: ["https://github.com/litecoin-project/litecoin/blob/master/src/qt/guiutil.cpp"],
  },
  ETH: {
    network: "ethereum",
    uri: "eip681",
    scheme: "ethereum",
    decimals: 18,
    chainId: 1,
    confirmedBy: ["https://eips.ethereum.org/EIPS/eip-681", "https://chainlist.org/chain/1"],
  },
  USDT_ERC20: {
    network: "ethereum",
    uri: "eip681",
    scheme: "ethereum",
    decimals: 6,
    chainId: 1,
    contract: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
    confirmedBy: [
      "https://etherscan.io/token/0xdac17f958d2ee523a2206206994597c13d831ec7",
      "https://tether.to/en/supported-protocols",
    ],
  },
  USDT_BEP20: {
    network: "bsc",
    uri: "eip681",
    scheme: "ethereum",
    decimals: 18,
    chainId: 56,
    contract: "0x55d398326f99059fF775485246999027B3197955",
    confirmedBy: [
      "https://bscscan.com/token/0x55d398326f99059ff775485246999027b3197955",
      "https://chainlist.org/chain/56",
    ],
  },
}

/**
 * Coin units (parsed at COIN_DECIMALS) rounded up to a whole unit of the chain: the least a wallet sends
 * for them. The same units when the service wrote no more places than the chain has.
 */
export function upToChainUnit(coin: Coin, units: bigint): bigint {
  const step = chainUnitIn(coin)
  return ((units + step - 1n) / step) * step
}

/** One unit of the chain in coin units (COIN_DECIMALS): what no wallet can send a part of. */
export function chainUnitIn(coin: Coin): bigint {
  return 10n ** BigInt(COIN_DECIMALS[coin] - ON_CHAIN[coin].decimals)
}

/**
 * The places coins owed back are shown and sent with: the chain's smallest unit, at most 8 places (what
 * wallets and exchanges take for ETH: wei-exact amounts are typed nowhere), and 6 for USDT on either chain
 * (the ERC-20 token's own unit; the BEP-20 token's 18 places quote the same dollar). Never more than the chain.
 */
export const SENDABLE_DECIMALS: Readonly<Record<Coin, number>> = {
  BTC: Math.min(ON_CHAIN.BTC.decimals, 8),
  LTC: Math.min(ON_CHAIN.LTC.decimals, 8),
  ETH: Math.min(ON_CHAIN.ETH.decimals, 8),
  USDT_ERC20: Math.min(ON_CHAIN.USDT_ERC20.decimals, 6),
  USDT_BEP20: Math.min(ON_CHAIN.USDT_BEP20.decimals, 6),
}

/** One sendable unit in coin units (COIN_DECIMALS). */
export function sendableUnitIn(coin: Coin): bigint {
  return 10n ** BigInt(COIN_DECIMALS[coin] - SENDABLE_DECIMALS[coin])
}

/**
 * Coin units (parsed at COIN_DECIMALS) rounded down to a whole sendable unit: what the shop sends for coins
 * it owes, less than them by under one unit, in its favour. The same units when they are sendable already.
 */
export function downToSendableUnit(coin: Coin, units: bigint): bigint {
  const step = sendableUnitIn(coin)
  const rest = units % step
  return units - (rest < 0n ? rest + step : rest)
}
