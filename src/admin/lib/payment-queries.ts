/**
 * The plugin's admin API as react-query hooks: what each screen reads, what each action posts, and
 * which reads an action refreshes. The shapes are the server's (./payment-types).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import type {
  AcceptHeldRates,
  AcknowledgeBody,
  CryptoBalance,
  CryptoPaymentDetail,
  CryptoPaymentsPage,
  CryptoSetting,
  CryptoSettings,
  CryptoSettingUpdate,
  PaymentFilters,
  RefundBasisBody,
  RefundLink,
  RefundSentBody,
  SaveApiKeyBody,
  SetupHealth,
  StartPayoutBody,
} from "./payment-types"
import { sdk } from "./sdk"

/** Every query of the plugin's payments starts with this key: invalidating it refreshes them all. */
export const CRYPTO_PAYMENTS_KEY = ["crypto-payments"] as const

export const CRYPTO_SETTINGS_KEY = ["crypto-settings"] as const

export const CRYPTO_HEALTH_KEY = ["crypto-health"] as const

/**
 * A page of the payments: newest first, from `filters.cursor` (none: the first page). `paging`: the
 * page shown stays while the next one loads (the list's pages; never an order's payments, which must
 * not show another order's for a moment).
 */
export function useCryptoPayments(filters: PaymentFilters, { paging = false }: { paging?: boolean } = {}) {
  return useQuery({
    queryKey: [...CRYPTO_PAYMENTS_KEY, filters],
    queryFn: () =>
      sdk.client.fetch<CryptoPaymentsPage>("/admin/crypto/payments", {
        query: Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined && v !== "")),
      }),
    placeholderData: paging ? keepPreviousData : undefined,
  })
}

/**
 * One payment as its own read gives it: with its events and customer emails, which the list does not
 * carry. Under the payments' key, so every action that refreshes the payments refreshes it too.
 */
export function useCryptoPaymentDetail(id: string) {
  return useQuery({
    queryKey: [...CRYPTO_PAYMENTS_KEY, "detail", id],
    queryFn: () =>
      sdk.client
        .fetch<{ payment: CryptoPaymentDetail }>(`/admin/crypto/payments/${encodeURIComponent(id)}`)
        .then((answer) => answer.payment),
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

/**
 * A POST without fields still sends `{}`: the plugin's state-changing routes answer 415 to anything but
 * JSON, and the SDK's default JSON content type is then not all that stands behind a bodiless POST.
 */
const NO_FIELDS = {}

export function useRecheckPayment() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (id: string) =>
      sdk.client.fetch<{ payment: CryptoPaymentDetail }>(`/admin/crypto/payments/${id}/reconcile`, {
        method: "POST",
        body: NO_FIELDS,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: CRYPTO_PAYMENTS_KEY }),
  })
}

export function useRequestRemainder() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (id: string) =>
      sdk.client.fetch<{ payment: CryptoPaymentDetail }>(`/admin/crypto/payments/${id}/remainder`, {
        method: "POST",
        body: NO_FIELDS,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: CRYPTO_PAYMENTS_KEY }),
  })
}

/**
 * Marks the records the admin saw in "owed now" as sent. The payments are read again whatever the answer:
 * after a 409 (a record closed or changed meanwhile) the admin looks at what is owed now again.
 */
export function useMarkRefundSent() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string } & RefundSentBody) =>
      sdk.client.fetch<{ payment: CryptoPaymentDetail }>(`/admin/crypto/payments/${id}/refund-sent`, {
        method: "POST",
        body,
      }),
    onSettled: () => client.invalidateQueries({ queryKey: CRYPTO_PAYMENTS_KEY }),
  })
}

export type OwedRef = { paymentId: string; owedId: string }

const owedPath = ({ paymentId, owedId }: OwedRef, action: "link" | "payout" | "basis") =>
  `/admin/crypto/payments/${encodeURIComponent(paymentId)}/owed/${encodeURIComponent(owedId)}/${action}`

/** Reads the customer's refund-address link of an owed record, on demand ("Copy link"): it changes nothing. */
export function useRefundLink() {
  return useMutation({
    mutationFn: (owed: OwedRef) =>
      sdk.client.fetch<{ link: RefundLink }>(owedPath(owed, "link")).then((answer) => answer.link),
  })
}

/** Renews the link: it works for 30 days from now (the same URL); the record's expiry is read again. */
export function useRenewRefundLink() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (owed: OwedRef) =>
      sdk.client
        .fetch<{ link: RefundLink }>(owedPath(owed, "link"), { method: "POST", body: NO_FIELDS })
        .then((answer) => answer.link),
    onSuccess: () => client.invalidateQueries({ queryKey: CRYPTO_PAYMENTS_KEY }),
  })
}

/** Read again whatever the answer: after a 409 (the customer changed the address) the admin sees the new one. */
export function useStartPayout() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ body, ...owed }: OwedRef & { body: StartPayoutBody }) =>
      sdk.client.fetch<{ payment: CryptoPaymentDetail }>(owedPath(owed, "payout"), { method: "POST", body }),
    onSettled: () => client.invalidateQueries({ queryKey: CRYPTO_PAYMENTS_KEY }),
  })
}

export function useChooseRefundBasis() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ body, ...owed }: OwedRef & { body: RefundBasisBody }) =>
      sdk.client.fetch<{ payment: CryptoPaymentDetail }>(owedPath(owed, "basis"), { method: "POST", body }),
    onSuccess: () => client.invalidateQueries({ queryKey: CRYPTO_PAYMENTS_KEY }),
  })
}

export function useCryptoSettings() {
  return useQuery({
    queryKey: CRYPTO_SETTINGS_KEY,
    queryFn: () => sdk.client.fetch<CryptoSettings>("/admin/crypto/settings"),
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

/**
 * The key rides in the body only, and the mutation leaves react-query's cache as soon as it settles
 * (gcTime 0), so the key is not kept there; the caller resets its own copy.
 */
export function useSaveApiKey() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: SaveApiKeyBody) =>
      sdk.client.fetch<{ setting: CryptoSetting }>("/admin/crypto/settings/api-key", { method: "POST", body }),
    gcTime: 0,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: CRYPTO_SETTINGS_KEY }),
        client.invalidateQueries({ queryKey: CRYPTO_HEALTH_KEY }),
      ]),
  })
}

/** Acknowledges what a setup health line reports (the state it showed); the health and the settings are read again. */
export function useAcknowledgeHealthCheck() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: AcknowledgeBody) =>
      sdk.client.fetch<{ acknowledgement: unknown }>("/admin/crypto/health/acknowledge", { method: "POST", body }),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: CRYPTO_HEALTH_KEY }),
        client.invalidateQueries({ queryKey: CRYPTO_SETTINGS_KEY }),
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
