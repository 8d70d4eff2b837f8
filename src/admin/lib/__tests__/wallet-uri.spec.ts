import { walletHref, walletScheme } from "../wallet-uri"

describe("the wallet URI's link", () => {
  it.each([
    ["bitcoin:bc1qexampleaddress?amount=0.0006", "bitcoin"],
    ["litecoin:ltc1qexample?amount=0.5", "litecoin"],
    ["ethereum:0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed@1?value=21000000000000000", "ethereum"],
    [
      "ethereum:0x55d398326f99059fF775485246999027B3197955@56/transfer?address=0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed&uint256=1",
      "ethereum",
    ],
  ])("links a wallet's scheme: %s", (uri, scheme) => {
    expect(walletScheme(uri)).toBe(scheme)
    expect(walletHref(uri)).toBe(uri)
  })

  it.each([
    ["the service's own payload", "usdt_bep20:0xabc?amount=1"],
    ["a script", "javascript:alert(1)"],
    ["a web page", "https://pay.example/inv_1"],
    ["no scheme", "bc1qexampleaddress"],
    ["nothing", ""],
  ])("links nothing else: %s", (_, uri) => {
    expect(walletScheme(uri)).toBeNull()
    expect(walletHref(uri)).toBeNull()
  })

  it("links nothing without a URI", () => {
    expect(walletHref(null)).toBeNull()
    expect(walletHref(undefined)).toBeNull()
  })
})
