/** Only wallet schemes are linked, so a value of another kind (a `javascript:` one) never reaches an `href`. */
const WALLET_SCHEMES = ["bitcoin", "litecoin", "ethereum"] as const
export type WalletScheme = (typeof WALLET_SCHEMES)[number]

export function walletScheme(uri: string | null | undefined): WalletScheme | null {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(uri ?? "")?.[1]?.toLowerCase()
  return WALLET_SCHEMES.find((known) => known === scheme) ?? null
}

export const walletHref = (uri: string | null | undefined): string | null => (walletScheme(uri) ? uri! : null)
