/**
 * The customer's refund-address page, framework-agnostic: when the shop owes a customer coins — a refund, a
 * payment above the order's total, a payment that came after the window — the admin sends them a link,
 * `{storefront}/crypto-refund#<token>` (also in the plugin's refund email), where they say which address the
 * coins go back to. These helpers find the link's token (`refundTokenOf`), read what is owed and give the
 * address; CryptoRefundPage.tsx renders them, in the texts of crypto-refund-labels.ts.
 *
 * The token is a bearer token, and it never reaches a server's log: it sits after `#` in the link (a browser
 * sends no fragment, neither in the request nor in a `Referer`), and the calls carry it in a header,
 * `x-crypto-refund-token`, never in their URL. Links sent before it moved, `{storefront}/crypto-refund/<token>`,
 * still open the page until they expire; every call is made with `referrerPolicy: "no-referrer"`, so such a
 * page's address is not sent along either.
 *
 * They call the store API with `fetch` and the publishable key rather than through the JS SDK: the SDK's
 * `FetchError` keeps only the message and the status of an error, and the form needs the `field` and
 * `reason` of a refused address to say what is wrong next to the right field.
 */
import type { Coin } from "./crypto-payment"
import { fillLabel } from "./crypto-payment-i18n"
import { CRYPTO_REFUND_LABELS, CryptoRefundLabels } from "./crypto-refund-labels"

/** Where the store API is: the backend's URL and the storefront's publishable key (like the SDK's config). */
export type CryptoStoreBackend = { baseUrl: string; publishableKey: string }

/** A network the refund may be sent on: the one the customer paid on. */
export type CryptoRefundNetwork = {
  coin: Coin
  network: "bitcoin" | "litecoin" | "ethereum" | "bsc"
  /** What to call it: "Bitcoin", "Ethereum (ERC-20)", "BNB Smart Chain (BEP-20)" … */
  label: string
  format: "bitcoin" | "litecoin" | "evm"
  /**
   * Another network takes addresses of the same format (ETH, USDT ERC20 and USDT BEP20 are all 0x…): the
   * address cannot tell the network, so the customer must confirm it (`network_confirmed`). Coins sent on
   * the wrong chain are lost.
   */
  shares_format: boolean
}

/** `GET /store/crypto/refunds` (the token in `x-crypto-refund-token`) → `{ refund }` */
export type CryptoRefundView = {
  /** `refund`: the shop refunded (part of) the order; `excess`: paid more than the total; `late`: paid after the window. */
  kind: "refund" | "excess" | "late"
  coin: Coin | string | null
  /** The coins owed, exact decimal text; null while the shop has not priced them in coins. */
  coin_amount: string | null
  /**
   * The same coins as the shop sends them: rounded down to the places a wallet sends (8 for BTC, LTC and ETH,
   * 6 for USDT), less than one such unit below `coin_amount`; null with it. Show this one (`refundCoinsShown`).
   */
  coin_amount_sendable?: string | null
  /** Their worth in the store's currency ("10.00" "USD"). */
  store_amount: string
  store_currency: string
  networks: CryptoRefundNetwork[]
  /** The address given so far, masked ("bc1qar…5mdq": the link is a bearer token); null before one is given. */
  address: string | null
  address_coin: string | null
  /** False once the shop started sending (the address is frozen) or sent the coins. */
  can_change: boolean
  sent: boolean
  /** When the link stops working (the shop can renew it). */
  expires_at: string
}

/** Why an address was refused (`reason` of a 400 `crypto.refund_address_invalid`). */
export const REFUND_ADDRESS_REASONS = [
  "empty",
  "too_long",
  "testnet",
  "wrong_network",
  "bad_checksum",
  "invalid",
  "network_unconfirmed",
  "not_allowed",
] as const
export type RefundAddressReason = (typeof REFUND_ADDRESS_REASONS)[number]

/**
 * What the route answered instead of a refund: its status and error body — `code` (`crypto.refund_link_not_found`
 * 404, `crypto.refund_address_frozen` 409, `crypto.refund_address_invalid` 400 with `field` and `reason`,
 * `crypto.too_many_requests` 429), `message` — or status 0 when the store could not be reached.
 */
export type CryptoRefundFailure = {
  status: number
  type?: string
  code?: string
  field?: string
  reason?: string
  message: string
}

export type CryptoRefundAnswer = { ok: true; refund: CryptoRefundView } | { ok: false; failure: CryptoRefundFailure }

/** What the customer gives: the coin (one of `networks`), the address, and the network confirmed where asked. */
export type CryptoRefundAddress = { coin: string; address: string; networkConfirmed?: boolean }

/** The longest token `refundTokenOf` takes (today's are about 80 characters). */
const TOKEN_MAX_LENGTH = 300

function tokenText(raw: string): string | null {
  let text: string
  try {
    text = decodeURIComponent(raw).trim()
  } catch {
    return null // a malformed %-escape: no link the shop sent
  }
  return text !== "" && text.length <= TOKEN_MAX_LENGTH ? text : null
}

/**
 * The token of the refund link the browser is on: the fragment of `{storefront}/crypto-refund#<token>` (the
 * link the shop sends), or the last path segment of `{storefront}/crypto-refund/<token>` (links sent before
 * the token moved after `#`); decoded and trimmed. The path may stand under a prefix of yours (a country code,
 * a base path). Null on another page, or when the link holds no token. Give it `window.location`, in the
 * browser and once mounted: a server never sees the fragment.
 */
export function refundTokenOf(location: { pathname: string; hash: string }): string | null {
  const match = /(?:^|\/)crypto-refund(?:\/([^/]+))?\/?$/.exec(location.pathname)
  if (!match) return null
  const fragment = location.hash.replace(/^#/, "")
  if (fragment.trim() !== "") return tokenText(fragment)
  return match[1] !== undefined ? tokenText(match[1]) : null
}

/** The refund routes: the token goes in a header, never in the URL (access logs keep URLs). */
function refundsUrl(backend: CryptoStoreBackend): string {
  return `${backend.baseUrl.replace(/\/+$/, "")}/store/crypto/refunds`
}

/** A header's value may hold visible ASCII only: a token with anything else opens no link, and `fetch` would throw. */
const SENDABLE_TOKEN = /^[\x21-\x7e]+$/

async function call(
  backend: CryptoStoreBackend,
  token: string,
  locale: string | undefined,
  init: { method: "GET" } | { method: "POST"; body: string }
): Promise<CryptoRefundAnswer> {
  if (!SENDABLE_TOKEN.test(token)) {
    return {
      ok: false,
      failure: { status: 404, code: "crypto.refund_link_not_found", message: "The link holds no valid token." },
    }
  }
  const headers: Record<string, string> = {
    accept: "application/json",
    "x-publishable-api-key": backend.publishableKey,
    "x-crypto-refund-token": token,
  }
  if (locale) headers["x-medusa-locale"] = locale // the language of the route's error messages
  if (init.method === "POST") headers["content-type"] = "application/json"
  let response: Response
  try {
    // no cookie, no cached answer, and no Referer: the page of an older link has the token in its own path
    response = await fetch(refundsUrl(backend), {
      ...init,
      headers,
      cache: "no-store",
      credentials: "omit",
      referrerPolicy: "no-referrer",
    })
  } catch (error) {
    return { ok: false, failure: { status: 0, message: error instanceof Error ? error.message : String(error) } }
  }
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>
  if (response.ok && body.refund) return { ok: true, refund: body.refund as CryptoRefundView }
  const text = (name: string) => (typeof body[name] === "string" ? (body[name] as string) : undefined)
  return {
    ok: false,
    failure: {
      status: response.status,
      type: text("type"),
      code: text("code"),
      field: text("field"),
      reason: text("reason"),
      message: text("message") || response.statusText || `HTTP ${response.status}`,
    },
  }
}

/**
 * What is owed through a link: `GET /store/crypto/refunds` with the token in `x-crypto-refund-token` (a bad,
 * another shop's or an expired token: 404 `crypto.refund_link_not_found`; so is a token no header can carry,
 * without asking the store).
 */
export function fetchCryptoRefund(
  backend: CryptoStoreBackend,
  token: string,
  locale?: string
): Promise<CryptoRefundAnswer> {
  return call(backend, token, locale, { method: "GET" })
}

/**
 * Gives (or changes) the refund's address: `POST /store/crypto/refunds`, the token in `x-crypto-refund-token`,
 * a JSON body `{ coin, address, network_confirmed? }`. The server checks it for the coin's network (mainnet only,
 * checksums) and answers the refund with the address masked, or a 400 naming the `field` and the `reason`;
 * 409 once the shop started sending.
 */
export function giveCryptoRefundAddress(
  backend: CryptoStoreBackend,
  token: string,
  given: CryptoRefundAddress,
  locale?: string
): Promise<CryptoRefundAnswer> {
  const body: Record<string, unknown> = { coin: given.coin, address: given.address }
  if (given.networkConfirmed !== undefined) body.network_confirmed = given.networkConfirmed
  return call(backend, token, locale, { method: "POST", body: JSON.stringify(body) })
}

/**
 * Where the refund stands for the customer: no address yet, an address given (it may still change), the
 * shop sending to it (frozen), or sent.
 */
export type CryptoRefundState = "awaiting_address" | "address_given" | "frozen" | "sent"

export function cryptoRefundState(
  refund: Pick<CryptoRefundView, "address" | "can_change" | "sent">
): CryptoRefundState {
  if (refund.sent) return "sent"
  if (!refund.can_change) return "frozen"
  return refund.address ? "address_given" : "awaiting_address"
}

/** Decimal text without trailing zeros in its fraction ("0.10000000" → "0.1"), to compare two figures. */
const canonicalAmount = (amount: string) =>
  amount.indexOf(".") < 0 ? amount : amount.replace(/0+$/, "").replace(/\.$/, "")

/**
 * The coins to show: what the shop sends (`coin_amount_sendable`), and the exact coins owed when they differ
 * (for a details line); null while the shop has not priced them in coins. From a backend that sends no
 * such figure, the exact coins.
 */
export function refundCoinsShown(
  refund: Pick<CryptoRefundView, "coin_amount" | "coin_amount_sendable">
): { shown: string; exact: string | null } | null {
  const exact = refund.coin_amount
  if (!exact) return null
  const shown = refund.coin_amount_sendable || exact
  return { shown, exact: canonicalAmount(shown) === canonicalAmount(exact) ? null : exact }
}

/** The form's fields an error can stand next to; `form` for the rest. */
export type RefundAddressField = "coin" | "address" | "network_confirmed" | "form"

export function isRefundAddressReason(reason: unknown): reason is RefundAddressReason {
  return typeof reason === "string" && (REFUND_ADDRESS_REASONS as readonly string[]).indexOf(reason) >= 0
}

/**
 * Which field a refused address's error belongs next to, and what to say there. In English, the server's own
 * sentence: it says what the address looks like ("This looks like a Litecoin address: give a Bitcoin address.").
 * In another language, or where you gave the reason a text of your own, the reason's text of `labels`, with
 * the network's name. Undefined for an answer that is no refused address (see `cryptoErrorMessage`).
 */
export function refundAddressProblem(
  failure: CryptoRefundFailure,
  labels: CryptoRefundLabels,
  network: string
): { field: RefundAddressField; text: string } | undefined {
  if (failure.code !== "crypto.refund_address_invalid") return undefined
  const field: RefundAddressField =
    failure.field === "coin" || failure.field === "address" || failure.field === "network_confirmed"
      ? failure.field
      : "form"
  const reason = failure.reason
  if (!isRefundAddressReason(reason)) return { field, text: failure.message }
  const own = labels.reasons[reason]
  const serverSays = own === CRYPTO_REFUND_LABELS.en.reasons[reason] && failure.message
  return { field, text: serverSays ? failure.message : fillLabel(own, { network }) }
}

/**
 * A day as the locale writes it ("December 26, 2026", "26. Dezember 2026"), in the runtime's time zone or the
 * `timeZone` given ("UTC"); empty for a text that is not a date.
 */
export function formatCryptoDate(iso: string, locale: string, timeZone?: string): string {
  const at = new Date(iso)
  if (isNaN(at.getTime())) return ""
  return new Intl.DateTimeFormat(locale, { year: "numeric", month: "long", day: "numeric", timeZone }).format(at)
}
