/** The server's codes in the admin's language. A code this admin does not know shows as it was sent. */
import { LEDGER_FLAGS } from "../../modules/crypto-payment/types"
import { formatAmount, formatPercent } from "./format"
import type { Translate } from "./i18n"
import { owedAmountText } from "./owed-refunds"
import { POLICY_FIELDS } from "./payment-policy"
import { apiKeyChangeText } from "./provider-keys"
import type {
  Coin,
  CryptoPaymentEventName,
  CryptoSettingChange,
  CustomerEmailKind,
  EmailStatus,
  HealthCheck,
  HealthLevel,
  LatePayments,
  LedgerFlag,
  OwedRecord,
  PaymentRefund,
  PaymentStatus,
  SettingChangeField,
} from "./payment-types"

export const FLAGS = LEDGER_FLAGS

export const isFlag = (flag: string): flag is LedgerFlag => FLAGS.some((known) => known === flag)

export function flagLabel(t: Translate, flag: string): string {
  return isFlag(flag) ? t(`flags.${flag}`) : flag
}

/** Flags that only inform: shown in grey, never as needing attention. */
export const INFO_FLAGS: ReadonlySet<string> = new Set(["quote_drift", "accepted_short"])

/** The flag filter of the payments list: the two that ask for work first. */
export const FLAG_FILTERS: readonly LedgerFlag[] = [
  "needs_attention",
  "refund_owed",
  ...FLAGS.filter((flag) => flag !== "needs_attention" && flag !== "refund_owed"),
]

/** A flag as the filter names it: `refund_owed` named for what it lists ("Owed to customers"). */
export function flagFilterLabel(t: Translate, flag: LedgerFlag): string {
  return flag === "refund_owed" ? t("flagFilters.refund_owed") : flagLabel(t, flag)
}

export const PAYMENT_STATUSES: readonly PaymentStatus[] = ["PENDING", "COMPLETED", "EXPIRED", "FAILED"]

export const isPaymentStatus = (status: string): status is PaymentStatus =>
  PAYMENT_STATUSES.some((known) => known === status)

export function statusLabel(t: Translate, status: string): string {
  return isPaymentStatus(status) ? t(`status.${status}`) : status
}

/**
 * Tokens on another coin's chain: the customer must send them on that network, so the card names it.
 * The admin keeps its own list: its bundle takes no constants file of the server.
 */
export const TOKEN_COINS = ["USDT_ERC20", "USDT_BEP20"] as const satisfies readonly Coin[]
type TokenCoin = (typeof TOKEN_COINS)[number]

const isTokenCoin = (coin: string | null): coin is TokenCoin => TOKEN_COINS.some((known) => known === coin)

/** The network a token payment is sent on, in the admin's language; null for a coin of its own chain (or none yet). */
export function networkLabel(t: Translate, coin: string | null): string | null {
  return isTokenCoin(coin) ? t(`card.networks.${coin}`) : null
}

export function owedKindLabel(t: Translate, kind: OwedRecord["kind"]): string {
  return ["refund", "excess", "late"].includes(kind) ? t(`owedKinds.${kind}`) : kind
}

/**
 * The crypto_payment.* events (the server's names). The admin keeps its own list: its bundle takes no
 * file of the server's that imports node's modules (the events' file hashes keys).
 */
export const EVENT_NAMES: readonly CryptoPaymentEventName[] = [
  "crypto_payment.created",
  "crypto_payment.detected",
  "crypto_payment.paid",
  "crypto_payment.expired",
  "crypto_payment.underpaid",
  "crypto_payment.overpaid",
  "crypto_payment.paid_late",
  "crypto_payment.refund_owed",
  "crypto_payment.needs_attention",
]

const isEventName = (name: string): name is CryptoPaymentEventName => EVENT_NAMES.some((known) => known === name)

type SuffixOf<Name> = Name extends `crypto_payment.${infer Suffix}` ? Suffix : never

export function eventLabel(t: Translate, name: string): string {
  if (!isEventName(name)) return name
  const suffix = name.slice("crypto_payment.".length) as SuffixOf<CryptoPaymentEventName>
  return t(`activity.events.${suffix}`)
}

export const EMAIL_KINDS: readonly CustomerEmailKind[] = [
  "link",
  "detected",
  "paid",
  "expired",
  "remainder",
  "refund_address",
]

const isEmailKind = (kind: string): kind is CustomerEmailKind => EMAIL_KINDS.some((known) => known === kind)

export function emailKindLabel(t: Translate, kind: string): string {
  return isEmailKind(kind) ? t(`activity.emailKinds.${kind}`) : kind
}

/**
 * Emails sent more than once per payment, by the part of their sent-record's key before the ":":
 * `refund_link:<owed record id>` the link of one owed record, `refund_address:<address change id>` the
 * confirmation of an address given. Any other email's key is its kind.
 */
const REPEATED_EMAILS = ["refund_link", "refund_address"] as const
type RepeatedEmail = (typeof REPEATED_EMAILS)[number]

const isRepeatedEmail = (kind: string): kind is RepeatedEmail => REPEATED_EMAILS.some((known) => known === kind)

/** The owed record a repeated email is about: the one whose link it carried, or the one an address was given for. */
function owedRecordOf(kind: RepeatedEmail, about: string, records: OwedRecord[]): OwedRecord | undefined {
  return kind === "refund_link"
    ? records.find((r) => r.id === about)
    : records.find((r) => r.address_changes.some((change) => change.id === about))
}

/**
 * A customer email by what it is, never by its sent-record's key: "Refund link (Paid late, 0.3 LTC)"
 * (the owed record's kind and coins when the payment has it).
 */
export function emailLabel(
  t: Translate,
  locale: string | undefined,
  key: string,
  refund: Pick<PaymentRefund, "records" | "coin">
): string {
  const at = key.indexOf(":")
  if (at < 0) return emailKindLabel(t, key)
  const kind = key.slice(0, at)
  if (!isRepeatedEmail(kind)) return emailKindLabel(t, kind)
  const email = t(`activity.emailRepeated.${kind}`)
  const record = owedRecordOf(kind, key.slice(at + 1), refund.records)
  if (!record) return email
  return t("activity.emailAbout", {
    email,
    owed: owedKindLabel(t, record.kind),
    amount: owedAmountText(locale, record, refund.coin),
  })
}

/** The states of a customer email in the sent-record (every one: the record's type names them). */
const EMAIL_STATUSES: Record<EmailStatus, true> = { sending: true, sent: true, failed: true, skipped: true }

export const isEmailStatus = (status: string): status is EmailStatus =>
  Object.prototype.hasOwnProperty.call(EMAIL_STATUSES, status)

/**
 * What to send now, in the coin as a wallet sends it (rounded down: `owed_now_sendable`) and (about) in the base
 * currency: "0.001 BTC (≈ 42.00 USD)", "0.00333641 ETH (≈ 10.84 USD)".
 */
export function owedNowText(
  t: Translate,
  locale: string | undefined,
  refund: PaymentRefund,
  fallbackCoin: string | null
): string {
  const coin = refund.coin ?? fallbackCoin ?? ""
  const base = refund.owed_now_base ? `${formatAmount(refund.owed_now_base, locale)} ${refund.base_currency}` : null
  if (refund.owed_now) {
    const now = `${formatAmount(refund.owed_now_sendable ?? refund.owed_now, locale)} ${coin}`.trim()
    return base ? `${now} (≈ ${base})` : now
  }
  return base ? t("owed.aboutInCoin", { amount: base, coin: coin || t("owed.thePaidCoin") }) : t("owed.amountUnknown")
}

/** The overall and per-check levels as badge colours; their words are `health.levels.<level>`. */
export const HEALTH_LEVEL_COLORS: Record<HealthLevel, "green" | "orange" | "red"> = {
  green: "green",
  amber: "orange",
  red: "red",
}

const HEALTH_CHECK_IDS = [
  "api_key",
  "api_key_change",
  "webhook_url",
  "provider_id",
  "migrations",
  "locking",
  "worker_mode",
  "webhooks",
  "clock",
  "provider",
  "exchange_rates",
  "webhook_secret",
] as const
type HealthCheckId = (typeof HEALTH_CHECK_IDS)[number]

const isHealthCheckId = (id: string): id is HealthCheckId => HEALTH_CHECK_IDS.some((known) => known === id)

/**
 * Only the label is translated (a check the server adds later keeps its English one); the detail and the
 * action are the server's findings, shown as sent.
 */
export function healthCheckLabel(t: Translate, check: Pick<HealthCheck, "id" | "label">): string {
  const { id } = check
  return isHealthCheckId(id) ? t(`health.checks.${id}`) : check.label
}

const CHANGE_FIELDS: readonly SettingChangeField[] = [...POLICY_FIELDS, "exchange_rates", "api_key"]

const isChangeField = (field: string): field is SettingChangeField => CHANGE_FIELDS.some((known) => known === field)

export function policyFieldLabel(t: Translate, field: string): string {
  return isChangeField(field) ? t(`policy.fields.${field}`) : field
}

export function latePaymentsLabel(t: Translate, value: LatePayments, windowHours: number): string {
  return value === "fulfil" ? t("policy.latePayments.fulfil", { hours: windowHours }) : t("policy.latePayments.flag")
}

/** A setting's value in a few words ("1.5%", "Flag"); null (or empty) is the medusa-config default. */
export function policyValueText(
  t: Translate,
  locale: string | undefined,
  field: string,
  value: string | number | null
): string {
  if (field === "exchange_rates") return value === null || value === "" ? t("policy.exchangeRates.none") : String(value)
  if (field === "api_key") return apiKeyChangeText(t, value === null ? null : String(value))
  if (value === null || value === "") return t("policy.default")
  if (field === "underpayment_tolerance_percent") return formatPercent(value, locale)
  return value === "flag" || value === "fulfil" ? t(`policy.latePaymentsShort.${value}`) : String(value)
}

export function actorText(change: Pick<CryptoSettingChange, "actor_email" | "actor_id">): string {
  return change.actor_email ?? change.actor_id ?? "—"
}
