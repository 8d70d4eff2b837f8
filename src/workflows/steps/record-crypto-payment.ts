import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { CRYPTO_PAYMENT_MODULE } from "../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../modules/crypto-payment/service"
import { driftPercentText, OwedByRead, PaymentAssessment, PaymentDecision } from "../../lib/domain/payment-decision"
import type { ReconcilePolicy } from "../../lib/internal-request"
import { nextReadDelaySeconds, settledReadDelaySeconds } from "../../lib/domain/read-schedule"
import { pluginLog } from "../../lib/runtime/log"
import { coinsBeyond, isZero, sumCoins } from "../../lib/domain/owed"

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
}

export type RecordCryptoPaymentInput = {
  payment_id: string
  source: string
  assessment: PaymentAssessment
  decision: PaymentDecision
  policy: ReconcilePolicy
  /** The order the payment belongs to (known before, or made by the capture). */
  order_id?: string
  /** The capture was applied but the cart's completion made no order (Medusa swallowed its failure). */
  no_order?: boolean
  /** A notification was answered with a kept read: read again no later than this (ISO time). */
  read_again_by?: string
}

/** A status read never moves the record backwards: a delayed PENDING does not overwrite COMPLETED. */
const STATUS_RANK: Record<string, number> = { PENDING: 0, EXPIRED: 1, FAILED: 1, COMPLETED: 2 }

/**
 * Writes what a read found and what was applied, after the effect happened (the steps before it
 * throw when it did not): status and amounts, flags (raised, never lowered), the order, whether
 * anything is left to do, when to read again, and the timeline. A flag is logged at warn once.
 */
export const recordCryptoPaymentStep = createStep(
  "record-crypto-payment",
  async (input: RecordCryptoPaymentInput, { container }) => {
    const ledger: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
    const log = pluginLog(container.resolve(ContainerRegistrationKeys.LOGGER))
    const row = await ledger.retrieveByPaymentId(input.payment_id)
    const { assessment: a, decision } = input
    const now = new Date()

    const flags = {
      underpaid: row.underpaid || !!decision.flags.underpaid,
      overpaid: row.overpaid || !!decision.flags.overpaid,
      paid_late: row.paid_late || !!decision.flags.paid_late,
      paid_twice: row.paid_twice || !!decision.flags.paid_twice,
      replaced_session: row.replaced_session || !!decision.flags.replaced_session,
      mismatch: row.mismatch || !!decision.flags.mismatch,
      quote_drift: row.quote_drift || !!decision.flags.quote_drift,
      accepted_short: row.accepted_short || !!decision.flags.accepted_short,
    }
    const noOrderNote = input.no_order
      ? `Captured, no order: the payment was captured in Medusa, but completing the cart failed after it (an item sold out meanwhile, say), so no order holds the money. Create the order by hand, or send the coins back from the service's dashboard and mark them sent.`
      : undefined
    const lasting =
      row.paid_late || row.paid_twice || row.captured_no_order || (row.replaced_session && row.needs_attention)
    const watchUntil = row.watch_until ? new Date(row.watch_until) : undefined
    const pastWatch = !!watchUntil && now > watchUntil
    const settled = decision.settled || pastWatch || !!decision.stopReading
    const stopNote =
      pastWatch && !decision.settled && !decision.watchLate
        ? `Still ${a.status} after the late-payment window; no longer read. Check it on the service's dashboard.`
        : undefined
    const attention = noOrderNote ?? decision.attention ?? stopNote ?? (lasting ? row.attention : null)

    const received = a.own?.received ?? a.received
    const moves = (STATUS_RANK[a.status] ?? 0) >= (STATUS_RANK[row.status] ?? 0)
    const status = moves
      ? {
          status: a.status,
          outcome: a.outcome,
          coin: a.coin ?? row.coin,
          address: a.address ?? row.address,
          // a remainder's row keeps its own amounts (the decision judged the pair)
          received_amount: received,
          required_amount: a.own?.required ?? a.required ?? row.required_amount,
          confirmations: a.confirmations,
          required_confirmations: a.requiredConfirmations ?? row.required_confirmations,
        }
      : {}

    // money owed back that this read shows (beyond what the order took, or paid too late): the part not
    // recorded yet. What a remainder and its first payment sent beyond the amount is one total, owed on
    // the first payment; every coin of a capture that made no order is owed, less what Medusa's
    // compensation already recorded as a refund.
    const owner = decision.owed?.pair && row.remainder_of ? row.remainder_of : row.payment_id
    const terms = row.remainder_of ? ((await ledger.retrieveByPaymentId(row.remainder_of)) ?? row) : row
    let owed: OwedByRead | undefined =
      input.no_order && !isZero(received) ? { kind: "late", coins: received } : decision.owed
    if (owed?.kind === "late" && a.coin && (input.no_order || row.captured_no_order)) {
      const refunds = (await ledger.listOwed([owner])).filter((r) => r.kind === "refund").map((r) => r.coin_amount)
      const beyond = coinsBeyond(a.coin, owed.coins, sumCoins(a.coin, refunds))
      owed = isZero(beyond) ? undefined : { ...owed, coins: beyond }
    }
    const owedRecord =
      owed && a.coin && a.required
        ? await ledger.recordOwedByRead(
            owner,
            owed,
            { coin: a.coin, required: a.required, baseAmount: terms.base_amount, baseCurrency: terms.base_currency },
            owed.pair ? a.received : received
          )
        : undefined
    const owedNote = owedRecord
      ? `Owed to the customer: ${owedRecord.coin_amount} ${owedRecord.coin} (≈ ${owedRecord.base_amount} ${owedRecord.base_currency}, ${owedRecord.kind === "late" ? "a late payment" : "beyond what the order took"}). Send it from the service's dashboard, then mark it sent.`
      : undefined

    const entries: TimelineEntry[] = [...((row.timeline as { entries?: TimelineEntry[] } | null)?.entries ?? [])]
    const last = entries[entries.length - 1]
    const applied = decision.action !== "none" ? decision.action : undefined
    if (
      !last ||
      last.status !== a.status ||
      last.confirmations !== a.confirmations ||
      last.received !== received ||
      applied ||
      decision.note ||
      owedNote ||
      attention !== row.attention
    ) {
      entries.push({
        at: now.toISOString(),
        source: input.source,
        status: a.status,
        outcome: a.outcome,
        confirmations: a.confirmations,
        received,
        ...(a.required !== undefined ? { required: a.own?.required ?? a.required } : {}),
        ...(applied ? { applied } : {}),
        ...(decision.note || attention || owedNote
          ? { note: [decision.note ?? attention, owedNote].filter(Boolean).join(" ") }
          : {}),
      })
    }

    // each flag (and a note) is logged once, with what the shop needs to find the money
    const warned: Record<string, string> = { ...((row.warned as Record<string, string> | null) ?? {}) }
    const orderId = input.order_id ?? row.order_id ?? undefined
    const raised = (Object.keys(flags) as Array<keyof typeof flags>).filter((flag) => flags[flag] && !warned[flag])
    // a note (money applied in an unusual way) says more than the flags it raises: it stands for them
    const notes = decision.note && !warned.note ? ["note"] : raised
    for (const key of [...raised, ...notes]) warned[key] = now.toISOString()
    const drift = a.quoteDrift
    const said = (key: string) =>
      key === "note"
        ? decision.note
        : key === "quote_drift" && drift
          ? `Re-priced by the service: quoted ${drift.quoted}, required ${drift.required} ${drift.coin} (${driftPercentText(drift.basisPoints)} %); informational.`
          : (attention ?? "")
    for (const key of notes) {
      log.warn(
        `${key === "note" ? "notice" : key.replace("_", " ")} — payment ${row.payment_id}${orderId ? `, order ${orderId}` : `, session ${row.session_id}`}: received ${a.received}${a.required ? ` of ${a.required}` : ""} ${a.coin ?? ""}. ${said(key)}`.trim()
      )
    }

    if (owedNote) {
      log.warn(`owed — payment ${row.payment_id}${orderId ? `, order ${orderId}` : ""}: ${owedNote}`)
    }

    // settled payments stay watched through their window, at a low rate, for money after the fact;
    // one nothing can arrive for leaves the due index (a webhook still brings it back)
    const nextRead = decision.stopReading
      ? null
      : settled
        ? watchUntil && now < watchUntil
          ? new Date(
              now.getTime() +
                settledReadDelaySeconds({
                  now,
                  createdAt: row.created_at,
                  intervalSeconds: input.policy.reconcileIntervalSeconds,
                }) *
                  1000
            )
          : null
        : new Date(
            now.getTime() +
              nextReadDelaySeconds({
                now,
                expiresAt: row.expires_at,
                createdAt: row.created_at,
                outcome: a.outcome,
                watchLate: decision.watchLate,
                intervalSeconds: input.policy.reconcileIntervalSeconds,
              }) *
                1000
          )
    // a notification answered from a kept read is never dropped: the job reads by then; an order held
    // for the late-payment window is read again when the window ends, to cancel it then
    const readBy = [
      input.read_again_by ? new Date(input.read_again_by) : undefined,
      decision.holdUntilWindowEnd && watchUntil ? new Date(watchUntil.getTime() + 1000) : undefined,
    ].filter((at): at is Date => !!at && !pastWatch && !decision.stopReading)
    const next_check_at = readBy.reduce<Date | null>(
      (soonest, at) => (!soonest || at < soonest ? at : soonest),
      nextRead
    )

    const saved = await ledger.saveRecord(row.id, {
      ...status,
      ...flags,
      attention,
      needs_attention: !!attention,
      warned,
      order_id: orderId ?? null,
      applied: applied ?? row.applied,
      settled,
      ...(input.no_order ? { captured_no_order: true } : {}),
      // what settled it first (setup health: by webhook or by the job)
      ...(settled && !row.settled ? { settled_at: now, settled_by: input.source } : {}),
      ...(input.source === "webhook" ? { last_webhook_at: now } : {}),
      last_checked_at: now,
      next_check_at,
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
      timeline: { entries },
    })
    // a remainder's capture stands (made here or by the storefront's own completion): the short payment
    // it finishes is no longer owed back, whichever of the two is read first
    if (decision.completesFirst) {
      if (row.remainder_of) await ledger.recordCompletedByRemainder(row.remainder_of, row.payment_id, now)
      else await ledger.recordCompletedByRemainder(row.payment_id, undefined, now)
    }
    return new StepResponse(saved)
  }
)
