import { isCoin } from "../crypto-api/constants"
import { coinUnits } from "./money"
import { driftPercentText } from "./payment-assessment"
import type { PaymentDecision } from "./decision-terms"
import { nextReadDelaySeconds, settledReadDelaySeconds } from "./read-schedule"
import { PaymentRead, RECORD_FLAGS, RecordedRow, RecordFlag, receivedOf } from "./payment-read"
import { OwedRecordWritten, owedNoteOf } from "./owed-to-record"

/**
 * What the ledger records of one read, after its effect happened in Medusa (what is owed:
 * owed-to-record.ts). Pure: the record step does the reading and writing.
 */

export type TimelineEntry = {
  at: string
  source: string
  status: string
  outcome: string
  confirmations: number
  received: string
  required?: string
  applied?: string
  note?: string
  /** Coins beyond the amount below the chain's unit, kept by the shop as rounding (PaymentDecision.rounding). */
  rounding?: string
}

/** A status read never moves the record backwards: a delayed PENDING does not overwrite COMPLETED. */
const STATUS_RANK: Record<string, number> = { PENDING: 0, EXPIRED: 1, FAILED: 1, COMPLETED: 2 }

type StatusFields = {
  status: string
  outcome: string
  coin: string | null
  address: string | null
  received_amount: string
  required_amount: string | null
  confirmations: number
  required_confirmations: number | null
}

export type RecordFields = Partial<StatusFields> &
  Record<RecordFlag, boolean> & {
    attention: string | null
    needs_attention: boolean
    warned: Record<string, unknown>
    order_id: string | null
    applied: string | null
    settled: boolean
    /** Raised by a read that found the capture with no order, lowered by one whose order met its claim. */
    captured_no_order?: boolean
    settled_at?: Date
    settled_by?: string
    last_webhook_at?: Date
    last_checked_at: Date
    next_check_at: Date | null
    drift?: { coin: string; quoted: string; required: string; percent: string }
    check_failures: number
    timeline: { entries: TimelineEntry[] }
  }

export type PaymentRecord = {
  fields: RecordFields
  /** Lines for the shop's log at warn: each flag and note once, and what is owed. */
  warnings: string[]
}

/** The row's flags, raised by the decision's and never lowered. */
function flagsOf(row: RecordedRow, decision: PaymentDecision): Record<RecordFlag, boolean> {
  const raised = (flag: RecordFlag) => row[flag] || !!decision.flags[flag]
  return Object.fromEntries(RECORD_FLAGS.map((flag) => [flag, raised(flag)])) as Record<RecordFlag, boolean>
}

const NO_ORDER_NOTE = `Captured, no order: the payment was captured in Medusa, but completing the cart failed after it (an item sold out meanwhile, say), so no order holds the money. Create the order by hand, or send the coins back from the service's dashboard and mark them sent.`

/** The watch window (expiry + the late-payment window) and whether it has ended. */
function watchOf({ row, now }: PaymentRead) {
  const until = row.watch_until ? new Date(row.watch_until) : undefined
  return { until, over: !!until && now > until }
}

function attentionOf(payment: PaymentRead): string | null {
  const { read, row } = payment
  const { assessment: a, decision } = read
  const pastWatch = watchOf(payment).over
  const stopNote =
    pastWatch && !decision.settled && !decision.watchLate && !decision.untilConfirmed
      ? `Still ${a.status} after the late-payment window; no longer read. Check it on the service's dashboard.`
      : undefined
  // what an earlier read flagged and a later one cannot undo stays
  const lasting =
    row.paid_late ||
    row.paid_twice ||
    (row.captured_no_order && !decision.withdrawNoOrderClaim) ||
    (row.replaced_session && row.needs_attention)
  return (
    (read.no_order ? NO_ORDER_NOTE : undefined) ?? decision.attention ?? stopNote ?? (lasting ? row.attention : null)
  )
}

/**
 * Coins never leave an address the service watches: a read that finds fewer in the same coin than the row
 * holds is older than the one recorded (a refund capped by it would be capped too low, for good).
 */
function fewerCoins(row: RecordedRow, coin: string | undefined, received: string): boolean {
  const recorded = row.received_amount
  if (!recorded || !coin || row.coin !== coin || !isCoin(coin)) return false
  return coinUnits(received, coin) < coinUnits(recorded, coin)
}

/** The status and amounts the read found, unless it would move the row backwards. */
function statusOf({ read, row }: PaymentRead): Partial<StatusFields> {
  const a = read.assessment
  if ((STATUS_RANK[a.status] ?? 0) < (STATUS_RANK[row.status] ?? 0)) return {}
  if (fewerCoins(row, a.coin, receivedOf(a))) return {}
  return {
    status: a.status,
    outcome: a.outcome,
    coin: a.coin ?? row.coin,
    address: a.address ?? row.address,
    // a remainder's row keeps its own amounts (the decision assessed the pair)
    received_amount: receivedOf(a),
    required_amount: a.own?.required ?? a.required ?? row.required_amount,
    confirmations: a.confirmations,
    required_confirmations: a.requiredConfirmations ?? row.required_confirmations,
  }
}

/** The timeline, with an entry for this read when something changed, was applied or is said. */
function timelineOf(
  payment: PaymentRead,
  { attention, owedNote }: { attention: string | null; owedNote?: string }
): TimelineEntry[] {
  const { read, row, now } = payment
  const { assessment: a, decision } = read
  const kept = row.timeline?.entries
  const entries: TimelineEntry[] = Array.isArray(kept) ? [...kept] : []
  const last = entries[entries.length - 1]
  const received = receivedOf(a)
  const applied = decision.action !== "none" ? decision.action : undefined
  const changed =
    !last ||
    last.status !== a.status ||
    last.confirmations !== a.confirmations ||
    last.received !== received ||
    applied ||
    decision.note ||
    owedNote ||
    attention !== row.attention
  if (!changed) return entries
  entries.push({
    at: now.toISOString(),
    source: read.source,
    status: a.status,
    outcome: a.outcome,
    confirmations: a.confirmations,
    received,
    ...(a.required !== undefined ? { required: a.own?.required ?? a.required } : {}),
    ...(applied ? { applied } : {}),
    ...(decision.rounding ? { rounding: decision.rounding } : {}),
    ...(decision.note || attention || owedNote
      ? { note: [decision.note ?? attention, owedNote].filter(Boolean).join(" ") }
      : {}),
  })
  return entries
}

/**
 * Each flag (and a note) is logged once, with what the shop needs to find the money. A note (money
 * applied in an unusual way) says more than the flags it raises, so it stands for them.
 */
function warningsOf(
  payment: PaymentRead,
  flags: Record<RecordFlag, boolean>,
  { attention, orderId, owedNote }: { attention: string | null; orderId?: string; owedNote?: string }
): { warned: Record<string, unknown>; warnings: string[] } {
  const { read, row, now } = payment
  const { assessment: a, decision } = read
  const warned: Record<string, unknown> = { ...(row.warned ?? {}) }
  const raised = RECORD_FLAGS.filter((flag) => flags[flag] && !warned[flag])
  const logged = decision.note && !warned.note ? ["note"] : raised
  for (const key of [...raised, ...logged]) warned[key] = now.toISOString()
  const drift = a.quoteDrift
  const said = (key: string) =>
    key === "note"
      ? decision.note
      : key === "quote_drift" && drift
        ? `Re-priced by the service: quoted ${drift.quoted}, required ${drift.required} ${drift.coin} (${driftPercentText(drift.basisPoints)} %); informational.`
        : (attention ?? "")
  const warnings = logged.map((key) =>
    `${key === "note" ? "notice" : key.replace("_", " ")} — payment ${row.payment_id}${orderId ? `, order ${orderId}` : `, session ${row.session_id}`}: received ${a.received}${a.required ? ` of ${a.required}` : ""} ${a.coin ?? ""}. ${said(key)}`.trim()
  )
  if (owedNote) warnings.push(`owed — payment ${row.payment_id}${orderId ? `, order ${orderId}` : ""}: ${owedNote}`)
  return { warned, warnings }
}

/**
 * Settled payments stay watched through their window for money after the fact; one nothing can arrive
 * for leaves the due index. An order held for the late-payment window is read when it ends, to cancel it.
 */
function nextCheckOf(payment: PaymentRead, settled: boolean): Date | null {
  const { read, row, now } = payment
  const createdAt = row.created_at
  const { decision } = read
  const intervalSeconds = read.policy.reconcileIntervalSeconds
  const watch = watchOf(payment)
  const later = (seconds: number) => new Date(now.getTime() + seconds * 1000)
  const nextRead = decision.stopReading
    ? null
    : settled
      ? watch.until && now < watch.until
        ? later(settledReadDelaySeconds({ now, createdAt, intervalSeconds }))
        : null
      : later(
          nextReadDelaySeconds({
            now,
            expiresAt: row.expires_at,
            createdAt,
            outcome: read.assessment.outcome,
            watchLate: decision.watchLate,
            intervalSeconds,
          })
        )
  const readBy = [
    read.read_again_by ? new Date(read.read_again_by) : undefined,
    decision.holdUntilWindowEnd && watch.until ? new Date(watch.until.getTime() + 1000) : undefined,
  ].filter((at): at is Date => !!at && !watch.over && !decision.stopReading)
  return readBy.reduce<Date | null>((soonest, at) => (!soonest || at < soonest ? at : soonest), nextRead)
}

/** `owedRecord`: the owed record the module wrote for owedToRecord, if any (its note is timelined and logged). */
export function paymentRecordFor(payment: PaymentRead, owedRecord?: OwedRecordWritten): PaymentRecord {
  const { read, row, now } = payment
  const { assessment: a, decision } = read
  const flags = flagsOf(row, decision)
  const attention = attentionOf(payment)
  // past the watch window nothing more is read, unless the full amount is still confirming
  const settled = decision.settled || (watchOf(payment).over && !decision.untilConfirmed) || !!decision.stopReading
  const orderId = read.order_id ?? row.order_id ?? undefined
  const owedNote = owedNoteOf(owedRecord)
  const { warned, warnings } = warningsOf(payment, flags, { attention, orderId, owedNote })
  const applied = decision.action !== "none" ? decision.action : undefined
  const fields: RecordFields = {
    ...statusOf(payment),
    ...flags,
    attention,
    needs_attention: !!attention,
    warned,
    order_id: orderId ?? null,
    applied: applied ?? row.applied,
    settled,
    ...(read.no_order
      ? { captured_no_order: true }
      : decision.withdrawNoOrderClaim
        ? { captured_no_order: false }
        : {}),
    // what settled it first (setup health: by webhook or by the job)
    ...(settled && !row.settled ? { settled_at: now, settled_by: read.source } : {}),
    ...(read.source === "webhook" ? { last_webhook_at: now } : {}),
    last_checked_at: now,
    next_check_at: nextCheckOf(payment, settled),
    ...(a.quoteDrift
      ? {
          drift: {
            coin: a.quoteDrift.coin,
            quoted: a.quoteDrift.quoted,
            required: a.quoteDrift.required,
            percent: driftPercentText(a.quoteDrift.basisPoints),
          },
        }
      : {}),
    check_failures: 0,
    timeline: { entries: timelineOf(payment, { attention, owedNote }) },
  }
  return { fields, warnings }
}
