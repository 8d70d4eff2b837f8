import * as React from "react"
import { renderToStaticMarkup } from "react-dom/server"
import { CryptoRefundPage } from "../../../../docs/storefront/CryptoRefundPage"
import {
  cryptoRefundState,
  CryptoRefundView,
  fetchCryptoRefund,
  formatCryptoDate,
  giveCryptoRefundAddress,
  REFUND_ADDRESS_REASONS,
  refundAddressProblem,
  refundCoinsShown,
  refundTokenOf,
} from "../../../../docs/storefront/crypto-refund"
import {
  CRYPTO_REFUND_LABELS,
  cryptoRefundLabels,
  CryptoRefundLabels,
} from "../../../../docs/storefront/crypto-refund-labels"
import { cryptoErrorCodeOf, cryptoErrorMessage } from "../../../../docs/storefront/crypto-payment-errors"
import { cryptoPaymentLabels } from "../../../../docs/storefront/crypto-payment-i18n"
import { CRYPTO_PAYMENT_LABELS } from "../../../../docs/storefront/crypto-payment-labels"
import { isRefundLinkPath } from "../app/payment-link"

// the unit tests' swc transform compiles the components' JSX to React.createElement (the classic runtime)
Object.assign(globalThis, { React })

const TOKEN = "cryptoowed_01JTEST.abcdefghijklmnopqrstuvwxyz0123456789-_ABCDEFG"
const BACKEND = { baseUrl: "http://localhost:9000/", publishableKey: "pk_test" }
const MASKED = "bc1qar…5mdq"
const IN_30_DAYS = new Date(Date.now() + 30 * 86_400_000).toISOString()

const refund = (over: Partial<CryptoRefundView> = {}): CryptoRefundView => ({
  kind: "refund",
  coin: "BTC",
  coin_amount: "1234.00012000",
  store_amount: "10.00",
  store_currency: "USD",
  networks: [{ coin: "BTC", network: "bitcoin", label: "Bitcoin", format: "bitcoin", shares_format: false }],
  address: null,
  address_coin: null,
  can_change: true,
  sent: false,
  expires_at: IN_30_DAYS,
  ...over,
})

const EVM = (coin: "ETH" | "USDT_ERC20" | "USDT_BEP20", label: string, network: "ethereum" | "bsc") => ({
  coin,
  network,
  label,
  format: "evm" as const,
  shares_format: true,
})

describe("the refund link's token", () => {
  it.each([
    // the link the shop sends: the token after #, which no browser sends to a server
    ["/crypto-refund", `#${TOKEN}`, TOKEN],
    ["/crypto-refund/", `#${TOKEN}`, TOKEN],
    ["/crypto-refund", "#a%2Eb", "a.b"],
    ["/crypto-refund", `#%20${TOKEN}%0A`, TOKEN],
    ["/crypto-refund", "# ", null],
    ["/crypto-refund", "#", null],
    ["/crypto-refund", "", null],
    ["/crypto-refund", "#%E0%A4%A", null],
    ["/crypto-refund", `#${"a".repeat(300)}`, "a".repeat(300)],
    ["/crypto-refund", `#${"a".repeat(301)}`, null],
    // under a prefix of the storefront's (a country code, a base path)
    ["/us/crypto-refund", `#${TOKEN}`, TOKEN],
    // links sent before: the token in the path
    [`/crypto-refund/${TOKEN}`, "", TOKEN],
    [`/crypto-refund/${TOKEN}/`, "", TOKEN],
    ["/crypto-refund/a%2Eb", "", "a.b"],
    [`/shop/crypto-refund/${TOKEN}`, "", TOKEN],
    ["/crypto-refund/a/b", "", null],
    // another page
    ["/crypto-refundx", `#${TOKEN}`, null],
    ["/payment-collection/pay_col_1", "", null],
    ["/", "#/cart", null],
    ["/", `#${TOKEN}`, null],
  ])("%s %s → %s", (pathname, hash, token) => {
    expect(refundTokenOf({ pathname, hash })).toBe(token)
  })

  it("the fragment wins over a path's token", () => {
    expect(refundTokenOf({ pathname: "/crypto-refund/old.token", hash: `#${TOKEN}` })).toBe(TOKEN)
  })

  it.each([
    ["/crypto-refund", true],
    ["/crypto-refund/", true],
    [`/crypto-refund/${TOKEN}`, true],
    [`/crypto-refund/${TOKEN}/`, true],
    ["/crypto-refund/a/b", false],
    ["/us/crypto-refund", false],
    ["/payment-collection/pay_col_1", false],
    ["/", false],
  ])("the demo storefront serves the refund page at %s: %s", (pathname, served) => {
    expect(isRefundLinkPath(pathname)).toBe(served)
  })
})

/** Every text of a label set, by its path ("save", "reasons.testnet"). */
function texts(labels: CryptoRefundLabels): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(labels)) {
    if (typeof value === "string") out[key] = value
    else for (const [inner, text] of Object.entries(value as Record<string, string>)) out[`${key}.${inner}`] = text
  }
  return out
}
const placeholders = (text: string) => (text.match(/\{\{\w+\}\}/g) ?? []).sort()
const ENGLISH = texts(CRYPTO_REFUND_LABELS.en)

describe("the refund page's labels", () => {
  it("explain every reason an address is refused", () => {
    expect(Object.keys(CRYPTO_REFUND_LABELS.en.reasons).sort()).toEqual([...REFUND_ADDRESS_REASONS].sort())
  })

  it("are in the payment's languages", () => {
    expect(Object.keys(CRYPTO_REFUND_LABELS).sort()).toEqual(Object.keys(CRYPTO_PAYMENT_LABELS).sort())
  })

  describe.each((["de", "fr", "es"] as const).map((language) => [language, texts(CRYPTO_REFUND_LABELS[language])]))(
    "%s",
    (_, translated) => {
      it("has exactly the English keys, none empty", () => {
        expect(Object.keys(translated).sort()).toEqual(Object.keys(ENGLISH).sort())
        for (const [key, text] of Object.entries(translated)) expect([key, text.trim() === ""]).toEqual([key, false])
      })

      it("keeps every text's placeholders", () => {
        for (const key of Object.keys(ENGLISH)) {
          expect([key, placeholders(translated[key])]).toEqual([key, placeholders(ENGLISH[key])])
        }
      })

      it("translates the sentences", () => {
        const same = Object.keys(ENGLISH).filter((key) => translated[key] === ENGLISH[key] && /\s/.test(ENGLISH[key]))
        expect(same).toEqual([])
      })
    }
  )

  it("follow the locale's language, with overrides on top at any depth", () => {
    expect(cryptoRefundLabels("de-AT").save).toBe("Adresse speichern")
    expect(cryptoRefundLabels("pt-BR").save).toBe("Save the address")
    const labels = cryptoRefundLabels("fr", { save: "OK", reasons: { testnet: "Pas de testnet" } })
    expect(labels).toMatchObject({ save: "OK", change: "Modifier l’adresse" })
    expect(labels.reasons).toMatchObject({ testnet: "Pas de testnet", empty: CRYPTO_REFUND_LABELS.fr.reasons.empty })
  })
})

describe("where a refund stands", () => {
  it.each([
    [{ address: null, can_change: true, sent: false }, "awaiting_address"],
    [{ address: MASKED, can_change: true, sent: false }, "address_given"],
    [{ address: MASKED, can_change: false, sent: false }, "frozen"],
    [{ address: MASKED, can_change: false, sent: true }, "sent"],
    [{ address: null, can_change: false, sent: true }, "sent"],
  ] as const)("%j is %s", (refund, state) => {
    expect(cryptoRefundState(refund)).toBe(state)
  })
})

describe("a refused address, next to its field", () => {
  const testnet = {
    status: 400,
    type: "invalid_data",
    code: "crypto.refund_address_invalid",
    field: "address",
    reason: "testnet",
    message: "This is a Bitcoin testnet address: give a Bitcoin mainnet address.",
  }

  it("in English: the server's own sentence", () => {
    expect(refundAddressProblem(testnet, cryptoRefundLabels("en"), "Bitcoin")).toEqual({
      field: "address",
      text: testnet.message,
    })
  })

  it("in another language: the reason's text, with the network", () => {
    expect(refundAddressProblem(testnet, cryptoRefundLabels("de"), "Bitcoin")).toEqual({
      field: "address",
      text: "Das ist eine Testnet-Adresse: Geben Sie Ihre Bitcoin-Mainnet-Adresse an.",
    })
  })

  it("a text of the caller's wins over the server's English", () => {
    const labels = cryptoRefundLabels("en", { reasons: { testnet: "No testnet, please: {{network}} only." } })
    expect(refundAddressProblem(testnet, labels, "Bitcoin")?.text).toBe("No testnet, please: Bitcoin only.")
  })

  it("each field where the form shows it; another under the form", () => {
    const en = cryptoRefundLabels("es")
    const at = (field: string, reason: string) =>
      refundAddressProblem({ ...testnet, field, reason, message: "…" }, en, "Ethereum (ERC-20)")
    expect(at("network_confirmed", "network_unconfirmed")).toEqual({
      field: "network_confirmed",
      text: "Confirma que esta dirección es de la red Ethereum (ERC-20): los fondos enviados por otra red se pierden.",
    })
    expect(at("coin", "not_allowed")?.field).toBe("coin")
    expect(at("body", "invalid")?.field).toBe("form")
    // a reason this page does not know yet: the server's message
    expect(at("address", "something_new")).toEqual({ field: "address", text: "…" })
  })

  it("leaves other answers to the errors' codes", () => {
    const frozen = { status: 409, type: "not_allowed", code: "crypto.refund_address_frozen", message: "…" }
    expect(refundAddressProblem(frozen, cryptoRefundLabels("en"), "Bitcoin")).toBeUndefined()
    expect(cryptoErrorMessage(frozen, cryptoPaymentLabels("fr"))).toBe(
      CRYPTO_PAYMENT_LABELS.fr.errors["crypto.refund_address_frozen"]
    )
  })

  it("a 409 whose code was dropped is the frozen address by its message, not Medusa's conflict", () => {
    const message =
      "The refund is already being sent: its address can no longer change. Contact the shop if it is wrong."
    expect(cryptoErrorCodeOf(Object.assign(new Error(message), { status: 409 }))).toBe("crypto.refund_address_frozen")
    expect(cryptoErrorCodeOf(Object.assign(new Error("Something else"), { status: 409 }))).toBe("conflict")
  })
})

describe("the store API calls", () => {
  const realFetch = globalThis.fetch
  let calls: Array<{ url: string; init: RequestInit }> = []
  const answer = (status: number, body: unknown) => {
    globalThis.fetch = (async (url: string, init: RequestInit) => {
      calls.push({ url, init })
      return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })
    }) as typeof fetch
  }
  beforeEach(() => (calls = []))
  afterAll(() => (globalThis.fetch = realFetch))

  it("reads a refund with the publishable key and the locale, uncached", async () => {
    answer(200, { refund: refund() })
    await expect(fetchCryptoRefund(BACKEND, TOKEN, "de-DE")).resolves.toEqual({ ok: true, refund: refund() })
    expect(calls).toHaveLength(1)
    expect(calls[0].url).toBe("http://localhost:9000/store/crypto/refunds")
    expect(calls[0].init).toMatchObject({
      method: "GET",
      cache: "no-store",
      headers: { "x-publishable-api-key": "pk_test", "x-medusa-locale": "de-DE", accept: "application/json" },
    })
  })

  it("sends the token in a header only: never in the URL, with no Referer and no cookie", async () => {
    answer(200, { refund: refund() })
    await fetchCryptoRefund(BACKEND, TOKEN)
    await giveCryptoRefundAddress(BACKEND, TOKEN, { coin: "BTC", address: "bc1q…" })
    expect(calls).toHaveLength(2)
    for (const { url, init } of calls) {
      expect(url).toBe("http://localhost:9000/store/crypto/refunds")
      expect(url).not.toContain(TOKEN.slice(0, 12))
      expect(init).toMatchObject({ referrerPolicy: "no-referrer", credentials: "omit", cache: "no-store" })
      expect(init.headers).toMatchObject({ "x-crypto-refund-token": TOKEN })
      expect(String(init.body ?? "")).not.toContain(TOKEN)
    }
    expect(calls.map((c) => c.init.method)).toEqual(["GET", "POST"])
  })

  it("asks nothing with a token no header can carry: the link is not valid", async () => {
    answer(200, { refund: refund() })
    for (const token of ["", "cryptoowed_1.ab cd", "cryptoowed_1.é", "a\nb"]) {
      await expect(fetchCryptoRefund(BACKEND, token)).resolves.toMatchObject({
        ok: false,
        failure: { status: 404, code: "crypto.refund_link_not_found" },
      })
    }
    expect(calls).toEqual([])
  })

  it("gives an address, the network confirmed only where asked", async () => {
    answer(200, { refund: refund({ address: MASKED, address_coin: "BTC" }) })
    await giveCryptoRefundAddress(BACKEND, TOKEN, { coin: "BTC", address: "bc1q…" })
    await giveCryptoRefundAddress(BACKEND, TOKEN, { coin: "ETH", address: "0x…", networkConfirmed: true })
    expect(calls.map((c) => [c.init.method, JSON.parse(String(c.init.body))])).toEqual([
      ["POST", { coin: "BTC", address: "bc1q…" }],
      ["POST", { coin: "ETH", address: "0x…", network_confirmed: true }],
    ])
    expect(calls[0].init.headers).toMatchObject({ "content-type": "application/json", "x-crypto-refund-token": TOKEN })
    expect(calls[0].init.headers).not.toHaveProperty("x-medusa-locale")
  })

  it("keeps the field and the reason of a refused address (the JS SDK would drop them)", async () => {
    const body = {
      type: "invalid_data",
      code: "crypto.refund_address_invalid",
      field: "address",
      reason: "testnet",
      message: "This is a Bitcoin testnet address: give a Bitcoin mainnet address.",
    }
    answer(400, body)
    await expect(giveCryptoRefundAddress(BACKEND, TOKEN, { coin: "BTC", address: "tb1q…" })).resolves.toEqual({
      ok: false,
      failure: { status: 400, ...body },
    })
  })

  it("answers a store it cannot reach as status 0", async () => {
    globalThis.fetch = (async () => {
      throw new TypeError("Failed to fetch")
    }) as typeof fetch
    await expect(fetchCryptoRefund(BACKEND, TOKEN)).resolves.toEqual({
      ok: false,
      failure: { status: 0, message: "Failed to fetch" },
    })
  })
})

/*
 * The pseudo-locale render of pseudo-locale.spec.ts for the refund page: every label wrapped as "⟦…⟧", and no
 * text a customer reads may stand outside ⟦⟧ except amounts, money, coin codes, network names and the address.
 */
const wrap = (text: string) => `⟦${text}⟧`
const wrapAll = <T extends Record<string, string>>(given: T): T => {
  const out: Record<string, string> = {}
  for (const key of Object.keys(given)) out[key] = wrap(given[key])
  return out as T
}
const { reasons, ...pageTexts } = CRYPTO_REFUND_LABELS.en
const PSEUDO = { ...wrapAll(pageTexts as Record<string, string>), reasons: wrapAll(reasons) } as CryptoRefundLabels
const { coins, errors } = CRYPTO_PAYMENT_LABELS.en
const PSEUDO_PAYMENT = { coins: wrapAll(coins), errors: wrapAll(errors) }

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'" }
const decode = (html: string) => html.replace(/&(?:amp|lt|gt|quot|#x27);/g, (entity) => ENTITIES[entity])
function readable(markup: string): string[] {
  const attributes = Array.from(markup.matchAll(/\s(?:alt|aria-label|title|placeholder)="([^"]*)"/g), (m) => m[1])
  return [...attributes, ...markup.split(/<[^>]*>/)].map(decode).filter((text) => text.trim() !== "")
}
const DATA = [
  MASKED,
  "$10.00",
  "€10.00",
  "BNB Smart Chain (BEP-20)",
  "Ethereum (ERC-20)",
  "Ethereum",
  "Bitcoin",
  "USDT ERC20",
  "BTC",
  "ETH",
]
const NEUTRAL = /^[\s\d.,:;!?()\-–—…/%+\u00a0\u202f]*$/
function expectAllLabelled(markup: string) {
  const shown = readable(markup)
  expect(shown.length).toBeGreaterThan(0)
  const outside = shown.filter((text) => {
    // a label filled into another as well: "⟦The shop has sent ⟦your refund⟧.⟧"
    let rest = text
    for (let before = ""; before !== rest;) {
      before = rest
      rest = rest.replace(/⟦[^⟦⟧]*⟧/g, "")
    }
    for (const datum of DATA) rest = rest.split(datum).join("")
    return !NEUTRAL.test(rest)
  })
  expect(outside).toEqual([])
}

const page = (initialRefund: CryptoRefundView, props: Record<string, unknown> = {}) =>
  renderToStaticMarkup(
    React.createElement(CryptoRefundPage, {
      backend: BACKEND,
      token: TOKEN,
      initialRefund,
      labels: PSEUDO,
      paymentLabels: PSEUDO_PAYMENT,
      ...props,
    })
  )

const PAGES: Array<[string, CryptoRefundView]> = [
  ["a refund, no address yet", refund()],
  ["an overpayment, an address given", refund({ kind: "excess", address: MASKED, address_coin: "BTC" })],
  ["a late payment, not priced in coins", refund({ kind: "late", coin_amount: null, store_currency: "EUR" })],
  [
    "ETH owed with more places than a wallet sends: the exact amount in a details line",
    refund({
      coin: "ETH",
      coin_amount: "0.003336413333333333",
      coin_amount_sendable: "0.00333641",
      networks: [EVM("ETH", "Ethereum", "ethereum")],
    }),
  ],
  ["frozen", refund({ address: MASKED, address_coin: "BTC", can_change: false })],
  ["sent", refund({ address: MASKED, address_coin: "BTC", can_change: false, sent: true })],
  [
    "USDT on Ethereum: the network to confirm",
    refund({ coin: "USDT_ERC20", networks: [EVM("USDT_ERC20", "Ethereum (ERC-20)", "ethereum")] }),
  ],
  [
    "several networks: a select",
    refund({
      coin: "USDT_ERC20",
      networks: [
        EVM("USDT_ERC20", "Ethereum (ERC-20)", "ethereum"),
        EVM("USDT_BEP20", "BNB Smart Chain (BEP-20)", "bsc"),
      ],
    }),
  ],
]

describe("the refund page: every text comes from the labels", () => {
  it.each(PAGES)("%s", (_, shown) => {
    const markup = page(shown)
    expect(markup).toContain(`data-state="${cryptoRefundState(shown)}"`)
    expectAllLabelled(markup)
  })

  it("before the first read", () => {
    expectAllLabelled(
      renderToStaticMarkup(React.createElement(CryptoRefundPage, { backend: BACKEND, token: TOKEN, labels: PSEUDO }))
    )
  })

  it("before the token is known, and for a link without one", () => {
    const shown = (token: string | null | undefined) =>
      renderToStaticMarkup(
        React.createElement(CryptoRefundPage, {
          backend: BACKEND,
          token,
          labels: PSEUDO,
          paymentLabels: PSEUDO_PAYMENT,
        })
      )
    expect(shown(undefined)).toContain('data-state="loading"')
    expectAllLabelled(shown(undefined))
    expect(shown(null)).toContain('data-state="not_found"')
    expect(shown(null)).toContain(PSEUDO_PAYMENT.errors["crypto.refund_link_not_found"])
    expectAllLabelled(shown(null))
  })

  it("finds a text that is not a label", () => {
    expect(() => expectAllLabelled("<p>⟦Sent⟧</p><span>Thank you</span>")).toThrow()
  })
})

describe("the refund page in a language", () => {
  it("English: the amount, its worth, the network, the form", () => {
    const markup = page(refund(), { labels: undefined, paymentLabels: undefined })
    expect(markup).toContain("Address needed")
    expect(markup).toContain("1,234.00012000 BTC")
    expect(markup).toContain("worth $10.00")
    expect(markup).toContain("Your Bitcoin address")
    expect(markup).toContain("Save the address")
    expect(markup).not.toContain('type="checkbox"')
    expect(markup).not.toContain("<select")
  })

  it("German: amounts, money and texts", () => {
    const markup = page(refund({ address: MASKED, address_coin: "BTC" }), {
      locale: "de-DE",
      labels: undefined,
      paymentLabels: undefined,
    })
    expect(markup).toContain("1.234,00012000 BTC")
    expect(markup).toContain("Wert: 10,00\u00a0$")
    expect(markup).toContain(MASKED)
    expect(markup).toContain("Adresse ändern")
  })

  it("asks to confirm the network where the address cannot tell it", () => {
    const markup = page(refund({ coin: "ETH", networks: [EVM("ETH", "Ethereum", "ethereum")] }), {
      labels: undefined,
      paymentLabels: undefined,
    })
    expect(markup).toContain('type="checkbox"')
    expect(markup).toContain("This address is on Ethereum. I know that coins sent on another network are lost.")
  })

  it("shows the coins as the shop sends them, rounded down, and the exact amount owed in a details line", () => {
    const eth = refund({
      coin: "ETH",
      coin_amount: "0.003336413333333333",
      coin_amount_sendable: "0.00333641",
      networks: [EVM("ETH", "Ethereum", "ethereum")],
    })
    const markup = page(eth, { labels: undefined, paymentLabels: undefined })
    expect(markup).toContain("<strong>0.00333641 ETH</strong>")
    expect(markup).toContain("<summary>Exact amount owed</summary><code>0.003336413333333333 ETH</code>")
    const german = page(eth, { locale: "de", labels: undefined, paymentLabels: undefined })
    expect(german).toContain("0,00333641")
    expect(german).toContain("<summary>Genauer geschuldeter Betrag</summary><code>0,003336413333333333")
    // the same figure: no details line
    expect(page(refund({ coin_amount_sendable: "1234.00012000" }))).not.toContain("crypto-refund-exact")
  })

  it("once frozen or sent: no form, and why", () => {
    const frozen = page(refund({ address: MASKED, can_change: false }), { labels: undefined, paymentLabels: undefined })
    expect(frozen).not.toContain("<form")
    expect(frozen).toContain("it can no longer change")
    const sent = page(refund({ address: MASKED, can_change: false, sent: true }), { locale: "es", labels: undefined })
    expect(sent).not.toContain("<form")
    expect(sent).toContain("La tienda te ha enviado tu reembolso.")
  })

  it("writes the link's expiry as the locale writes a day", () => {
    expect(formatCryptoDate("2026-12-26T12:00:00.000Z", "en-US")).toBe("December 26, 2026")
    expect(formatCryptoDate("2026-12-26T12:00:00.000Z", "de")).toBe("26. Dezember 2026")
    expect(formatCryptoDate("not a date", "en")).toBe("")
    // a server's render and the browser's first one: in UTC, whatever zone either runs in
    expect(formatCryptoDate("2026-12-31T23:30:00.000Z", "en-US", "UTC")).toBe("December 31, 2026")
    expect(formatCryptoDate("2026-12-31T23:30:00.000Z", "de", "Pacific/Kiritimati")).toBe("1. Januar 2027")
  })
})

/** The badge and the intro line of a rendered refund page. */
function heading(markup: string): { badge: string; intro: string } {
  const text = (testId: string) => {
    const found = new RegExp(`data-testid="${testId}"[^>]*>([^<]*)<`).exec(markup)
    return found ? decode(found[1]) : ""
  }
  return { badge: text("crypto-refund-title"), intro: text("crypto-refund-detail") }
}

const GIVEN = { address: MASKED, address_coin: "BTC" }
const STATES: Array<[ReturnType<typeof cryptoRefundState>, Partial<CryptoRefundView>]> = [
  ["awaiting_address", {}],
  ["address_given", GIVEN],
  ["frozen", { ...GIVEN, can_change: false }],
  ["sent", { ...GIVEN, can_change: false, sent: true }],
]
const shownIn = (locale: string, over: Partial<CryptoRefundView>) =>
  heading(page(refund(over), { locale, labels: undefined, paymentLabels: undefined }))

describe("the refund page's badge and intro follow where the refund stands", () => {
  it.each([
    [
      "refund",
      "awaiting_address",
      "Address needed",
      "The shop is refunding you. Tell it the address to send the coins to.",
    ],
    [
      "refund",
      "address_given",
      "Address given",
      "The shop will send your refund to the address below. You can change it until the shop starts sending.",
    ],
    ["refund", "frozen", "Being sent", "The shop has started sending your refund."],
    ["refund", "sent", "Sent", "The shop has sent your refund."],
    [
      "excess",
      "awaiting_address",
      "Address needed",
      "You sent more than the order's total. Tell the shop the address to send the difference back to.",
    ],
    [
      "excess",
      "address_given",
      "Address given",
      "The shop will send the difference back to the address below. You can change it until the shop starts sending.",
    ],
    ["excess", "frozen", "Being sent", "The shop has started sending the difference back."],
    ["excess", "sent", "Sent", "The shop has sent the difference back."],
    [
      "late",
      "awaiting_address",
      "Address needed",
      "Your payment arrived after the payment window had closed. Tell the shop the address to send it back to.",
    ],
    [
      "late",
      "address_given",
      "Address given",
      "The shop will send your payment back to the address below. You can change it until the shop starts sending.",
    ],
    ["late", "frozen", "Being sent", "The shop has started sending your payment back."],
    ["late", "sent", "Sent", "The shop has sent your payment back."],
  ] as const)("%s, %s: %s — %s", (kind, state, badge, intro) => {
    const over = STATES.find(([name]) => name === state)![1]
    expect(shownIn("en", { kind, ...over })).toEqual({ badge, intro })
  })

  it.each([
    ["de", "Gesendet", "Der Shop hat Ihre Erstattung gesendet."],
    ["fr", "Envoyé", "La boutique vous a envoyé votre remboursement."],
    ["es", "Enviado", "La tienda te ha enviado tu reembolso."],
  ])("sent, in %s: %s — %s", (locale, badge, intro) => {
    expect(shownIn(locale, { ...GIVEN, can_change: false, sent: true })).toEqual({ badge, intro })
  })

  describe.each(Object.keys(CRYPTO_REFUND_LABELS))("in %s", (locale) => {
    const labels = cryptoRefundLabels(locale)
    const asking = [labels.kindRefund, labels.kindExcess, labels.kindLate]
    const badges = [labels.stateAwaitingAddress, labels.stateAddressGiven, labels.stateFrozen, labels.stateSent]

    it.each(["refund", "excess", "late"] as const)("%s: each state its own badge and intro", (kind) => {
      const shown = STATES.map(([, over]) => shownIn(locale, { kind, ...over }))
      expect(shown.map((s) => s.badge)).toEqual(badges)
      // an address is asked for only while none is given, and every intro is filled in
      expect(asking).toContain(shown[0].intro)
      for (const { intro } of shown.slice(1)) {
        expect(asking).not.toContain(intro)
        expect(intro).not.toMatch(/\{\{|\}\}/)
      }
      expect(new Set(shown.map((s) => s.intro)).size).toBe(STATES.length)
    })
  })
})

describe("the coins a refund page shows", () => {
  it.each<[string, string | null, string | null | undefined, ReturnType<typeof refundCoinsShown>]>([
    [
      "ETH rounded down by the shop",
      "0.003336413333333333",
      "0.00333641",
      { shown: "0.00333641", exact: "0.003336413333333333" },
    ],
    ["USDT on BSC", "12.345678901234567891", "12.345678", { shown: "12.345678", exact: "12.345678901234567891" }],
    ["BTC, already at its places", "0.00012345", "0.00012345", { shown: "0.00012345", exact: null }],
    ["the same figure written otherwise", "0.1", "0.10000000", { shown: "0.10000000", exact: null }],
    ["a backend without the figure", "0.003336413333333333", undefined, { shown: "0.003336413333333333", exact: null }],
    ["not priced in coins yet", null, null, null],
  ])("%s", (_, exact, sendable, shown) => {
    expect(refundCoinsShown({ coin_amount: exact, coin_amount_sendable: sendable })).toEqual(shown)
  })
})
