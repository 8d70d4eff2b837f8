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
}

/** Flags that only inform: shown in grey, never as needing attention. */
export const INFO_FLAGS: ReadonlySet<string> = new Set(["quote_drift"])

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
