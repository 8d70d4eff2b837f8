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
