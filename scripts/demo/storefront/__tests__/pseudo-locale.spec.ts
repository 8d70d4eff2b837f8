import type Medusa from "@medusajs/js-sdk"
import * as React from "react"
import { renderToStaticMarkup } from "react-dom/server"
import { CryptoCoinPicker } from "../../../../docs/storefront/CryptoCoinPicker"
import { CryptoPaymentBox } from "../../../../docs/storefront/CryptoPaymentBox"
import {
  coinCode,
  COINS,
  CryptoPaymentView,
  CryptoSessionData,
  VERDICTS,
} from "../../../../docs/storefront/crypto-payment"
import {
  CRYPTO_PAYMENT_LABELS,
  CryptoPaymentLabelOverrides,
  CryptoPaymentLabels,
} from "../../../../docs/storefront/crypto-payment-labels"
import { fillLabel } from "../../../../docs/storefront/crypto-payment-i18n"

/*
 * A pseudo-locale render: every label wrapped as "⟦…⟧", the components rendered to static markup in every
 * state, and no text a customer reads (text nodes, alt, aria-label, title) may stand outside ⟦⟧ except
 * numbers, amounts, coin codes, the address, the payment id and punctuation. A text written into a
 * component instead of taken from the labels shows up here.
 */

// the unit tests' swc transform compiles the components' JSX to React.createElement (the classic runtime)
Object.assign(globalThis, { React })

const wrap = (text: string) => `⟦${text}⟧`
const wrapAll = <T extends Record<string, string>>(texts: T): T => {
  const out: Record<string, string> = {}
  for (const key of Object.keys(texts)) out[key] = wrap(texts[key])
  return out as T
}
const { coins, errors, ...texts } = CRYPTO_PAYMENT_LABELS.en
const PSEUDO: CryptoPaymentLabels = {
  ...wrapAll(texts as Record<string, string>),
  coins: wrapAll(coins),
  errors: wrapAll(errors),
} as CryptoPaymentLabels

const ADDRESS = "bc1qpseudoaddress"
const PAYMENT_ID = "pay_pseudo_1"
const IN_AN_HOUR = new Date(Date.now() + 3_600_000).toISOString()
const AN_HOUR_AGO = new Date(Date.now() - 3_600_000).toISOString()
const sdk = {} as Medusa // never called: effects do not run in a static render

const session = (over: Partial<CryptoSessionData> = {}): CryptoSessionData => ({
  paymentId: PAYMENT_ID,
  kind: "payment",
  invoiceUrl: "https://pay.example.test/p/pay_pseudo_1",
  expiresAt: IN_AN_HOUR,
  status: "PENDING",
  placeOrder: "before_payment",
  baseAmount: "84.00",
  baseCurrency: "USD",
  amount: 0.0013,
  currency: "BTC",
  address: ADDRESS,
  walletUri: `bitcoin:${ADDRESS}?amount=0.0013`,
  qrCode: `btc:${ADDRESS}?amount=0.0013`,
  ...over,
})

const view = (over: Partial<CryptoPaymentView> = {}): CryptoPaymentView => ({
  paymentId: PAYMENT_ID,
  kind: "payment",
  status: "PENDING",
  verdict: "awaiting",
  final: false,
  confirmations: 0,
  requiredConfirmations: 3,
  receivedAmount: "0",
  requiredAmount: "1234.0013",
  currency: "BTC",
  address: ADDRESS,
  walletUri: `bitcoin:${ADDRESS}?amount=1234.0013`,
  qrCode: `btc:${ADDRESS}?amount=1234.0013`,
  invoiceUrl: "https://pay.example.test/p/pay_pseudo_1",
  expiresAt: IN_AN_HOUR,
  underpaid: false,
  overpaid: false,
  checkedAt: new Date().toISOString(),
  ...over,
})

const invoice = session({
  kind: "invoice",
  amount: undefined,
  currency: undefined,
  address: undefined,
  walletUri: undefined,
  qrCode: undefined,
})
const noCoin = { currency: null, address: null, requiredAmount: null, walletUri: null, qrCode: null }

const BOXES: Array<[string, CryptoSessionData, CryptoPaymentView | undefined]> = [
  ["an invoice before the first read", invoice, undefined],
  ["a payment before the first read", session(), undefined],
  ["a payment whose window closed before the first read", session({ expiresAt: AN_HOUR_AGO }), undefined],
  ["an invoice, no coin yet", invoice, view({ kind: "invoice", ...noCoin })],
  ["awaiting the coins", session(), view()],
  ["awaiting, with the window closing", session(), view({ expiresAt: AN_HOUR_AGO })],
  ["confirming", session(), view({ verdict: "confirming", receivedAmount: "1234.0013", confirmations: 1 })],
  [
    "confirming, no count",
    session(),
    view({ verdict: "confirming", receivedAmount: "1234.0013", requiredConfirmations: null }),
  ],
  ["recorded by the service", session(), view({ verdict: "confirming", status: "COMPLETED" })],
  ["paid", session(), view({ verdict: "paid", status: "COMPLETED", final: true, receivedAmount: "1234.0013" })],
  [
    "paid too much",
    session(),
    view({ verdict: "paid", status: "COMPLETED", final: true, receivedAmount: "1300", overpaid: true }),
  ],
  ["short", session(), view({ verdict: "short", receivedAmount: "1000.5", underpaid: true })],
  ["expired, nothing received", session(), view({ verdict: "expired", status: "EXPIRED", final: true })],
  [
    "expired, part received",
    session(),
    view({ verdict: "expired", status: "EXPIRED", final: true, receivedAmount: "0.5", underpaid: true }),
  ],
  ["failed, nothing received", session(), view({ verdict: "failed", status: "FAILED", final: true })],
  [
    "failed, part received",
    session(),
    view({ verdict: "failed", status: "FAILED", final: true, receivedAmount: "0.5" }),
  ],
  [
    "needs attention",
    session(),
    view({ verdict: "needs_attention", status: "COMPLETED", final: true, receivedAmount: "1234.0013" }),
  ],
  ["a USDT payment", session({ currency: "USDT_BEP20" }), view({ currency: "USDT_BEP20" })],
  ["a USDT payment on Ethereum", session({ currency: "USDT_ERC20" }), view({ currency: "USDT_ERC20" })],
  ["a USDT payment before the first read", session({ currency: "USDT_BEP20", walletUri: undefined }), undefined],
]

const box = (
  data: CryptoSessionData,
  initialView: CryptoPaymentView | undefined,
  props: { locale?: string; labels?: CryptoPaymentLabelOverrides } = { labels: PSEUDO }
) =>
  renderToStaticMarkup(
    React.createElement(CryptoPaymentBox, { sdk, session: data, initialView, onStartAgain: () => {}, ...props })
  )

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'" }
const decode = (html: string) => html.replace(/&(?:amp|lt|gt|quot|#x27);/g, (entity) => ENTITIES[entity])

/** What a customer reads in the markup: its text nodes, and the alt, aria-label and title of its elements. */
function readable(markup: string): string[] {
  const attributes = Array.from(markup.matchAll(/\s(?:alt|aria-label|title)="([^"]*)"/g), (match) => match[1])
  const nodes = markup.split(/<[^>]*>/)
  return [...attributes, ...nodes].map(decode).filter((text) => text.trim() !== "")
}

const DATA = [ADDRESS, PAYMENT_ID, ...COINS, ...COINS.map(coinCode)].sort((a, b) => b.length - a.length)

/**
 * What is left of a text once the labels (⟦…⟧, also a label filled into another: "⟦Send ⟦USDT on …⟧ only⟧") and
 * the data (address, payment id, coin codes) are taken out.
 */
function unlabelled(text: string): string {
  let rest = text
  for (let before = ""; before !== rest;) {
    before = rest
    rest = rest.replace(/⟦[^⟦⟧]*⟧/g, "")
  }
  for (const datum of DATA) rest = rest.split(datum).join("")
  return rest
}

/** Numbers, amounts and punctuation: all that may stand outside the labels. */
const NEUTRAL = /^[\s\d.,:;!?()\-–—…/%+\u00a0\u202f]*$/

function expectAllLabelled(markup: string) {
  const texts = readable(markup)
  expect(texts.length).toBeGreaterThan(0)
  expect(texts.filter((text) => !NEUTRAL.test(unlabelled(text)))).toEqual([])
}

describe("pseudo-locale render: every text the components show comes from the labels", () => {
  it("covers every verdict", () => {
    const shown = new Set(BOXES.map(([, , v]) => v?.verdict).filter(Boolean))
    expect([...shown].sort()).toEqual([...VERDICTS].sort())
  })

  it.each(BOXES)("the payment box: %s", (_, data, initialView) => {
    const markup = box(data, initialView)
    expect(markup).toContain("⟦")
    expectAllLabelled(markup)
  })

  it.each([
    ["with any coin", true, undefined],
    ["with a coin chosen", true, "ETH" as const],
    ["coins only", false, "USDT_ERC20" as const],
  ])("the coin picker: %s", (_, allowInvoice, value) => {
    const markup = renderToStaticMarkup(
      React.createElement(CryptoCoinPicker, { value, onChange: () => {}, allowInvoice, labels: PSEUDO })
    )
    expectAllLabelled(markup)
  })

  it("finds a text that is not a label", () => {
    expect(() => expectAllLabelled("<p>⟦Paid⟧</p><span>Thank you</span>")).toThrow()
    expect(() => expectAllLabelled('<img alt="QR code"/>')).toThrow()
    expect(() => expectAllLabelled(`<p>⟦Send⟧ 1,234.5 USDT ERC20 ${ADDRESS}</p>`)).not.toThrow()
    expect(() => expectAllLabelled("<p>⟦Send ⟦USDT on BNB⟧ only⟧</p>")).not.toThrow()
    expect(() => expectAllLabelled("<p>⟦Send ⟦USDT on BNB⟧⟧ only</p>")).toThrow()
  })
})

describe("the components in a language", () => {
  it("German: texts, amounts and counts", () => {
    const markup = box(session(), view({ verdict: "confirming", receivedAmount: "1234.0013", confirmations: 1 }), {
      locale: "de-DE",
    })
    expect(markup).toContain("Wird bestätigt")
    expect(markup).toContain("1.234,0013 BTC eingegangen: 1 von 3 Bestätigungen")
    const awaiting = box(session(), view(), { locale: "de-DE" })
    // the countdown starts in the browser: a server writes its shape
    expect(awaiting).toContain("Läuft ab in –:––")
    expect(awaiting).toContain("1.234,0013 BTC")
    expect(awaiting).toContain('aria-label="Betrag kopieren"')
  })

  it("French and Spanish coin pickers", () => {
    const picker = (locale: string) =>
      renderToStaticMarkup(React.createElement(CryptoCoinPicker, { value: undefined, onChange: () => {}, locale }))
    expect(picker("fr-FR")).toContain("USDT sur Ethereum (ERC-20)")
    expect(picker("de")).toContain("USDT auf BNB Smart Chain (BEP-20)")
    expect(picker("es")).toContain("Cualquier criptomoneda")
  })

  it("English stays as the storefront test reads it", () => {
    const markup = box(session(), view(), {})
    expect(markup).toContain("Awaiting payment")
    expect(markup).toContain("Expires in –:––")
    expect(markup).toContain("1,234.0013 BTC")
  })

  it("a label of the caller's wins over the language's", () => {
    const markup = box(session(), view({ verdict: "paid", status: "COMPLETED", final: true }), {
      locale: "es",
      labels: { titlePaid: "¡Pagado!" },
    })
    expect(markup).toContain("¡Pagado!")
    expect(markup).toContain("La tienda ha aceptado tu pago")
  })
})

/** The wallet link's href (decoded from the markup), if the box has one. */
const walletLink = (markup: string) => {
  const link = /<a href="([^"]*)" data-testid="crypto-wallet-link">/.exec(markup)
  return link ? decode(link[1]) : undefined
}
/** The text of the network line, if the box has one. */
const networkLine = (markup: string) => {
  const line = /<p [^>]*data-testid="crypto-network"[^>]*>([^<]*)<\/p>/.exec(markup)
  return line ? decode(line[1]) : undefined
}
const EVM_ADDRESS = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
const BEP20_URI = `ethereum:0x55d398326f99059fF775485246999027B3197955@56/transfer?address=${EVM_ADDRESS}&uint256=84000000000000000000`

describe("the QR code and the wallet link: the wallet URI, never the service's payload", () => {
  it("links the view's wallet URI, with the QR code's place, and never the service's qrCode", () => {
    const markup = box(session(), view(), {})
    expect(walletLink(markup)).toBe(`bitcoin:${ADDRESS}?amount=1234.0013`)
    // the image arrives from the QR route once mounted: its place is kept meanwhile
    expect(markup).toContain("crypto-qr crypto-qr--empty")
    expect(markup).not.toContain(`btc:${ADDRESS}`)
  })

  it("takes the session's wallet URI before the first read", () => {
    expect(walletLink(box(session(), undefined, {}))).toBe(`bitcoin:${ADDRESS}?amount=0.0013`)
  })

  it("a short payment: the QR code and the link are there, carrying the rest", () => {
    const rest = `bitcoin:${ADDRESS}?amount=233.5013`
    const markup = box(
      session(),
      view({ verdict: "short", receivedAmount: "1000.5", underpaid: true, walletUri: rest }),
      {}
    )
    expect(walletLink(markup)).toBe(rest)
    expect(markup).toContain("crypto-qr crypto-qr--empty")
    expect(markup).toContain("233.5013 BTC")
  })

  it("keeps the EIP-681 URI whole in the link (its & and @ included)", () => {
    const markup = box(
      session({ currency: "USDT_BEP20", address: EVM_ADDRESS, walletUri: BEP20_URI }),
      view({ currency: "USDT_BEP20", address: EVM_ADDRESS, requiredAmount: "84", walletUri: BEP20_URI }),
      {}
    )
    expect(walletLink(markup)).toBe(BEP20_URI)
    // the address as the view writes it, checksum and all
    expect(markup).toContain(`<code>${EVM_ADDRESS}</code>`)
  })

  it.each([
    [
      "a view without one (a backend older than the wallet URI)",
      session({ walletUri: undefined }),
      view({ walletUri: undefined }),
    ],
    [
      "a view whose wallet URI is null (nothing left to send), over the session's",
      session(),
      view({ walletUri: null }),
    ],
    ["a wallet URI of another scheme", session({ walletUri: undefined }), view({ walletUri: "javascript:alert(1)" })],
  ])("no wallet URI, no QR code and no link: %s", (_, data, read) => {
    const markup = box(data, read, {})
    expect(walletLink(markup)).toBeUndefined()
    expect(markup).not.toContain("crypto-qr")
    expect(markup).not.toContain('href="btc:')
    // the amount and the address are still there to copy
    expect(markup).toContain(`<code>${ADDRESS}</code>`)
  })
})

describe("the network line of a token payment", () => {
  it.each([
    ["en", "Send USDT on BNB Smart Chain (BEP-20) only: coins sent on another network are lost."],
    ["de", "Senden Sie nur USDT auf BNB Smart Chain (BEP-20): Beträge in einem anderen Netzwerk sind verloren."],
    [
      "fr",
      "Envoyez uniquement des USDT sur BNB Smart Chain (BEP-20)\u00a0: les fonds envoyés sur un autre réseau sont perdus.",
    ],
    ["es", "Envía solo USDT en BNB Smart Chain (BEP-20): los fondos enviados por otra red se pierden."],
  ] as const)("USDT_BEP20 in %s names BNB Smart Chain (BEP-20)", (locale, text) => {
    const markup = box(session({ currency: "USDT_BEP20" }), view({ currency: "USDT_BEP20" }), { locale })
    expect(networkLine(markup)).toBe(text)
    const labels = CRYPTO_PAYMENT_LABELS[locale]
    expect(networkLine(markup)).toBe(fillLabel(labels.sendOnNetworkOnly, { network: labels.coins.USDT_BEP20 }))
  })

  it("USDT_ERC20 names Ethereum (ERC-20), also before the first read", () => {
    expect(networkLine(box(session({ currency: "USDT_ERC20" }), view({ currency: "USDT_ERC20" }), {}))).toBe(
      "Send USDT on Ethereum (ERC-20) only: coins sent on another network are lost."
    )
    expect(networkLine(box(session({ currency: "USDT_ERC20" }), undefined, {}))).toContain("Ethereum (ERC-20)")
  })

  it.each(["BTC", "ETH", "LTC"] as const)("%s, a coin on its own chain, has no warning: its name, quietly", (coin) => {
    const markup = box(session({ currency: coin }), view({ currency: coin }), {})
    expect(networkLine(markup)).toBeUndefined()
    expect(markup).toContain(`<span class="crypto-hint">${CRYPTO_PAYMENT_LABELS.en.coins[coin]}</span>`)
  })

  it("is in the coin picker too: each USDT named with its network", () => {
    const markup = renderToStaticMarkup(React.createElement(CryptoCoinPicker, { value: undefined, onChange: () => {} }))
    expect(markup).toContain("USDT on Ethereum (ERC-20)")
    expect(markup).toContain("USDT on BNB Smart Chain (BEP-20)")
  })
})
