import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { CRYPTO_PAYMENT_MODULE } from "../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../modules/crypto-payment/service"
import type { PaymentAssessment, PaymentDecision } from "../../lib/payment-decision"

export type TimelineEntry = {
  at: string
  source: string
  status: string
  outcome: string
  confirmations: number
  received: string
  required?: string
  applied?: string
}

export type RecordCryptoPaymentInput = {
  session_id: string
  kind: "invoice" | "payment"
  payment_id: string
  source: string
  assessment: PaymentAssessment
  decision: PaymentDecision
  recheck_after_seconds: number
}

/** Keeps the payment's latest state, flags and timeline, and when to look again. */
export const recordCryptoPaymentStep = createStep(
  "record-crypto-payment",
  async (input: RecordCryptoPaymentInput, { container }) => {
    const service: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
    const [previous] = await service.listCryptoPayments({ session_id: input.session_id })
    const { assessment: a, decision } = input
    const now = new Date()
    const entries: TimelineEntry[] = [...(((previous?.timeline as { entries?: TimelineEntry[] } | null)?.entries) ?? [])]
    const last = entries[entries.length - 1]
    const changed =
      !last || last.status !== a.status || last.confirmations !== a.confirmations || last.received !== a.received || decision.action !== "none"
    if (changed) {
      entries.push({
        at: now.toISOString(),
        source: input.source,
        status: a.status,
        outcome: a.outcome,
        confirmations: a.confirmations,
        received: a.received,
        ...(a.required !== undefined ? { required: a.required } : {}),
        ...(decision.action !== "none" ? { applied: decision.action } : {}),
      })
    }
    const fields = {
      session_id: input.session_id,
      payment_id: input.payment_id,
      kind: input.kind,
      status: a.status,
      outcome: a.outcome,
      coin: a.coin ?? null,
      received_amount: a.received,
      required_amount: a.required ?? null,
      confirmations: a.confirmations,
      required_confirmations: a.requiredConfirmations ?? null,
      underpaid: a.underpaid,
      overpaid: a.overpaid,
      paid_late: (previous?.paid_late ?? false) || decision.paidLate,
      // a paid-late note stays until a newer decision says something else
      attention: decision.attention ?? (previous?.paid_late ? previous.attention : null),
      applied: decision.action !== "none" ? decision.action : previous?.applied ?? null,
      settled: decision.settled,
      last_checked_at: now,
      next_check_at: decision.settled ? null : new Date(now.getTime() + input.recheck_after_seconds * 1000),
      check_failures: 0,
      timeline: { entries },
    }
    const saved = previous
      ? await service.updateCryptoPayments({ id: previous.id, ...fields })
      : await service.createCryptoPayments(fields)
    return new StepResponse(saved, { previous, id: saved.id })
  },
  async (undo, { container }) => {
    if (!undo) return
    const service: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
    if (undo.previous) {
      const { id, created_at, updated_at, deleted_at, ...rest } = undo.previous as Record<string, any>
      await service.updateCryptoPayments({ id, ...rest })
    } else {
      await service.deleteCryptoPayments(undo.id)
    }
  }
)
