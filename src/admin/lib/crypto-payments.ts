import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { sdk } from "./sdk"

/** Informational: the invoice was re-priced by the service; `percent` is signed decimal text ("-3.20"). */
export type QuoteDrift = { coin: string; quoted: string; required: string; percent: string }

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
  status: "PENDING" | "COMPLETED" | "EXPIRED" | "FAILED"
  outcome: string
  coin: string | null
  address: string | null
  qr_code: string | null
  invoice_url: string | null
  amount_required: string | null
  amount_received: string
  confirmations: number
  required_confirmations: number | null
  base_amount: string
  base_currency: string
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

/** Human names of the ledger's flags. */
export const FLAG_LABELS: Record<string, string> = {
  needs_attention: "Needs attention",
  paid_late: "Paid late",
  underpaid: "Underpaid",
  overpaid: "Overpaid",
  paid_twice: "Paid twice",
  replaced_session: "Replaced payment",
  mismatch: "Not matching",
  refund_owed: "Owed to customer",
  quote_drift: "Re-priced",
  accepted_short: "Accepted short",
}

/** Flags that only inform: shown in grey, never as needing attention. */
export const INFO_FLAGS: ReadonlySet<string> = new Set(["quote_drift", "accepted_short"])

/** The flag filter of the payments list: the two that ask for work first, `refund_owed` named for what it lists. */
export const FLAG_FILTERS: Record<string, string> = {
  needs_attention: FLAG_LABELS.needs_attention,
  refund_owed: "Owed to customers",
  ...Object.fromEntries(
    Object.entries(FLAG_LABELS).filter(([flag]) => flag !== "needs_attention" && flag !== "refund_owed")
  ),
}

/** Human names of the kinds of owed money. */
export const OWED_KIND_LABELS: Record<OwedRecord["kind"], string> = {
  refund: "Refund",
  excess: "Overpaid (excess)",
  late: "Paid late",
}

/** "5.00" → "+5.00 %", "-3.20" → "-3.20 %": the drift's sign always shown. */
export function signedPercent(percent: string): string {
  const text = percent.trim()
  return `${text.startsWith("-") || text.startsWith("+") ? text : `+${text}`} %`
}

/** What to send now, in the coin and (about) in the base currency: "0.001 BTC (≈ 42.00 USD)". */
export function owedNowText(refund: CryptoPayment["refund"], fallbackCoin: string | null): string {
  const coin = refund.coin ?? fallbackCoin ?? ""
  const base = refund.owed_now_base ? ` (≈ ${refund.owed_now_base} ${refund.base_currency})` : ""
  if (refund.owed_now) return `${refund.owed_now} ${coin}`.trim() + base
  return refund.owed_now_base
    ? `≈ ${refund.owed_now_base} ${refund.base_currency} in ${coin || "the paid coin"}`
    : "amount unknown"
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
}

/** One saved change of a setting; `from` and `to` are text, null when the default applied. */
export type CryptoSettingChange = {
  id: string
  provider_id: string
  field: PaymentPolicyField
  from: string | null
  to: string | null
  actor_id: string | null
  actor_email: string | null
  created_at: string
}

/** POST /admin/crypto/settings: only the fields to change; null puts a field back to its medusa-config default. */
export type CryptoSettingUpdate = { provider_id?: string } & { [F in PaymentPolicyField]?: PaymentPolicy[F] | null }

export type HealthLevel = "green" | "amber" | "red"
export type HealthCheck = {
  id: string
  provider_id?: string
  label: string
  level: HealthLevel
  detail: string
  /** What to do, present when not green. */
  action?: string
}
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

export function useSetupHealth() {
  return useQuery({
    queryKey: ["crypto-health"],
    queryFn: () => sdk.client.fetch<SetupHealth>("/admin/crypto/health"),
    // some checks ask the payment service: run them on load and when the admin asks, not on every focus
    refetchOnWindowFocus: false,
  })
}

/** The overall and per-check levels, as words and badge colours. */
export const HEALTH_LEVELS: Record<HealthLevel, { label: string; color: "green" | "orange" | "red" }> = {
  green: { label: "Healthy", color: "green" },
  amber: { label: "Check", color: "orange" },
  red: { label: "Action needed", color: "red" },
}

export const POLICY_FIELD_LABELS: Record<PaymentPolicyField, string> = {
  underpayment_tolerance_percent: "Underpayment tolerance",
  late_payments: "Late payments",
}

export const TOLERANCE_MAX_PERCENT = 5

/** The late-payment choices in full, as the select offers them. */
export function latePaymentsLabel(value: LatePayments, windowHours: number): string {
  return value === "fulfil"
    ? `Keep the order awaiting payment for ${windowHours} h after expiry, then cancel (stock stays reserved)`
    : "Flag late payments, cancel the order at expiry"
}

const LATE_PAYMENTS_SHORT: Record<LatePayments, string> = { flag: "Flag", fulfil: "Keep awaiting payment" }

/** A setting's value in a few words: "1.5 %", "Flag"; null (or empty) is the medusa-config default. */
export function policyValueText(field: PaymentPolicyField, value: string | number | null): string {
  if (value === null || value === "") return "default"
  if (field === "underpayment_tolerance_percent") return `${value} %`
  return LATE_PAYMENTS_SHORT[value as LatePayments] ?? String(value)
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
