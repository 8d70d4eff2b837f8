/**
 * The wallet URI of a payment, as the admin links it: the server builds it (BIP-21 `bitcoin:` and
 * `litecoin:`, EIP-681 `ethereum:` for ether and the USDT tokens); the card links only those schemes,
 * so a value of another kind (a `javascript:` one, say) is never put in an `href`.
 */
const WALLET_SCHEMES = ["bitcoin", "litecoin", "ethereum"] as const
export type WalletScheme = (typeof WALLET_SCHEMES)[number]

/** The URI's scheme when it is one a wallet opens, else null. */
export function walletScheme(uri: string | null | undefined): WalletScheme | null {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(uri ?? "")?.[1]?.toLowerCase()
  return WALLET_SCHEMES.find((known) => known === scheme) ?? null
}

/** The URI to put in an "open in a wallet" link, or null when it is none a wallet opens. */
export const walletHref = (uri: string | null | undefined): string | null => (walletScheme(uri) ? uri! : null)
