/** Sending an owed record's coins back, as the order widget's card offers it. Pure but for the clipboard, passed in. */
import { compareDecimals } from "./decimal"
import { formatAmount, formatDateTime, formatPercent } from "./format"
import type { MessageKey, Translate } from "./i18n"
import type { Coin, OwedRecord, RefundBasis, RefundBasisBody, RefundLink, RefundSentBody } from "./payment-types"

/**
 * The service's coins, each with the most decimals an amount in it carries (its chain's smallest unit).
 * The admin keeps its own copy: its bundle takes no constants file of the server.
 */
export const COIN_PLACES: Readonly<Record<Coin, number>> = {
  BTC: 8,
  ETH: 18,
  LTC: 8,
  USDT_ERC20: 18,
  USDT_BEP20: 18,
}

export const REFUND_COINS = Object.keys(COIN_PLACES) as Coin[]

const isCoin = (coin: string | null | undefined): coin is Coin => REFUND_COINS.some((known) => known === coin)

/** The network an address is on, by its coin ("Litecoin", "Ethereum (ERC-20)"); a coin this admin does not know as its code. */
export function networkLabel(t: Translate, coin: string | null): string {
  if (!coin) return "—"
  return isCoin(coin) ? t(`owed.networks.${coin}`) : coin
}

/**
 * Who gave an address or acted: the customer (through the link), else the admin by the name the server
 * sent beside the id (the id itself when it sent none, or knows no such user).
 */
export function actorLabel(t: Translate, actor: string | null, name?: string | null): string {
  if (!actor) return "—"
  return actor === "customer" ? t("owed.actors.customer") : (name ?? actor)
}

export const REFUND_BASES: readonly RefundBasis[] = ["rate_then", "fixed_coins"]

const isBasis = (basis: string): basis is RefundBasis => REFUND_BASES.some((known) => known === basis)

/** A basis in words; none chosen (null) is the rate the payment was priced at; one this admin does not know as its code. */
export function basisLabel(t: Translate, basis: string | null): string {
  if (basis === null) return t("owed.basis.default")
  return isBasis(basis) ? t(`owed.basis.${basis}`) : basis
}

/** The record's basis in a line: the basis, its fee, who chose it and when ("Fixed coins · fee 1.5% · chosen by user_1 on …"). */
export function basisText(
  t: Translate,
  locale: string | undefined,
  record: Pick<OwedRecord, "basis" | "fee_percent" | "basis_chosen_by" | "basis_chosen_by_name" | "basis_chosen_at">
): string {
  const fee = record.fee_percent && Number(record.fee_percent) > 0 ? record.fee_percent : null
  return [
    basisLabel(t, record.basis),
    fee && t("owed.basis.fee", { percent: formatPercent(fee, locale) }),
    record.basis_chosen_at &&
      t("owed.basis.chosen", {
        actor: actorLabel(t, record.basis_chosen_by, record.basis_chosen_by_name),
        at: formatDateTime(record.basis_chosen_at, locale),
      }),
  ]
    .filter(Boolean)
    .join(" · ")
}

/** Decimal text as typed, with a decimal comma taken as a point ("0,0051" → "0.0051"). */
const normalised = (text: string) => text.trim().replace(",", ".")

/** The most decimals coins of a coin carry; for a coin not known yet, the most any coin does. */
export const coinPlaces = (coin: string | null): number =>
  isCoin(coin) ? COIN_PLACES[coin] : Math.max(...Object.values(COIN_PLACES))

/**
 * The coins input as the server takes them ("0.0051"): a decimal number above 0 with no more decimals than
 * the coin carries; a decimal comma is read as a point. Null when it is not one.
 */
export function parseCoins(text: string, coin: string | null): string | null {
  const value = normalised(text)
  const match = /^\d+(?:\.(\d+))?$/.exec(value)
  if (!match || (match[1]?.length ?? 0) > coinPlaces(coin)) return null
  return /[1-9]/.test(value) ? value : null
}

/** A percent from 0 to 100 with at most two decimals; undefined when left empty (no fee), null when invalid. */
export function parseFeePercent(text: string): string | undefined | null {
  const value = normalised(text)
  if (!value) return undefined
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(value)) return null
  return Number(value) <= 100 ? value : null
}

export type BasisFormValues = { basis: RefundBasis; coins: string; fee: string }

/** The form as it opens: the record's choice so far (the rate at payment when none was made). */
export function basisFormDefaults(record: Pick<OwedRecord, "basis" | "coin_amount" | "fee_percent">): BasisFormValues {
  const fixed = record.basis === "fixed_coins"
  return {
    basis: fixed ? "fixed_coins" : "rate_then",
    coins: fixed ? (record.coin_amount ?? "") : "",
    fee: record.fee_percent ?? "",
  }
}

/** Why a field of the form cannot be sent: a text of the plugin's, with the values it interpolates. */
export type FieldError = { key: MessageKey; values?: Record<string, string | number> }

export type BasisFormCheck = {
  /** What the form posts; null while a field is missing or not valid. */
  body: RefundBasisBody | null
  /** Why a typed field is not valid (a field left empty has none: the form just cannot be sent yet). */
  errors: { coins?: FieldError; fee?: FieldError }
}

/** The basis form checked, and the body it posts: coins only with fixed coins, the fee only when one is typed. */
export function checkBasisForm(values: BasisFormValues, coin: string | null): BasisFormCheck {
  const errors: BasisFormCheck["errors"] = {}
  const fee = parseFeePercent(values.fee)
  if (fee === null) errors.fee = { key: "owed.basisForm.feeInvalid" }
  let coins: string | null | undefined
  if (values.basis === "fixed_coins") {
    coins = values.coins.trim() ? parseCoins(values.coins, coin) : null
    if (coins === null && values.coins.trim())
      errors.coins = { key: "owed.basisForm.coinsInvalid", values: { places: coinPlaces(coin) } }
  }
  if (fee === null || coins === null) return { body: null, errors }
  return {
    body: {
      basis: values.basis,
      ...(coins !== undefined ? { coins } : {}),
      ...(fee !== undefined ? { fee_percent: fee } : {}),
    },
    errors,
  }
}

type ActionFields = Pick<OwedRecord, "sent_at" | "refund_address" | "payout_started_at">

/**
 * Which of a record's actions apply: while its coins are not sent, the customer's link (copy, renew) and
 * the basis; the payout once the customer gave an address, and only once.
 */
export function owedActions(record: ActionFields) {
  const open = !record.sent_at
  return {
    copyLink: open,
    renewLink: open,
    chooseBasis: open,
    startPayout: open && !!record.refund_address && !record.payout_started_at,
  }
}

/** Why the payout cannot start, as a text of the plugin's; null when it can. */
export function payoutBlocker(record: ActionFields): MessageKey | null {
  if (record.sent_at) return "owed.payout.alreadySent"
  if (record.payout_started_at) return "owed.payout.alreadyStarted"
  if (!record.refund_address) return "owed.payout.needsAddress"
  return null
}

/**
 * Coins owed as the admin sends them, and the exact coins when they differ (null when they are the same): the
 * server rounds them down to the places a wallet sends (`…_sendable`), the figure typed into the service's
 * dashboard, which "mark sent" takes as the whole; the exact figure stays in the books. Null without coins;
 * from a server that sends no such figure, the exact coins.
 */
export function coinsToSend(
  exact: string | null,
  sendable: string | null | undefined
): { send: string; exact: string | null } | null {
  if (exact === null) return null
  const send = sendable ?? exact
  return { send, exact: compareDecimals(send, exact) === 0 ? null : exact }
}

type AmountFields = Pick<OwedRecord, "coin" | "coin_amount" | "base_amount" | "base_currency"> &
  Partial<Pick<OwedRecord, "coin_amount_sendable">>

/**
 * A record's coins as the admin sends them, in its coin ("0.0099 BTC", "0.00333641 ETH"), else, not worked out
 * yet, about its base amount ("≈ 5.00 USD").
 */
export function owedAmountText(locale: string | undefined, record: AmountFields, coin: string | null): string {
  const coins = coinsToSend(record.coin_amount, record.coin_amount_sendable)
  if (coins === null) return `≈ ${formatAmount(record.base_amount, locale)} ${record.base_currency}`
  return `${formatAmount(coins.send, locale)} ${record.coin ?? coin ?? ""}`.trim()
}

/**
 * What the admin confirms before the payout starts: the coins, the address in full and its network,
 * and that the customer can no longer change it ("Start the payout of 0.0099 BTC to bc1q… (Bitcoin)? …").
 */
export function payoutPrompt(
  t: Translate,
  locale: string | undefined,
  record: AmountFields & Pick<OwedRecord, "refund_address" | "refund_coin">,
  coin: string | null
): { title: string; description: string } {
  const address = record.refund_address ?? "—"
  const network = networkLabel(t, record.refund_coin)
  return {
    title: t("owed.payout.confirmTitle"),
    description:
      record.coin_amount === null
        ? t("owed.payout.confirmNoAmount", { address, network })
        : t("owed.payout.confirm", { amount: owedAmountText(locale, record, coin), address, network }),
  }
}

type SentFields = Pick<OwedRecord, "id" | "coin_amount" | "sent_at" | "refund_address" | "payout_started_at">

export const owedNowRecords = <Owed extends Pick<OwedRecord, "sent_at">>(records: Owed[]): Owed[] =>
  records.filter((r) => !r.sent_at)

/**
 * What "Mark all owed now as sent" posts: the records the admin saw in "owed now", each with the coins it
 * showed, so the server refuses (409) when one was closed or its coins changed meanwhile, and the reference
 * if one was typed.
 */
export function refundSentBody(records: SentFields[], reference: string): RefundSentBody {
  const typed = reference.trim()
  return {
    owed: owedNowRecords(records).map((r) => ({ id: r.id, coin_amount: r.coin_amount })),
    ...(typed ? { reference: typed } : {}),
  }
}

/**
 * A record with a customer's address must have its payout started before it is marked sent: until then
 * the address could still change under the sending.
 */
export function markSentBlocker(records: SentFields[]): MessageKey | null {
  return owedNowRecords(records).some((r) => r.refund_address && !r.payout_started_at)
    ? "owed.markSentNeedsPayout"
    : null
}

/** The server refused an action for what changed since the admin looked (409 conflict): the payment is read again. */
export const isConflict = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { status?: unknown }).status === 409

/** Why the server refused an action, in its words; after a 409, with the payment read again for the admin to check. */
export function refusalText(t: Translate, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return isConflict(error) ? t("owed.conflict", { message }) : message
}

export const linkExpired = (expiresAt: string, now = new Date()): boolean => new Date(expiresAt) <= now

/** What "Copy link" copies: the link's URL, or its path when the storefront's URL is not configured. */
export function linkToCopy(link: Pick<RefundLink, "url" | "path">): { text: string; storefrontMissing: boolean } {
  return link.url ? { text: link.url, storefrontMissing: false } : { text: link.path, storefrontMissing: true }
}

export type ClipboardLike = Pick<Clipboard, "writeText">

/**
 * Puts text on the clipboard; false when there is none (an admin served over plain http has no
 * navigator.clipboard) or the browser refused, so the caller shows the text to copy by hand.
 */
export async function copyText(
  text: string,
  clipboard: ClipboardLike | null | undefined = typeof navigator === "undefined" ? undefined : navigator.clipboard
): Promise<boolean> {
  if (!clipboard?.writeText) return false
  try {
    await clipboard.writeText(text)
    return true
  } catch {
    return false
  }
}
