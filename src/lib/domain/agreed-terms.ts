/** What a ledger row says was agreed with the service when the invoice or payment was created. */
export type AgreedTerms = {
  payment_id: string
  kind: "invoice" | "payment"
  coin: string | null
  /** Payment: the coin amount asked for. */
  crypto_amount: string | null
  /** Invoice: the amount quoted per coin. */
  quotes: Record<string, unknown> | null
  base_amount: string
  base_currency: string
  /** A converted store currency: the USD amount asked, the rate and where it came from (null otherwise). */
  usd_amount?: string | null
  exchange_rate?: string | null
  rate_source?: string | null
  rate_url?: string | null
  rate_published_on?: string | null
  rate_markup_percent?: string | null
}
