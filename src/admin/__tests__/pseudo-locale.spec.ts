/**
 * The pseudo-locale check: the order widget and the Crypto payments page rendered (React's server
 * renderer, no DOM needed) with every text of the plugin wrapped as ⟦…⟧ and every value it interpolates
 * as ⟨…⟩. Whatever words remain outside ⟦…⟧, or inside a ⟨…⟩, once the fixtures' own data is taken away
 * were not translated: a literal left in a component or a helper, or a key missing from the texts
 * (i18next shows the key).
 */
import type { AdminOrder } from "@medusajs/framework/types"
import { TooltipProvider } from "@medusajs/ui"
import i18next from "i18next"
import React, { ComponentProps, createElement, ReactElement } from "react"
import { renderToStaticMarkup } from "react-dom/server"
import { I18nextProvider } from "react-i18next"
import { MemoryRouter } from "react-router-dom"
import { I18N_NAMESPACE } from "../i18n/namespace"
import CryptoPaymentsPage from "../routes/crypto-payments/page"
import OrderCryptoPaymentsWidget from "../widgets/order-crypto-payments"
import { MESSAGES } from "../i18n/__tests__/messages"
import * as fixtures from "./fixtures"

jest.mock("../lib/sdk", () => ({ sdk: {} }))

// the tests' transform compiles JSX to React.createElement (the dashboard's build uses the automatic runtime)
Object.assign(globalThis, { React })

/** What the mocked queries answer, set by each test. */
const mockState: Record<string, unknown> = {}
const mockMutation = { mutate: () => undefined, isPending: false }
jest.mock("../lib/payment-queries", () => ({
  ...jest.requireActual("../lib/payment-queries"),
  useCryptoPayments: () => mockState.payments,
  useCryptoPaymentDetail: (id: string) => (mockState.details as Record<string, unknown> | undefined)?.[id] ?? {},
  useCryptoBalances: () => mockState.balances,
  useSetupHealth: () => mockState.health,
  useCryptoSettings: () => mockState.settings,
  useSaveCryptoSetting: () => mockMutation,
  useSaveApiKey: () => mockMutation,
  useAcceptHeldRates: () => mockMutation,
  useAcknowledgeHealthCheck: () => mockMutation,
  useRecheckPayment: () => mockMutation,
  useRequestRemainder: () => mockMutation,
  useMarkRefundSent: () => mockMutation,
  useRefundLink: () => mockMutation,
  useRenewRefundLink: () => mockMutation,
  useStartPayout: () => mockMutation,
  useChooseRefundBasis: () => mockMutation,
}))
jest.mock("../lib/payment-links", () => ({
  ...jest.requireActual("../lib/payment-links"),
  useOrderCollections: () => mockState.collections,
  useCryptoProviderId: () => mockState.provider,
  useCreatePaymentLink: () => mockMutation,
}))

type Tree = { [key: string]: string | Tree }
const pseudo = (tree: Tree): Tree =>
  Object.fromEntries(
    Object.entries(tree).map(([key, value]) => [
      key,
      typeof value === "string" ? `⟦${value.replace(/\{\{(\w+)\}\}/g, "⟨{{$1}}⟩")}⟧` : pseudo(value),
    ])
  )

// German numbers and dates (no letters in them); the texts are the pseudo-locale's
const i18n = i18next.createInstance()
void i18n.init({
  lng: "de",
  fallbackLng: false,
  resources: { de: { [I18N_NAMESPACE]: pseudo(MESSAGES.en) } },
  interpolation: { escapeValue: false },
  initImmediate: false,
})

const render = (element: ReactElement) =>
  renderToStaticMarkup(
    createElement(
      I18nextProvider,
      // react-i18next's own i18n type adds what the provider sets up itself (reportNamespaces)
      { i18n: i18n as ComponentProps<typeof I18nextProvider>["i18n"] },
      createElement(TooltipProvider, null, createElement(MemoryRouter, null, element))
    )
  )

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'", "#39": "'" }

/** What a person reads or hears: the text, and the titles, labels and placeholders. */
function perceived(html: string): string {
  const said = [...html.matchAll(/\s(?:title|aria-label|placeholder|alt)="([^"]*)"/g)].map((m) => m[1])
  const text = html.replace(/<svg[\s\S]*?<\/svg>/g, " ").replace(/<[^>]+>/g, " ")
  return [text, ...said].join(" ").replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, name: string) => ENTITIES[name])
}

/**
 * The words left once the translations are taken out (innermost first, keeping the values they
 * interpolate, which may be untranslated themselves), and then the fixtures' data.
 */
function untranslatedWords(html: string, data: unknown): string[] {
  let rest = perceived(html)
  const values = (text: string) => [...text.matchAll(/⟨([^⟨⟩]*)⟩/g)].map((m) => m[1]).join(" ")
  while (/⟦[^⟦⟧]*⟧/.test(rest)) rest = rest.replace(/⟦([^⟦⟧]*)⟧/g, (_, text: string) => ` ${values(text)} `)
  for (const text of fixtures.dataTexts(data).sort((a, b) => b.length - a.length)) rest = rest.split(text).join(" ")
  return rest.match(/\p{L}[\p{L}\p{N}_.-]*/gu) ?? []
}

const order = { id: "order_1", currency_code: "eur" } as AdminOrder
const collection = (id: string) => ({ id, status: "not_paid", amount: 40, captured_amount: 0, currency_code: "eur" })

describe("the pseudo-locale", () => {
  // Radix's components say on the server that their layout effects wait for the browser: expected here
  const consoleError = console.error
  beforeAll(() => {
    jest.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      if (!String(args[0]).includes("useLayoutEffect does nothing on the server")) consoleError(...args)
    })
  })
  afterAll(() => jest.restoreAllMocks())

  beforeEach(() => {
    for (const key of Object.keys(mockState)) delete mockState[key]
  })

  it("leaves no untranslated word in the order widget", () => {
    mockState.payments = {
      data: { payments: fixtures.PAYMENTS, count: fixtures.PAYMENTS.length },
      isLoading: false,
      error: null,
    }
    // one collection with an open crypto payment (pc_1), one without; no provider enabled
    mockState.collections = {
      data: { currency_code: "eur", collections: [collection("pc_1"), collection("pc_2")] },
      isLoading: false,
      error: null,
    }
    mockState.provider = { data: null, error: null }
    mockState.details = Object.fromEntries(
      Object.entries(fixtures.DETAILS).map(([id, detail]) => [id, { data: detail, error: null }])
    )
    const html = render(createElement(OrderCryptoPaymentsWidget, { data: order }))
    expect(html).toContain("crypto-payments-widget")
    for (const part of [
      "crypto-owed-record",
      "crypto-refund-address",
      "crypto-refund-address-history",
      "crypto-payout-started",
      "crypto-copy-refund-link",
      "crypto-renew-refund-link",
      "crypto-start-payout",
      "crypto-refund-basis-form",
    ]) {
      expect(html).toContain(part)
    }
    expect(html).toContain("crypto-exchange")
    expect(html).toContain("crypto-mark-sent-blocked")
    // a token payment's network, and the wallet URIs of the open payments, each with its link
    for (const part of ["crypto-network", "crypto-wallet-uri", "crypto-wallet-uri-open"]) expect(html).toContain(part)
    expect(html).toContain("⟦USDT on BNB Smart Chain (BEP-20)⟧")
    expect(html).toContain(`href="${fixtures.PENDING_TOKEN.wallet_uri!.replace(/&/g, "&amp;")}"`)
    for (const part of ["crypto-events", "crypto-email", "crypto-emails-off"]) expect(html).toContain(part)
    // the fixtures' data hides their own codes from the check below: an email's sent-record key, an admin's user id
    expect(perceived(html)).not.toMatch(/refund_link|refund_address:|chg_addr_|cryptoowed_|user_\d/)
    expect(untranslatedWords(html, [fixtures.PAYMENTS, fixtures.DETAILS, order])).toEqual([])
  })

  it("leaves no untranslated word in the order widget's errors", () => {
    const failed = new Error("server says no")
    mockState.payments = { data: undefined, isLoading: false, error: failed }
    mockState.collections = { data: undefined, isLoading: false, error: failed }
    mockState.provider = { data: undefined, error: failed }
    const html = render(createElement(OrderCryptoPaymentsWidget, { data: order }))
    expect(html).toContain("server says no")
    expect(untranslatedWords(html, [failed.message, order])).toEqual([])
  })

  it("leaves no untranslated word when a payment's own read fails", () => {
    const failed = new Error("detail says no")
    mockState.payments = { data: { payments: [fixtures.PENDING_SHORT], count: 1 }, isLoading: false, error: null }
    mockState.collections = { data: { currency_code: "eur", collections: [] }, isLoading: false, error: null }
    mockState.provider = { data: null, error: null }
    mockState.details = { [fixtures.PENDING_SHORT.id]: { data: undefined, error: failed } }
    const html = render(createElement(OrderCryptoPaymentsWidget, { data: order }))
    expect(html).toContain("crypto-events-error")
    expect(html).toContain("detail says no")
    expect(untranslatedWords(html, [fixtures.PENDING_SHORT, failed.message, order])).toEqual([])
  })

  it("leaves no untranslated word on the Crypto payments page", () => {
    mockState.health = { data: fixtures.HEALTH, isLoading: false, isFetching: false, error: null, refetch: () => 0 }
    mockState.balances = { data: fixtures.BALANCES, isLoading: false, error: null }
    mockState.payments = { data: { payments: fixtures.PAYMENTS, count: 45 }, isLoading: false, error: null }
    mockState.settings = {
      data: { settings: fixtures.SETTINGS, changes: fixtures.CHANGES },
      isLoading: false,
      error: null,
    }
    const html = render(createElement(CryptoPaymentsPage))
    for (const part of [
      "crypto-health-check",
      "crypto-health-acknowledge",
      "crypto-balance",
      "crypto-payment-row",
      "crypto-exchange",
      "crypto-settings-change",
      "crypto-exchange-rates",
      "crypto-rates-table",
      "crypto-rates-error",
      "crypto-rates-held",
      "crypto-provider-keys",
      "crypto-api-key-unreadable",
      "crypto-api-key-config-only",
      "crypto-replace-api-key",
      "crypto-webhook-secrets-accepted",
      "crypto-webhook-legacy-accepted",
    ]) {
      expect(html).toContain(part)
    }
    const data = [
      fixtures.HEALTH,
      fixtures.BALANCES,
      fixtures.PAYMENTS,
      fixtures.SETTINGS,
      fixtures.CHANGES,
      fixtures.RATE_CURRENCIES,
      // @medusajs/ui's password input (the new API key) labels its reveal button itself, in English
      "Show password",
    ]
    expect(untranslatedWords(html, data)).toEqual([])
  })

  it("leaves no untranslated word on the page while it loads, or when there is nothing", () => {
    mockState.health = { data: undefined, isLoading: true, isFetching: true, error: null, refetch: () => 0 }
    mockState.balances = { data: [], isLoading: false, error: null }
    mockState.payments = { data: { payments: [], count: 0 }, isLoading: false, error: null }
    mockState.settings = { data: { settings: [], changes: [] }, isLoading: false, error: null }
    const html = render(createElement(CryptoPaymentsPage))
    expect(untranslatedWords(html, [])).toEqual([])
  })

  it("finds what is not translated", () => {
    const html = `<p>⟦Translated⟧ · 1,5 <b>Plain</b> ⟦Owed ⟨value⟩⟧ ⟦Sent ⟨⟦translated⟧⟩⟧</p><input placeholder="Type"/>`
    expect(untranslatedWords(html, [])).toEqual(["Plain", "value", "Type"])
  })
})
