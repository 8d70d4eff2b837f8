import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { formatAmount, formatPercent } from "./format"
import type { Translate } from "./i18n"
import { sdk } from "./sdk"
import { LEDGER_FLAGS, type LedgerFlag } from "../../modules/crypto-payment/types"
import type { HealthCheck, HealthLevel } from "../../lib/setup-health/checks"
import type { RatesState } from "../../lib/domain/exchange-rates/rates-state"

/** Informational: the invoice was re-priced by the service; `percent` is signed decimal text ("-3.20"). */
export type QuoteDrift = { coin: string; quoted: string; required: string; percent: string }

/** Where a provider's exchange rates come from: the ECB's reference rates, fixed rates of its options, or off (refused). */
export type RateSource = RatesState["source"]

/** USD per one unit of each currency, as exact decimal text (up to 18 significant digits): { EUR: "1.0842" }. */
export type UsdRates = NonNullable<RatesState["rates"]>

/**
 * How a store amount in a currency the service does not take was priced in USD: the USD asked, the rate
 * (USD per one unit of the store currency), its source, url and publication date, the markup in percent.
 */
export type PaymentExchange = {
  usd_amount: string
  rate: string
  source: Exclude<RateSource, "off">
  url: string | null
  /** YYYY-MM-DD, for ECB rates. */
  published_on: string | null
  /** Decimal text: "0", "1.5". */
  markup_percent: string | null
}

/** One amount owed to the customer, open until marked sent. */
export type OwedRecord = {
  id: string
  /** A Medusa refund; money beyond what the order took; money paid after the order was canceled or expired. */
  kind: "refund" | "excess" | "late"
  coin_amount: string | null
  base_amount: string
  /** Medusa's refund id, for kind `refund`. */
  refund_id: string | null
  /** Medusa's refund reason label and note, for kind `refund`. */
  reason: string | null
  note: string | null
  created_at: string
  sent_at: string | null
  reference: string | null
}

/** GET /admin/crypto/payments/:id, as the plugin's admin API answers it. */
export type CryptoPayment = {
  id: string
  kind: "invoice" | "payment"
  status: PaymentStatus
  outcome: string
  coin: string | null
  address: string | null
  qr_code: string | null
  invoice_url: string | null
  amount_required: string | null
  amount_received: string
  confirmations: number
  required_confirmations: number | null
  /** The store amount and currency ("25.00" EUR, "5000" JPY). */
  base_amount: string
  base_currency: string
  /** How the store amount was priced in USD; null when the service took the store currency itself (USD, USDT). */
  exchange: PaymentExchange | null
  expires_at: string | null
  flags: string[]
  attention: string | null
  applied: string | null
  settled: boolean
  order_id: string | null
  /** The Medusa payment collection the payment was made for (the checkout's, or one created on the order later). */
  payment_collection_id: string | null
  /** The service re-priced the invoice: it asked `required` coins where the creation quote said `quoted`. */
  quote_drift: QuoteDrift | null
  refund: {
    /** Money is owed to the customer now (open records exist). */
    owed: boolean
    /** The coins to send now, in `coin` (null when unknown). */
    owed_now: string | null
    /** The same in `base_currency`. */
    owed_now_base: string | null
    coin: string | null
    base_currency: string
    records: OwedRecord[]
    /** Older fields, kept by the API: `amount` is `owed_now`. */
    amount: string | null
    base_amount: string | null
    sent_at: string | null
    reference: string | null
  }
  timeline: Array<{
    at: string
    source: string
    status: string
    outcome: string
    confirmations: number
    received: string
    applied?: string
    note?: string
  }>
  last_checked_at: string | null
  created_at: string
}

type Limit = { limit: number; used: number; remaining: number; reset_at: string | null }
export type CryptoBalance = {
  currency: string
  available: number
  pending: number
  total_earned: number
  total_withdrawn: number
  limits: { daily: Limit; monthly: Limit }
}

export type PaymentFilters = { order_id?: string; status?: string; flag?: string; limit?: number; offset?: number }

/** Every query of the plugin's payments starts with this key: invalidating it refreshes them all. */
export const CRYPTO_PAYMENTS_KEY = ["crypto-payments"] as const

export function useCryptoPayments(filters: PaymentFilters) {
  return useQuery({
    queryKey: [...CRYPTO_PAYMENTS_KEY, filters],
    queryFn: () =>
      sdk.client.fetch<{ payments: CryptoPayment[]; count: number; limit: number; offset: number }>(
        "/admin/crypto/payments",
        {
          query: Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined && v !== "")),
        }
      ),
  })
}

export function useCryptoBalances() {
  return useQuery({
    queryKey: ["crypto-balances"],
    queryFn: async () => {
      const all = await sdk.client.fetch<{ balances: CryptoBalance[] }>("/admin/crypto/balances")
      // reset times are only on the single-coin endpoint
      return Promise.all(
        all.balances.map((b) =>
          sdk.client.fetch<{ balance: CryptoBalance }>(`/admin/crypto/balances/${b.currency}`).then((r) => r.balance)
        )
      )
    },
  })
}

export function useRecheckPayment() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (id: string) =>
      sdk.client.fetch<{ payment: CryptoPayment }>(`/admin/crypto/payments/${id}/reconcile`, { method: "POST" }),
    onSuccess: () => client.invalidateQueries({ queryKey: CRYPTO_PAYMENTS_KEY }),
  })
}

/** Asks the service for a payment of what an expired, short payment misses (POST …/remainder). */
export function useRequestRemainder() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (id: string) =>
      sdk.client.fetch<{ payment: CryptoPayment }>(`/admin/crypto/payments/${id}/remainder`, { method: "POST" }),
    onSuccess: () => client.invalidateQueries({ queryKey: CRYPTO_PAYMENTS_KEY }),
  })
}

export function useMarkRefundSent() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, reference }: { id: string; reference?: string }) =>
      sdk.client.fetch<{ payment: CryptoPayment }>(`/admin/crypto/payments/${id}/refund-sent`, {
        method: "POST",
        body: reference ? { reference } : {},
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: CRYPTO_PAYMENTS_KEY }),
  })
}

/** The ledger's flags (the server's codes, one list for both sides); their names are `flags.<flag>` in the plugin's texts. */
export const FLAGS = LEDGER_FLAGS
export type Flag = LedgerFlag
const isFlag = (flag: string): flag is Flag => (FLAGS as readonly string[]).includes(flag)

/** A flag's name in the admin's language; a flag this admin does not know shows as its code. */
export function flagLabel(t: Translate, flag: string): string {
  return isFlag(flag) ? t(`flags.${flag}`) : flag
}

/** Flags that only inform: shown in grey, never as needing attention. */
export const INFO_FLAGS: ReadonlySet<string> = new Set(["quote_drift", "accepted_short"])

/** The flag filter of the payments list: the two that ask for work first. */
export const FLAG_FILTERS: readonly Flag[] = [
  "needs_attention",
  "refund_owed",
  ...FLAGS.filter((flag) => flag !== "needs_attention" && flag !== "refund_owed"),
]

/** A flag as the filter names it: `refund_owed` named for what it lists ("Owed to customers"). */
export function flagFilterLabel(t: Translate, flag: Flag): string {
  return flag === "refund_owed" ? t("flagFilters.refund_owed") : flagLabel(t, flag)
}

/** The payment statuses of the service, as the list filters them. */
export const PAYMENT_STATUSES = ["PENDING", "COMPLETED", "EXPIRED", "FAILED"] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]

/** A status in the admin's language; an unknown one (a timeline's, say) as the service wrote it. */
export function statusLabel(t: Translate, status: string): string {
  return (PAYMENT_STATUSES as readonly string[]).includes(status) ? t(`status.${status as PaymentStatus}`) : status
}

/** The name of a kind of owed money. */
export function owedKindLabel(t: Translate, kind: OwedRecord["kind"]): string {
  return ["refund", "excess", "late"].includes(kind) ? t(`owedKinds.${kind}`) : kind
}

/** What to send now, in the coin and (about) in the base currency: "0.001 BTC (≈ 42.00 USD)". */
export function owedNowText(
  t: Translate,
  locale: string | undefined,
  refund: CryptoPayment["refund"],
  fallbackCoin: string | null
): string {
  const coin = refund.coin ?? fallbackCoin ?? ""
  const base = refund.owed_now_base ? `${formatAmount(refund.owed_now_base, locale)} ${refund.base_currency}` : null
  if (refund.owed_now) {
    const now = `${formatAmount(refund.owed_now, locale)} ${coin}`.trim()
    return base ? `${now} (≈ ${base})` : now
  }
  return base ? t("owed.aboutInCoin", { amount: base, coin: coin || t("owed.thePaidCoin") }) : t("owed.amountUnknown")
}

/** What happens to money that arrives after an invoice expired (the provider's `latePayments`). */
export type LatePayments = "flag" | "fulfil"

/** The two settings an admin may change, as the backend judges payments with them. */
export type PaymentPolicy = { underpayment_tolerance_percent: number; late_payments: LatePayments }
export type PaymentPolicyField = keyof PaymentPolicy

/** GET /admin/crypto/settings, one per crypto provider: the effective policy, its defaults and what was saved. */
export type CryptoSetting = PaymentPolicy & {
  provider_id: string
  /** Read-only: medusa-config's `lateWindowHours`. */
  late_window_hours: number
  /** The provider options in medusa-config. */
  defaults: PaymentPolicy
  /** What an admin saved; a null field uses the default. */
  saved: { [F in PaymentPolicyField]: PaymentPolicy[F] | null } | null
  updated_at: string | null
  /** A user id. */
  updated_by: string | null
  exchange_rates: ExchangeRates
}

/** A currency of a held publication whose USD value moved more than the jump limit, by `percent` ("23.4"). */
export type HeldRateMove = NonNullable<RatesState["held"]>["moved"][number]

/**
 * A provider's exchange rates, as the policy panel shows them. Fields that do not apply are null: "fixed"
 * has only its source, markup, rates and `fresh`; "off" only its source.
 */
export type ExchangeRates = {
  source: RateSource
  /** The ECB rates file fetched. */
  url: string | null
  max_age_hours: number | null
  markup_percent: string | null
  refresh_minutes: number | null
  /** The stored publication's date, YYYY-MM-DD. */
  published_on: string | null
  fetched_at: string | null
  /** Hours since the stored publication was published (one decimal). */
  age_hours: number | null
  /** The stored publication is at most max_age_hours old: checkouts may use it. */
  fresh: boolean | null
  /** A working day's publication is missing (the source did not publish, or fetches fail). */
  misses_working_day: boolean | null
  next_refresh_at: string | null
  last_error: string | null
  /** A newer publication held back because some currencies jumped; an admin may accept it. */
  held: { published_on: string; fetched_at: string; moved: HeldRateMove[] } | null
  rates: UsdRates
}

/** What the change log records: the policy's fields, and held exchange rates an admin accepted. */
export type SettingChangeField = PaymentPolicyField | "exchange_rates"

/**
 * One saved change of a setting; `from` and `to` are text, null when the default applied. For
 * `exchange_rates`, the publication dates (YYYY-MM-DD) replaced and accepted; null when none was stored.
 */
export type CryptoSettingChange = {
  id: string
  provider_id: string
  field: SettingChangeField
  from: string | null
  to: string | null
  actor_id: string | null
  actor_email: string | null
  created_at: string
}

/** POST /admin/crypto/settings: only the fields to change; null puts a field back to its medusa-config default. */
export type CryptoSettingUpdate = { provider_id?: string } & { [F in PaymentPolicyField]?: PaymentPolicy[F] | null }

/** POST /admin/crypto/settings taking the publication held for a jump (400 when none is held). */
export type AcceptHeldRates = { provider_id?: string; accept_held_rates: true }

/** GET /admin/crypto/health: the server's own line type. */
export type { HealthCheck, HealthLevel }
export type SetupHealth = { level: HealthLevel; checked_at: string; checks: HealthCheck[] }

export const CRYPTO_SETTINGS_KEY = ["crypto-settings"] as const

export function useCryptoSettings() {
  return useQuery({
    queryKey: CRYPTO_SETTINGS_KEY,
    queryFn: () =>
      sdk.client.fetch<{ settings: CryptoSetting[]; changes: CryptoSettingChange[] }>("/admin/crypto/settings"),
  })
}

export function useSaveCryptoSetting() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: CryptoSettingUpdate) =>
      sdk.client.fetch<{ setting: CryptoSetting }>("/admin/crypto/settings", { method: "POST", body }),
    // the change log comes with the settings: read both again
    onSuccess: () => client.invalidateQueries({ queryKey: CRYPTO_SETTINGS_KEY }),
  })
}

export const CRYPTO_HEALTH_KEY = ["crypto-health"] as const

/** Takes a provider's held exchange-rate publication; the settings (and their change log) and the health are read again. */
export function useAcceptHeldRates() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (providerId: string) =>
      sdk.client.fetch<{ setting: CryptoSetting }>("/admin/crypto/settings", {
        method: "POST",
        body: { provider_id: providerId, accept_held_rates: true } satisfies AcceptHeldRates,
      }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: CRYPTO_SETTINGS_KEY }),
        client.invalidateQueries({ queryKey: CRYPTO_HEALTH_KEY }),
      ]),
  })
}

export function useSetupHealth() {
  return useQuery({
    queryKey: CRYPTO_HEALTH_KEY,
    queryFn: () => sdk.client.fetch<SetupHealth>("/admin/crypto/health"),
    // some checks ask the payment service: run them on load and when the admin asks, not on every focus
    refetchOnWindowFocus: false,
  })
}

/** The overall and per-check levels as badge colours; their words are `health.levels.<level>`. */
export const HEALTH_LEVEL_COLORS: Record<HealthLevel, "green" | "orange" | "red"> = {
  green: "green",
  amber: "orange",
  red: "red",
}

/** The checks of the setup health (the server's ids). */
const HEALTH_CHECK_IDS = [
  "api_key",
  "webhook_url",
  "provider_id",
  "migrations",
  "locking",
  "worker_mode",
  "webhooks",
  "clock",
  "provider",
  "exchange_rates",
] as const
type HealthCheckId = (typeof HEALTH_CHECK_IDS)[number]

/**
 * What a check looked at, in the admin's language, by its id. The server words its label, detail and
 * action in English: only the label is translated here (a check it adds later keeps its English label);
 * the detail and the action are shown as sent, being the server's findings.
 */
export function healthCheckLabel(t: Translate, check: Pick<HealthCheck, "id" | "label">): string {
  return (HEALTH_CHECK_IDS as readonly string[]).includes(check.id)
    ? t(`health.checks.${check.id as HealthCheckId}`)
    : check.label
}

/** The settings an admin may change, in the order the form shows them. */
export const POLICY_FIELDS: readonly PaymentPolicyField[] = ["underpayment_tolerance_percent", "late_payments"]

/** The fields the change log names: the policy's, and accepted exchange rates. */
const CHANGE_FIELDS: readonly SettingChangeField[] = [...POLICY_FIELDS, "exchange_rates"]

/** A setting's name; a field this admin does not know shows as its code. */
export function policyFieldLabel(t: Translate, field: SettingChangeField): string {
  return CHANGE_FIELDS.includes(field) ? t(`policy.fields.${field}`) : field
}

export const TOLERANCE_MAX_PERCENT = 5

/** The late-payment choices in full, as the select offers them. */
export function latePaymentsLabel(t: Translate, value: LatePayments, windowHours: number): string {
  return value === "fulfil" ? t("policy.latePayments.fulfil", { hours: windowHours }) : t("policy.latePayments.flag")
}

/**
 * A setting's value in a few words: "1.5%", "Flag"; null (or empty) is the medusa-config default. For
 * exchange rates, the publication's date as sent (YYYY-MM-DD), "none" before the first one.
 */
export function policyValueText(
  t: Translate,
  locale: string | undefined,
  field: SettingChangeField,
  value: string | number | null
): string {
  if (field === "exchange_rates") return value === null || value === "" ? t("policy.exchangeRates.none") : String(value)
  if (value === null || value === "") return t("policy.default")
  if (field === "underpayment_tolerance_percent") return formatPercent(value, locale)
  return value === "flag" || value === "fulfil" ? t(`policy.latePaymentsShort.${value}`) : String(value)
}

/** Who made a change: the admin's email, else the user id. */
export function actorText(change: Pick<CryptoSettingChange, "actor_email" | "actor_id">): string {
  return change.actor_email ?? change.actor_id ?? "—"
}

/** The tolerance input's text as a percent from 0 to 5 with at most 2 decimals; null when it is not one. */
export function parseTolerancePercent(text: string): number | null {
  const trimmed = text.trim()
  if (!/^\d+(\.\d{1,2})?$/.test(trimmed)) return null
  const value = Number(trimmed)
  return value <= TOLERANCE_MAX_PERCENT ? value : null
}

/** What the admin typed or picked and has not saved: the tolerance as typed, the late payments as picked. */
export type PolicyEdits = { underpayment_tolerance_percent?: string; late_payments?: LatePayments }

/**
 * The body that saves the admin's edits: only the fields that differ from the effective policy; null when
 * nothing differs or the tolerance is not a valid percent (there is nothing to save then).
 */
export function policyUpdate(setting: CryptoSetting, edits: PolicyEdits): CryptoSettingUpdate | null {
  const update: CryptoSettingUpdate = {}
  if (edits.underpayment_tolerance_percent !== undefined) {
    const tolerance = parseTolerancePercent(edits.underpayment_tolerance_percent)
    if (tolerance === null) return null
    if (tolerance !== setting.underpayment_tolerance_percent) update.underpayment_tolerance_percent = tolerance
  }
  if (edits.late_payments !== undefined && edits.late_payments !== setting.late_payments) {
    update.late_payments = edits.late_payments
  }
  return Object.keys(update).length ? { provider_id: setting.provider_id, ...update } : null
}

/** Whether a saved value, not the medusa-config default, decides a field. */
export function overridesDefault(setting: CryptoSetting, field: PaymentPolicyField): boolean {
  return setting.saved?.[field] != null
}
