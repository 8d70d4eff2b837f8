import type { PaymentAssessment } from "./payment-assessment"
import { FAILURES_BEFORE_ATTENTION } from "./read-schedule"

/**
 * The shop's verdict on a payment, for the customer: "paid" only once the shop accepted it (its
 * order is paid), whatever the service's status says.
 */
export const VERDICTS = ["awaiting", "confirming", "paid", "short", "expired", "failed", "needs_attention"] as const
export type Verdict = (typeof VERDICTS)[number]

type VerdictRow = {
  applied: string | null
  settled: boolean
  paid_late: boolean
  paid_twice: boolean
  mismatch: boolean
  check_failures: number
  captured_no_order: boolean
}

/**
 * A COMPLETED the shop has not applied yet is still "confirming". `final` only once no capture can still
 * happen: an EXPIRED payment the shop would still take is not.
 */
export function verdictOf(row: VerdictRow, a: PaymentAssessment): { verdict: Verdict; final: boolean } {
  if (row.captured_no_order) return { verdict: "needs_attention", final: row.settled }
  if (row.applied === "capture") return { verdict: "paid", final: true }
  if (row.paid_late || row.paid_twice || row.mismatch || row.check_failures >= FAILURES_BEFORE_ATTENTION)
    return { verdict: "needs_attention", final: row.settled }
  switch (a.status) {
    case "EXPIRED":
    case "FAILED": {
      // decided (canceled at the window's end, or nothing can arrive): whatever an older read said
      if (row.settled) return { verdict: a.status === "EXPIRED" ? "expired" : "failed", final: true }
      // taken as paid, or still confirming what the shop would take: the capture may come yet
      if (a.outcome === "paid" || a.outcome === "pending") return { verdict: "confirming", final: false }
      return { verdict: a.status === "EXPIRED" ? "expired" : "failed", final: !a.acceptsLate }
    }
    case "COMPLETED":
      return { verdict: "confirming", final: false }
    case "PENDING":
      if (a.underpaid) return { verdict: "short", final: false }
      return { verdict: a.coin && !/^0*(\.0*)?$/.test(a.received) ? "confirming" : "awaiting", final: false }
  }
}
