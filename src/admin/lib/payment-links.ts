import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import type { OrderCollection } from "./amounts-due"
import { CRYPTO_PAYMENTS_KEY } from "./payment-queries"
import { sdk } from "./sdk"

/** The coins a payment link can ask for; none = an invoice where the customer picks. */
export const LINK_COINS = [
  { value: "BTC", label: "BTC" },
  { value: "ETH", label: "ETH" },
  { value: "LTC", label: "LTC" },
  { value: "USDT_ERC20", label: "USDT (ERC-20)" },
  { value: "USDT_BEP20", label: "USDT (BEP-20)" },
] as const
export type LinkCoin = (typeof LINK_COINS)[number]["value"]

/** The order's payment collections; refreshed with every crypto payments query (same key prefix). */
export function useOrderCollections(orderId: string) {
  return useQuery({
    queryKey: [...CRYPTO_PAYMENTS_KEY, "order-collections", orderId],
    queryFn: async () => {
      const { order } = await sdk.admin.order.retrieve(orderId, {
        fields: "id,currency_code,*payment_collections",
      })
      return {
        currency_code: order.currency_code,
        collections: (order.payment_collections ?? []) as OrderCollection[],
      }
    },
  })
}

/** Provider ids are `pp_{identifier}_{id}`: this plugin's identifier is `crypto`. */
const PROVIDER_PREFIX = "pp_crypto_"
const DEFAULT_PROVIDER = "pp_crypto_crypto"

/** The shop's enabled crypto provider id (the documented `pp_crypto_crypto` first), or null when none is. */
export function useCryptoProviderId() {
  return useQuery({
    queryKey: ["crypto-payment-provider"],
    queryFn: async () => {
      const { payment_providers } = await sdk.client.fetch<{ payment_providers: Array<{ id: string }> }>(
        "/admin/payments/payment-providers",
        { query: { is_enabled: true, limit: 100 } }
      )
      const ids = payment_providers.map((p) => p.id).filter((id) => id.startsWith(PROVIDER_PREFIX))
      return ids.includes(DEFAULT_PROVIDER) ? DEFAULT_PROVIDER : (ids.sort()[0] ?? null)
    },
    staleTime: 5 * 60_000,
  })
}

/** A crypto payment session on an order's collection, through Medusa's own admin route. */
export function useCreatePaymentLink() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ collectionId, providerId, coin }: { collectionId: string; providerId: string; coin?: LinkCoin }) =>
      sdk.client.fetch<{ payment_collection: { id: string } }>(
        `/admin/payment-collections/${collectionId}/payment-sessions`,
        { method: "POST", body: { provider_id: providerId, data: coin ? { currency: coin } : {} } }
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: CRYPTO_PAYMENTS_KEY }),
  })
}
