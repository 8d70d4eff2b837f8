/**
 * The components of docs/storefront as a storefront renders them on its server and hydrates them in the
 * browser (Medusa's Next.js starter does both): the same elements on both sides, built from fixed data only,
 * so the server's markup and the browser's first render can differ only where a component reads its
 * surroundings (the clock, the time zone, the window). hydration.spec.ts renders each with react-dom/server
 * and bundles this file for the browser, where it is hydrated.
 */
import type Medusa from "@medusajs/js-sdk"
import { createElement, Fragment, ReactElement, ReactNode, useEffect } from "react"
import { CryptoCoinPicker } from "../../../../docs/storefront/CryptoCoinPicker"
import { CryptoPaymentBox } from "../../../../docs/storefront/CryptoPaymentBox"
import { CryptoRefundPage } from "../../../../docs/storefront/CryptoRefundPage"
import type { CryptoPaymentView, CryptoSessionData } from "../../../../docs/storefront/crypto-payment"
import type { CryptoRefundView } from "../../../../docs/storefront/crypto-refund"

/** The server renders at this moment; the browser hydrates a second later. Half past 23:00 UTC: a time zone east of UTC is a day ahead. */
export const SERVER_NOW = Date.parse("2026-12-01T23:30:00.000Z")
/** The page's and the store API's origin in the browser, answered by the test (no server listens). */
export const ORIGIN = "http://storefront.hydration.test"

const at = (ms: number) => new Date(SERVER_NOW + ms).toISOString()
/** 29:37.5 left at the server's moment: "29:37" there, "29:36" a second later. */
const EXPIRES_AT = at(29 * 60_000 + 37_500)

const BTC_ADDRESS = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
const EVM_ADDRESS = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"

const session = (over: Partial<CryptoSessionData> = {}): CryptoSessionData => ({
  paymentId: "pay_hydration_1",
  kind: "payment",
  invoiceUrl: "https://pay.example.test/p/pay_hydration_1",
  expiresAt: EXPIRES_AT,
  status: "PENDING",
  placeOrder: "before_payment",
  baseAmount: "84.00",
  baseCurrency: "USD",
  cryptoAmount: "0.00131000",
  currency: "BTC",
  address: BTC_ADDRESS,
  walletUri: `bitcoin:${BTC_ADDRESS}?amount=0.00131`,
  ...over,
})

const view = (over: Partial<CryptoPaymentView> = {}): CryptoPaymentView => ({
  paymentId: "pay_hydration_1",
  kind: "payment",
  status: "PENDING",
  verdict: "awaiting",
  final: false,
  confirmations: 0,
  requiredConfirmations: 2,
  receivedAmount: "0",
  requiredAmount: "0.00131000",
  currency: "BTC",
  address: BTC_ADDRESS,
  walletUri: `bitcoin:${BTC_ADDRESS}?amount=0.00131`,
  qrCode: null,
  invoiceUrl: "https://pay.example.test/p/pay_hydration_1",
  expiresAt: EXPIRES_AT,
  underpaid: false,
  overpaid: false,
  checkedAt: at(-5_000),
  ...over,
})

/** The JS SDK as the payment box calls it: the status route answers `answer`, the QR route a small SVG. */
function fakeSdk(answer: CryptoPaymentView): Medusa {
  const fetch = async (path: string) =>
    path.endsWith("/qr")
      ? new Response('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>')
      : { payment: answer }
  return { client: { fetch } } as unknown as Medusa
}

const refund = (over: Partial<CryptoRefundView> = {}): CryptoRefundView => ({
  kind: "refund",
  coin: "BTC",
  coin_amount: "0.00012000",
  store_amount: "10.00",
  store_currency: "USD",
  networks: [{ coin: "BTC", network: "bitcoin", label: "Bitcoin", format: "bitcoin", shares_format: false }],
  address: null,
  address_coin: null,
  can_change: true,
  sent: false,
  // half past 23:00 UTC as well: the day is another one east of UTC
  expires_at: at(30 * 86_400_000),
  ...over,
})
const BACKEND = { baseUrl: ORIGIN, publishableKey: "pk_hydration" }
const MASKED = "bc1qar…5mdq"

const box = (props: Partial<Parameters<typeof CryptoPaymentBox>[0]> & { session: CryptoSessionData }) =>
  createElement(CryptoPaymentBox, {
    sdk: fakeSdk(props.initialView ?? view()),
    onStatus: () => undefined,
    onStartAgain: () => undefined,
    ...props,
  })

/** A case: the element both sides render and, for the refund page, what the store API answers in the browser. */
export type HydrationCase = { element: () => ReactElement; refund?: CryptoRefundView }

const refundPage = (
  shown: CryptoRefundView | undefined,
  props: { locale?: string; token?: string | null } = {}
): HydrationCase => ({
  element: () =>
    createElement(CryptoRefundPage, {
      backend: BACKEND,
      token: "token" in props ? props.token : "cryptoowed_01HYDRATION.secret",
      locale: props.locale,
      initialRefund: shown,
    }),
  refund: shown ?? refund(),
})

const only = (element: () => ReactElement): HydrationCase => ({ element })

/** Each case by name. */
export const HYDRATION_CASES: Record<string, HydrationCase> = {
  "the payment box, a coin chosen, awaiting the coins": only(() =>
    box({ session: session(), initialView: view(), locale: "en" })
  ),
  "the payment box before its first read, in German": only(() => box({ session: session(), locale: "de-DE" })),
  "the payment box of an invoice priced in euros, in French": only(() =>
    box({
      session: session({
        kind: "invoice",
        currency: undefined,
        address: undefined,
        cryptoAmount: undefined,
        walletUri: undefined,
        baseAmount: "46.00",
        baseCurrency: "EUR",
        exchange: { usdAmount: "49.88", rate: "1.0842", source: "ecb", publishedOn: "2026-12-01", markupPercent: "0" },
      }),
      locale: "fr",
    })
  ),
  "the payment box of a short USDT payment, in Spanish": only(() =>
    box({
      session: session({
        currency: "USDT_BEP20",
        address: EVM_ADDRESS,
        cryptoAmount: "84.000000",
        walletUri: undefined,
      }),
      initialView: view({
        verdict: "short",
        currency: "USDT_BEP20",
        address: EVM_ADDRESS,
        requiredAmount: "84.000000",
        receivedAmount: "50.000000",
        underpaid: true,
        confirmations: 1,
        walletUri: null,
      }),
      locale: "es",
    })
  ),
  "the payment box that needs attention": only(() =>
    box({
      session: session(),
      initialView: view({
        status: "COMPLETED",
        verdict: "needs_attention",
        final: true,
        receivedAmount: "0.00262000",
        overpaid: true,
        walletUri: null,
      }),
    })
  ),
  "the refund page, an address needed": refundPage(refund()),
  "the refund page, an address given, in German": refundPage(
    refund({ kind: "excess", address: MASKED, address_coin: "BTC" }),
    { locale: "de" }
  ),
  "the refund page being sent, in French": refundPage(
    refund({ kind: "late", address: MASKED, address_coin: "BTC", can_change: false }),
    { locale: "fr" }
  ),
  "the refund page once sent, in Spanish": refundPage(
    refund({ address: MASKED, address_coin: "BTC", can_change: false, sent: true }),
    { locale: "es" }
  ),
  "the refund page before its first read": refundPage(undefined),
  "the refund page before the link's token is known": refundPage(undefined, { token: undefined }),
  "the coin picker": only(() => createElement(CryptoCoinPicker, { value: undefined, onChange: () => undefined })),
  "the coin picker, USDT chosen, in German": only(() =>
    createElement(CryptoCoinPicker, { value: "USDT_ERC20", onChange: () => undefined, locale: "de" })
  ),
}

/** Sets `window.__hydrated` once React committed the first render in the browser (effects run after it). */
function Hydrated({ children }: { children: ReactNode }) {
  useEffect(() => {
    ;(globalThis as { __hydrated?: boolean }).__hydrated = true
  }, [])
  return createElement(Fragment, null, children)
}

/** What the server renders and the browser hydrates for a case. */
export function hydrationElement(name: string): ReactElement {
  const shown = HYDRATION_CASES[name]
  if (!shown) throw new Error(`no hydration case named ${name}`)
  return createElement(Hydrated, null, shown.element())
}
