import type { AgreedTerms } from "../../lib/domain/agreed-terms"

export type { AgreedTerms }

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
