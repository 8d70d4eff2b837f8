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
  qrCode: `bitcoin:${ADDRESS}?amount=0.0013`,
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
  qrCode: `bitcoin:${ADDRESS}?amount=1234.0013`,
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
  qrCode: undefined,
})
const noCoin = { currency: null, address: null, requiredAmount: null, qrCode: null }

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

/** What is left of a text once the labels (⟦…⟧) and the data (address, payment id, coin codes) are taken out. */
function unlabelled(text: string): string {
  let rest = text.replace(/⟦[^⟦⟧]*⟧/g, "")
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
    expect(awaiting).toMatch(/Läuft ab in \d+:\d\d/)
    expect(awaiting).toContain("1.234,0013 BTC")
    expect(awaiting).toContain('aria-label="Betrag kopieren"')
  })

  it("French and Spanish coin pickers", () => {
    const picker = (locale: string) =>
      renderToStaticMarkup(React.createElement(CryptoCoinPicker, { value: undefined, onChange: () => {}, locale }))
    expect(picker("fr-FR")).toContain("USDT sur Ethereum (ERC20)")
    expect(picker("es")).toContain("Cualquier criptomoneda")
  })

  it("English stays as the storefront test reads it", () => {
    const markup = box(session(), view(), {})
    expect(markup).toContain("Awaiting payment")
    expect(markup).toMatch(/Expires in \d+:\d\d/)
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
