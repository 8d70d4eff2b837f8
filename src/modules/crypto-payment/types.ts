/** The ledger's flags, as the admin filters them. */
export const LEDGER_FLAGS = [
  "needs_attention",
  "paid_late",
  "underpaid",
  "overpaid",
  "paid_twice",
  "replaced_session",
  "mismatch",
  "refund_owed",
  "quote_drift",
  "accepted_short",
] as const
export type LedgerFlag = (typeof LEDGER_FLAGS)[number]

/** What a ledger row says was agreed with the service when the invoice or payment was created. */
export type AgreedTerms = {
  payment_id: string
  kind: "invoice" | "payment"
  /** Payment: its coin. */
  coin: string | null
  /** Payment: the coin amount asked for. */
  crypto_amount: string | null
  /** Invoice: the amount quoted per coin. */
  quotes: Record<string, unknown> | null
  /** The store amount and currency (see the model). */
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

/** A ledger row as the provider, the workflow and the job read it. */
export type LedgerRow = AgreedTerms & {
  id: string
  session_id: string
  payment_collection_id: string | null
  provider_id: string | null
  invoice_url: string | null
  qr_code: string | null
  address: string | null
  expires_at: Date | string | null
  watch_until: Date | string | null
  status: string
  outcome: string
  received_amount: string | null
  required_amount: string | null
  confirmations: number
  required_confirmations: number | null
  /** The service's last status record and when it was read, `{ record, readAt }` (see the model). */
  last_read: Record<string, unknown> | null
  capture_session_id: string | null
  /** A remainder: the short payment whose rest it asks. */
  remainder_of?: string | null
  refund_owed: boolean
  paid_late: boolean
  paid_twice: boolean
  mismatch: boolean
  order_id: string | null
  applied: string | null
  /** Captured in Medusa, but the cart's completion failed after it: no order holds the money. */
  captured_no_order: boolean
  settled: boolean
  next_check_at: Date | string | null
  check_failures: number
  created_at: Date | string
}
