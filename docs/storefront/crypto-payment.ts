/**
 * Storefront helpers for medusa-payment-crypto, framework-agnostic (use them from the Next.js
 * starter's server actions or client components). Tested by scripts/demo/storefront/__tests__ and
 * integration-tests/http/parts/demo-checkout.ts, and used by the demo storefront (scripts/demo/storefront)
 * that the browser test buys through. Paid is the status route's `verdict` "paid", never its `status`.
 * What they say to the customer comes from crypto-payment-labels.ts, in the locale you pass.
 */
import type Medusa from "@medusajs/js-sdk"
import type { HttpTypes } from "@medusajs/types"
import {
  cryptoPaymentI18n,
  CryptoPaymentI18n,
  fillLabel,
  formatCryptoAmount,
  formatCryptoCount,
  formatCryptoMoney,
  formatTimeLeft,
} from "./crypto-payment-i18n"
import { CRYPTO_PAYMENT_LABELS } from "./crypto-payment-labels"

export { formatTimeLeft }

export const CRYPTO_PROVIDER_ID = "pp_crypto_crypto"
export const COINS = ["BTC", "ETH", "LTC", "USDT_ERC20", "USDT_BEP20"] as const
export type Coin = (typeof COINS)[number]
/** What to call each coin in front of a customer, in English (other languages: `cryptoPaymentLabels(locale).coins`). */
export const COIN_NAMES: Record<Coin, string> = CRYPTO_PAYMENT_LABELS.en.coins

/** The service's payment page, when it is a web page (http or https): anything else never goes in a link. */
export function paymentPageUrl(session: { invoiceUrl?: string | null }): string | undefined {
  const url = session.invoiceUrl
  return typeof url === "string" && /^https?:\/\//i.test(url) ? url : undefined
}

/** A coin's code as a customer reads it: "USDT_ERC20" → "USDT ERC20". */
export function coinCode(coin: Coin): string {
  return coin.replace("_", " ")
}

/**
 * The coins that are tokens on another coin's chain: USDT on Ethereum (ERC-20) and on BNB Smart Chain (BEP-20).
 * Their address is an `0x…` address that exists on every EVM chain, so a wallet would as gladly send the token on
 * the wrong one: the payment box names the network in a line the customer cannot miss.
 */
export const TOKEN_COINS: readonly Coin[] = ["USDT_ERC20", "USDT_BEP20"]

export function isTokenCoin(coin: Coin): boolean {
  return TOKEN_COINS.indexOf(coin) >= 0
}

/** The schemes of the wallet URIs the backend builds: BIP-21 (`bitcoin:`, `litecoin:`) and EIP-681 (`ethereum:`). */
const WALLET_SCHEMES = /^(bitcoin|litecoin|ethereum):/i

/**
 * The payment's wallet URI, for the QR code and the "Open in a wallet app" link: the status view's `walletUri`
 * once there is a view (null there when nothing is left to send, or the payment is no longer open), else the
 * session data's. BIP-21 for BTC and LTC (`bitcoin:<address>?amount=0.00123`), EIP-681 for ETH
 * (`ethereum:<address>@1?value=<wei>`) and USDT (`ethereum:<token contract>@<chain id>/transfer?address=<to>&uint256=<base units>`),
 * with the amount still to send. Never the service's `qrCode` (`btc:…`, `usdt_bep20:…`), which no wallet reads;
 * only one of those three schemes ever goes in a link. Null when there is none (a backend older than the
 * wallet URI has none either).
 */
export function walletUriOf(
  view: Pick<CryptoPaymentView, "walletUri"> | undefined,
  session: Pick<CryptoSessionData, "walletUri">
): string | null {
  const uri = view && view.walletUri !== undefined ? view.walletUri : session.walletUri
  return typeof uri === "string" && WALLET_SCHEMES.test(uri) ? uri : null
}

/** The public session data the provider stores (session.data). */
export type CryptoSessionData = {
  paymentId: string
  kind: "invoice" | "payment"
  invoiceUrl: string
  expiresAt: string
  status: string
  /** When the shop places the order (the provider's `placeOrder` option): the checkout follows it. */
  placeOrder: "before_payment" | "after_payment"
  /**
   * The amount in the store's own currency, at its decimals, and that currency: "84.00" "USD", "46.00" "EUR",
   * "5000" "JPY". What the customer is charged, whatever the service was asked in (see `exchange`).
   */
  baseAmount: string
  baseCurrency: string
  /**
   * Only for a store currency the service does not take (it prices in USD and USDT): how the amount was
   * priced in USD. Show it beside the price: "€46.00 ≈ $49.88" (`formatCryptoPrice`).
   */
  exchange?: CryptoExchange
  /** Invoice: what each coin would cost (decimal text), before the customer picks one. */
  quotes?: Partial<Record<Coin, string>>
  /** Payment: the coin amount to send, exact decimal text (ETH and USDT may carry 18 decimals). */
  cryptoAmount?: string
  /** @deprecated The same as a JSON number, which cannot hold 18 decimals: read `cryptoAmount`. */
  amount?: number
  currency?: Coin
  /** Payment: where to send it (EVM coins with their EIP-55 checksum once the backend writes them so). */
  address?: string
  /**
   * Payment: the wallet URI of the whole amount (BIP-21 / EIP-681): what the QR code and the wallet link carry
   * (`walletUriOf`). Absent from sessions created by a backend older than it.
   */
  walletUri?: string
  /** The payment service's own payload (`<coin>:<address>?amount=…`): no wallet reads it. Kept for compatibility; render `walletUri`. */
  qrCode?: string
}

/** How the shop priced a store currency the service does not take (EUR, GBP, JPY …) in USD. */
export type CryptoExchange = {
  /** The USD amount the service was asked: store amount × rate × (1 + markup), rounded up to the cent ("49.88"). */
  usdAmount: string
  /** USD per one unit of the store currency, before the markup ("1.0842"). */
  rate: string
  /** `ecb`: the European Central Bank's daily euro reference rates; `fixed`: the shop's own rates. */
  source: "ecb" | "fixed"
  /** The date of the ECB publication the rate comes from ("2026-11-24"); null for fixed rates. */
  publishedOn: string | null
  /** What the shop adds to the converted amount, in percent ("0", "1.5"). */
  markupPercent: string
}

/**
 * The price in the store's currency as the locale writes it and, when the shop converted it for the service,
 * its USD equivalent: "€46.00 ≈ $49.88" (EUR, English), "46,00 € ≈ 49,88 $" (German), "¥5,000 ≈ $33.36" (JPY,
 * no decimals); a USD cart is its price alone, "$84.00".
 */
export function formatCryptoPrice(
  session: Pick<CryptoSessionData, "baseAmount" | "baseCurrency" | "exchange">,
  locale = "en"
): string {
  const price = formatCryptoMoney(session.baseAmount, session.baseCurrency, locale)
  return session.exchange ? `${price} ≈ ${formatCryptoMoney(session.exchange.usdAmount, "USD", locale)}` : price
}

/**
 * What the shop makes of a payment, for the customer (the status route's `verdict`):
 * - `awaiting`: nothing received yet (no coin chosen, or 0 received);
 * - `confirming`: the full amount arrived and waits for confirmations, or the service says COMPLETED and
 *   the shop has not applied it yet;
 * - `paid`: the shop accepted the payment (its order is paid) — the only verdict to call paid;
 * - `short`: part of the amount arrived and the payment is still open (send the rest to the same address);
 * - `expired`: the window ended without the full amount (if some arrived, the customer contacts the shop);
 * - `failed`: the service reports a failure;
 * - `needs_attention`: the service reported money the shop did not accept as it stands (paid after the
 *   window, paid twice, an amount that does not match); the shop has been told, the customer keeps the
 *   payment id and contacts the shop.
 */
export const VERDICTS = ["awaiting", "confirming", "paid", "short", "expired", "failed", "needs_attention"] as const
export type CryptoPaymentVerdict = (typeof VERDICTS)[number]

/** GET /store/crypto/payments/:paymentId */
export type CryptoPaymentView = {
  paymentId: string
  kind: "invoice" | "payment"
  /**
   * The payment service's own status. Never show a payment as paid from it: COMPLETED says money arrived,
   * not that the shop accepted it (underpaid, paid after expiry, paid twice…). Use `verdict`.
   */
  status: "PENDING" | "COMPLETED" | "EXPIRED" | "FAILED"
  /**
   * What the shop makes of the payment. Absent from backends older than the verdict: read it with
   * `cryptoPaymentVerdict(view)`, which falls back on `status` without ever saying paid.
   */
  verdict?: CryptoPaymentVerdict
  /** True once the verdict can no longer change for the customer: stop polling then, and only then. */
  final: boolean
  confirmations: number
  requiredConfirmations: number | null
  receivedAmount: string
  requiredAmount: string | null
  currency: Coin | null
  /** Where to send the coins, as the customer must copy it: ETH and USDT addresses with their EIP-55 checksum. */
  address: string | null
  /**
   * What to send, as wallets read it (BIP-21 for BTC and LTC, EIP-681 for ETH and USDT, with the network's chain
   * and, for USDT, the token's contract): the address and the amount still to send (the rest, once part arrived).
   * The QR route encodes it. Null before a coin is chosen, when nothing is left to send, and once the payment is
   * no longer open; absent from backends older than it. Read it with `walletUriOf(view, session)`.
   */
  walletUri?: string | null
  /** The payment service's own payload (`<coin>:<address>?amount=…`), which no wallet reads: kept for compatibility, never rendered. */
  qrCode: string | null
  invoiceUrl: string
  expiresAt: string
  underpaid: boolean
  overpaid: boolean
  checkedAt: string
}

/** The body of `POST /store/payment-collections/:id/payment-sessions` for a crypto payment, with or without a coin. */
function cryptoSessionBody(coin: Coin | undefined) {
  return { provider_id: CRYPTO_PROVIDER_ID, ...(coin ? { data: { currency: coin } } : {}) }
}

/** The session data of the crypto session the store just created in this collection. */
function createdCryptoSession(collection: WithSessions): CryptoSessionData {
  const session = collection.payment_sessions?.find((s) => s.provider_id === CRYPTO_PROVIDER_ID)
  if (!session) throw new Error("the crypto payment session was not created")
  return session.data as unknown as CryptoSessionData
}

/**
 * Starts the crypto payment of a cart. Without a coin the customer gets a multi-coin invoice
 * (send them to `invoiceUrl`); with one, a single-coin payment (show `address`, `cryptoAmount`, and the QR code
 * and wallet link of `walletUri`).
 * Call it when the cart is final: a later change of total drops the session.
 */
export async function startCryptoPayment(
  sdk: Medusa,
  cart: HttpTypes.StoreCart,
  coin?: Coin
): Promise<CryptoSessionData> {
  // the SDK creates the cart's payment collection first when it has none
  const { payment_collection } = await sdk.store.payment.initiatePaymentSession(cart, cryptoSessionBody(coin))
  return createdCryptoSession(payment_collection)
}

/**
 * Starts the crypto payment of a payment collection by its id: one Medusa created on an order after an order
 * edit, claim or exchange (the dashboard's "Copy payment link": `/payment-collection/<id>?order_id=<order id>`).
 * Coin or not, as `startCryptoPayment`. Medusa replaces the collection's other sessions with this one.
 */
export async function startCryptoCollectionPayment(
  sdk: Medusa,
  collectionId: string,
  coin?: Coin
): Promise<CryptoSessionData> {
  const { payment_collection } = await sdk.client.fetch<{ payment_collection: HttpTypes.StorePaymentCollection }>(
    `/store/payment-collections/${encodeURIComponent(collectionId)}/payment-sessions`,
    { method: "POST", body: cryptoSessionBody(coin) }
  )
  return createdCryptoSession(payment_collection)
}

type WithSessions = {
  payment_sessions?: Array<{ provider_id: string; status?: string; data?: Record<string, unknown> | null }> | null
}

/**
 * The crypto session data of a payment collection: the cart's (`cart.payment_collection`) or the
 * order's (`order.payment_collections[0]`; retrieve the order with `fields: "*payment_collections.payment_sessions"`).
 * The provider id is `pp_crypto_<id>`: `pp_crypto_crypto` unless the shop gave its provider another id.
 */
export function cryptoSessionOf(collection: WithSessions | null | undefined): CryptoSessionData | undefined {
  const session = collection?.payment_sessions?.find(
    (s) => s.provider_id.startsWith("pp_crypto_") && typeof s.data?.paymentId === "string"
  )
  return session?.data as unknown as CryptoSessionData | undefined
}

/**
 * The crypto session data of a collection's session that is still open (not canceled: the shop closes a
 * session whose payment expired or failed), e.g. to show it again rather than start a new payment.
 */
export function openCryptoSessionOf(collection: WithSessions | null | undefined): CryptoSessionData | undefined {
  const open = collection?.payment_sessions?.filter((s) => s.status !== "canceled" && s.status !== "error")
  return cryptoSessionOf({ payment_sessions: open })
}

/** What a payment collection still asks of the customer (`paymentCollectionDue`). */
export type PaymentCollectionState = "due" | "authorized" | "paid" | "canceled"

export type PaymentCollectionDue = {
  /**
   * `due`: there is an amount to pay; `authorized`: the payment was received and the shop has still to capture
   * it; `paid`: nothing is due; `canceled`: the shop canceled the request (or its order).
   */
  state: PaymentCollectionState
  /** The collection's amount minus what was captured, never below 0, in the currency's precision ("12.50"). */
  due: string
  currency: string
}

type CollectionAmounts = {
  amount: number | string
  captured_amount?: number | string | null
  currency_code: string
  status?: string | null
}

/**
 * What is still due on a payment collection, read from the order (`GET /store/orders/:id` with
 * `fields: "*payment_collections"`): the amount minus what was captured, as exact decimal text rounded to
 * the currency's precision (half up), and whether the customer has anything left to do.
 */
export function paymentCollectionDue(collection: CollectionAmounts): PaymentCollectionDue {
  const currency = collection.currency_code
  const due = roundToCurrency(
    remainingAmount({
      requiredAmount: decimalText(collection.amount),
      receivedAmount: decimalText(collection.captured_amount ?? 0),
    }),
    currency
  )
  const nothingDue = /^[0.]+$/.test(due)
  const state: PaymentCollectionState =
    collection.status === "canceled"
      ? "canceled"
      : collection.status === "completed" || nothingDue
        ? "paid"
        : collection.status === "authorized"
          ? "authorized"
          : "due"
  return { state, due: nothingDue ? roundToCurrency("0", currency) : due, currency }
}

/** A number as the store API sends it, as plain decimal text: 12.5 → "12.5", 1e-7 → "0.0000001". */
export function decimalText(value: number | string): string {
  const text = String(value).trim()
  const parts = /^(-?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text)
  if (!parts || !(parts[2] || parts[3])) throw new Error(`not an amount: ${JSON.stringify(text)}`)
  const [, sign, whole = "", fraction = "", exponent = "0"] = parts
  let digits = whole + fraction
  let point = whole.length + Number(exponent)
  if (point < 0) {
    digits = "0".repeat(-point) + digits
    point = 0
  }
  digits = digits.padEnd(point, "0")
  const integer = digits.slice(0, point).replace(/^0+(?=\d)/, "") || "0"
  const decimals = digits.slice(point).replace(/0+$/, "")
  const plain = decimals ? `${integer}.${decimals}` : integer
  return sign && /[1-9]/.test(plain) ? `-${plain}` : plain
}

/** Decimal text (not negative) rounded half up to the currency's minor units: "33.333…" USD → "33.33", JPY → "33". */
function roundToCurrency(amount: string, currency: string): string {
  const places = new Intl.NumberFormat("en-US", { style: "currency", currency }).resolvedOptions()
    .maximumFractionDigits as number
  const [whole, fraction = ""] = amount.split(".")
  const kept = whole + fraction.slice(0, places).padEnd(places, "0")
  const units = fraction.charAt(places) >= "5" ? addOne(kept) : kept
  const digits = units.replace(/^0+(?=\d)/, "").padStart(places + 1, "0")
  return places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits
}

/** The header that sets a store API request's locale (`req.locale`), when one is given; else the SDK's own. */
function localeHeader(locale: string | undefined): Record<string, string> {
  return locale ? { "x-medusa-locale": locale } : {}
}

/**
 * One read of the shared, cached status (every tab of every customer shares one upstream read). The view is
 * the same in every language; `locale` only sets the language of the route's error messages.
 */
export async function fetchCryptoPayment(sdk: Medusa, paymentId: string, locale?: string): Promise<CryptoPaymentView> {
  const { payment } = await sdk.client.fetch<{ payment: CryptoPaymentView }>(
    `/store/crypto/payments/${encodeURIComponent(paymentId)}`,
    { headers: localeHeader(locale) }
  )
  return payment
}

/**
 * The QR code as SVG markup (the route needs the publishable key, so fetch it rather than <img src>): the
 * payment's wallet URI (`walletUri`), with the amount still to send. Revalidated each time, never taken from the
 * browser's cache unasked: once part of the amount arrived, the same URL encodes the rest.
 */
export async function fetchCryptoQrSvg(sdk: Medusa, paymentId: string): Promise<string> {
  // with an Accept other than JSON the SDK hands back the raw Response
  const response = await sdk.client.fetch<Response>(`/store/crypto/payments/${encodeURIComponent(paymentId)}/qr`, {
    headers: { accept: "image/svg+xml" },
    cache: "no-cache",
  })
  return response.text()
}

/**
 * Polls until the payment is final (`view.final`), calling `onUpdate` with each view. Every 5–10 s is
 * plenty: the server shares one read of the service per `statusCacheSeconds` between all pollers, and a
 * webhook's news reaches them at once. `locale` as for `fetchCryptoPayment`. Returns a function that stops
 * polling.
 */
export function watchCryptoPayment(
  sdk: Medusa,
  paymentId: string,
  onUpdate: (view: CryptoPaymentView) => void,
  {
    intervalMs = 10_000,
    onError = (_: unknown) => {},
    locale,
  }: { intervalMs?: number; onError?: (error: unknown) => void; locale?: string } = {}
): () => void {
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const tick = async () => {
    try {
      const view = await fetchCryptoPayment(sdk, paymentId, locale)
      if (stopped) return
      onUpdate(view)
      if (isCryptoPaymentFinal(view)) return
    } catch (error) {
      onError(error)
    }
    if (!stopped) timer = setTimeout(tick, intervalMs)
  }
  void tick()
  return () => {
    stopped = true
    if (timer) clearTimeout(timer)
  }
}

/** Whether any money arrived ("0", "0.000" and an empty text are none). */
function someReceived(view: Pick<CryptoPaymentView, "receivedAmount">): boolean {
  return Number(view.receivedAmount || "0") > 0
}

/**
 * The verdict of a view. A backend older than the verdict sends none: it is then read from `status` as
 * before, except that COMPLETED is only `confirming` — a storefront never learns "paid" from the status.
 */
export function cryptoPaymentVerdict(view: CryptoPaymentView): CryptoPaymentVerdict {
  if (view.verdict && (VERDICTS as readonly string[]).includes(view.verdict)) return view.verdict
  switch (view.status) {
    case "COMPLETED":
      return "confirming"
    case "EXPIRED":
      return "expired"
    case "FAILED":
      return "failed"
    default:
      if (!view.currency) return "awaiting"
      if (view.underpaid) return "short"
      return someReceived(view) ? "confirming" : "awaiting"
  }
}

/** Paid: the shop accepted the payment and its order is paid. The only test to show "paid" on. */
export function isCryptoPaymentPaid(view: CryptoPaymentView): boolean {
  return cryptoPaymentVerdict(view) === "paid"
}

/** Over for the customer: nothing will change any more by itself (the backend's `final`). Stop polling. */
export function isCryptoPaymentFinal(view: CryptoPaymentView): boolean {
  return view.final === true
}

/**
 * With placeOrder after_payment, the moment to complete the cart: the shop accepted the payment, or the
 * service says COMPLETED and the shop has not applied it yet (the webhook may not have come). The backend
 * checks the payment again and refuses a cart it does not accept; never on `needs_attention`.
 */
export function readyToCompleteCart(view: CryptoPaymentView): boolean {
  const verdict = cryptoPaymentVerdict(view)
  return verdict === "paid" || (verdict === "confirming" && view.status === "COMPLETED")
}

/** A verdict in words: a short title (fits a badge) and what the customer should do now. */
export type CryptoVerdictText = { verdict: CryptoPaymentVerdict; title: string; detail: string }

const ENGLISH = cryptoPaymentI18n("en")

/**
 * What to tell the customer about a payment, per verdict, in the language of `i18n` (`cryptoPaymentI18n(locale)`;
 * English without it), amounts and counts formatted for its locale. Never treat a return from the hosted page as
 * payment.
 */
export function describeCryptoVerdict(view: CryptoPaymentView, i18n: CryptoPaymentI18n = ENGLISH): CryptoVerdictText {
  const { labels, locale } = i18n
  const verdict = cryptoPaymentVerdict(view)
  const amount = (text: string | null) => (text ? formatCryptoAmount(text, locale) : "")
  const values = {
    coin: view.currency ? coinCode(view.currency) : "",
    address: view.address ?? "",
    paymentId: view.paymentId,
    required: amount(view.requiredAmount),
    received: amount(view.receivedAmount || "0"),
    remaining: amount(remainingAmount(view)),
    confirmations: formatCryptoCount(view.confirmations, locale),
    requiredConfirmations:
      view.requiredConfirmations !== null ? formatCryptoCount(view.requiredConfirmations, locale) : "",
  }
  const say = (title: string, detail: string): CryptoVerdictText => ({
    verdict,
    title,
    detail: fillLabel(detail, values),
  })
  switch (verdict) {
    case "awaiting":
      if (!view.currency || !view.address || !view.requiredAmount)
        return say(labels.titleAwaiting, labels.detailChooseCoin)
      return say(labels.titleAwaiting, labels.detailAwaiting)
    case "confirming":
      if (view.status === "COMPLETED") return say(labels.titleConfirming, labels.detailRecording)
      return say(
        labels.titleConfirming,
        view.requiredConfirmations !== null ? labels.detailConfirmations : labels.detailConfirmingOnChain
      )
    case "paid":
      return say(labels.titlePaid, view.overpaid ? labels.detailPaidOverpaid : labels.detailPaid)
    case "short":
      return say(labels.titleShort, labels.detailShort)
    case "expired":
      return say(labels.titleExpired, someReceived(view) ? labels.detailExpiredPartly : labels.detailExpired)
    case "failed":
      return say(labels.titleFailed, someReceived(view) ? labels.detailFailedPartly : labels.detailFailed)
    case "needs_attention":
      return say(labels.titleNeedsAttention, labels.detailNeedsAttention)
  }
}

export type CryptoPaymentMessage = CryptoVerdictText & {
  /** The box's state (its data-state), the verdict with `awaiting` split by whether a coin is chosen. */
  state:
    "choose_coin" | "awaiting_funds" | "underpaid" | "confirming" | "paid" | "expired" | "failed" | "needs_attention"
}

const STATE_OF: Record<Exclude<CryptoPaymentVerdict, "awaiting">, CryptoPaymentMessage["state"]> = {
  confirming: "confirming",
  paid: "paid",
  short: "underpaid",
  expired: "expired",
  failed: "failed",
  needs_attention: "needs_attention",
}

/** What the payment box shows: `describeCryptoVerdict` with the state it renders. */
export function describeCryptoPayment(
  view: CryptoPaymentView,
  i18n: CryptoPaymentI18n = ENGLISH
): CryptoPaymentMessage {
  const text = describeCryptoVerdict(view, i18n)
  if (text.verdict !== "awaiting") return { ...text, state: STATE_OF[text.verdict] }
  if (!view.currency) return { ...text, state: "choose_coin", title: i18n.labels.titleChooseCoin }
  return { ...text, state: "awaiting_funds" }
}

/**
 * What is still to send, as exact decimal text ("0.00012"): required − received, never below 0.
 * Computed on the decimal strings (no floating point: 0.3 − 0.1 is 0.2 here).
 */
export function remainingAmount(view: Pick<CryptoPaymentView, "requiredAmount" | "receivedAmount">): string {
  if (view.requiredAmount == null) return "0"
  const [required, received] = [view.requiredAmount, view.receivedAmount || "0"]
  const places = Math.max(...[required, received].map((text) => text.split(".")[1]?.length ?? 0))
  const wholes = Math.max(...[required, received].map((text) => text.split(".")[0].length))
  // both as digit strings of one length, so comparing them as text compares the amounts
  const units = (text: string) => {
    const [whole, fraction = ""] = text.split(".")
    return whole.padStart(wholes, "0") + fraction.padEnd(places, "0")
  }
  if (units(required) <= units(received)) return "0"
  const digits = subtractDigits(units(required), units(received))
    .replace(/^0+(?=\d)/, "")
    .padStart(places + 1, "0")
  const whole = digits.slice(0, digits.length - places)
  const fraction = digits.slice(digits.length - places).replace(/0+$/, "")
  return fraction ? `${whole}.${fraction}` : whole
}

/*
 * Digit-string arithmetic: exact, and without BigInt, which a storefront compiled for older
 * browsers (target ES5, lib ES2017, as Medusa's Next.js starter) does not have.
 */

/** The digit string plus one ("0999" → "1000"). */
function addOne(digits: string): string {
  let out = ""
  let carry = 1
  for (let i = digits.length - 1; i >= 0; i--) {
    const sum = Number(digits.charAt(i)) + carry
    carry = sum > 9 ? 1 : 0
    out = String(sum % 10) + out
  }
  return carry ? `1${out}` : out
}

/** a − b for digit strings of one length with a ≥ b, as a digit string of that length. */
function subtractDigits(a: string, b: string): string {
  let out = ""
  let borrow = 0
  for (let i = a.length - 1; i >= 0; i--) {
    let digit = Number(a.charAt(i)) - Number(b.charAt(i)) - borrow
    borrow = digit < 0 ? 1 : 0
    if (digit < 0) digit += 10
    out = String(digit) + out
  }
  return out
}
