import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { sdk } from "./sdk"

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
  refund: {
    owed: boolean
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

const KEY = ["crypto-payments"] as const

export function useCryptoPayments(filters: PaymentFilters) {
  return useQuery({
    queryKey: [...KEY, filters],
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
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
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
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
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
  refund_owed: "Refund owed",
}
