import type { PaymentAssessment } from "./payment-assessment"
import type { PaymentDecision } from "./decision-terms"

/** One read of a payment and the ledger row it is recorded on: what the record and what it owes are worked out from. */

/** The flags a read raises on its row (never lowers: a flag once true stays for the admin). */
export const RECORD_FLAGS = [
  "underpaid",
  "overpaid",
  "paid_late",
  "paid_twice",
  "replaced_session",
  "mismatch",
  "quote_drift",
  "accepted_short",
] as const
export type RecordFlag = (typeof RECORD_FLAGS)[number]

export type RecordedRow = Record<RecordFlag, boolean> & {
  payment_id: string
  session_id: string
  remainder_of?: string | null
  status: string
  coin: string | null
  address: string | null
  /** What the last recorded read found arrived (a remainder: its own coins). */
  received_amount?: string | null
  required_amount: string | null
  required_confirmations: number | null
  captured_no_order: boolean
  needs_attention: boolean
  attention: string | null
  /** Flags (and "note") already logged at warn, with when: each is logged once. */
  warned: Record<string, unknown> | null
  order_id: string | null
  applied: string | null
  settled: boolean
  watch_until: Date | string | null
  expires_at: Date | string | null
  created_at: Date | string
  timeline: Record<string, unknown> | null
}

/** One read of a payment, as the reconcile workflow hands it to the record step. */
export type ReadToRecord = {
  /** Who read: webhook, reconcile (the job), admin. */
  source: string
  assessment: PaymentAssessment
  decision: PaymentDecision
  policy: { reconcileIntervalSeconds: number }
  /** The order the payment belongs to (known before, or made by the capture). */
  order_id?: string
  /** The capture was applied but the cart's completion made no order (Medusa swallowed its failure). */
  no_order?: boolean
  /** A notification was answered with a kept read: read again no later than this (ISO time). */
  read_again_by?: string
}

/** The read, the row it is recorded on and the row whose terms price what it owes, at one instant. */
export type PaymentRead = {
  read: ReadToRecord
  row: RecordedRow
  /**
   * The checkout's first payment (the row itself when it is the first): it prices what any payment of
   * the checkout owes, and what the checkout owes as one is owed on it.
   */
  terms: { payment_id: string; base_amount: string; base_currency: string; required_amount?: string | null }
  now: Date
}

/** What a remainder's row keeps of a read: its own amounts (the decision assessed the pair). */
export const receivedOf = (a: PaymentAssessment) => a.own?.received ?? a.received
