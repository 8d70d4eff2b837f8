import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { CRYPTO_PAYMENT_MODULE } from "../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../modules/crypto-payment/service"
import type { PaymentDecision } from "../../lib/domain/decision-terms"
import type { PaymentAssessment } from "../../lib/domain/payment-assessment"
import type { ReconcilePolicy } from "../../modules/crypto-payment/core/types"
import { pluginLog } from "../../lib/runtime/log"
import { paymentRecordFor } from "../../lib/domain/payment-record"
import type { PaymentRead } from "../../lib/domain/payment-read"
import { completedBy, owedToRecord, refundsCount } from "../../lib/domain/owed-to-record"
import { earlierIdsOf } from "../../lib/domain/checkout-payment"
import { recordEventsOf } from "../../lib/domain/payment-events"
import { assertPaymentLockHeld, type PaymentLock } from "./payment-lock"

export type RecordCryptoPaymentInput = {
  payment_id: string
  /** The run's lock on the payment: nothing is recorded once its lease was lost. */
  lock: PaymentLock
  source: string
  assessment: PaymentAssessment
  decision: PaymentDecision
  policy: ReconcilePolicy
  order_id?: string
  /** The capture was applied but the cart's completion made no order (Medusa swallowed its failure). */
  no_order?: boolean
  /** A notification was answered with a kept read: read again no later than this (ISO time). */
  read_again_by?: string
}

/**
 * Writes what a read found and what was applied, after the effect happened (the steps before it throw
 * when it did not): the owed record, then the row with its crypto_payment.* events in one statement.
 * Only while the run's lease holds (checked first, as before an effect).
 */
export const recordCryptoPaymentStep = createStep(
  "record-crypto-payment",
  async (input: RecordCryptoPaymentInput, { container }) => {
    assertPaymentLockHeld(container, input.lock)
    const cryptoPayment: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
    const log = pluginLog(container.resolve(ContainerRegistrationKeys.LOGGER))
    const row = await cryptoPayment.ledger.byPaymentId(input.payment_id)
    if (!row)
      throw new MedusaError(
        MedusaError.Types.NOT_FOUND,
        `Crypto payment ${input.payment_id} is no longer in the ledger.`
      )
    const now = new Date()
    // the checkout's payment it belongs to, read when it matters: a remainder's first payment prices what
    // any of them owes, and the refunds recorded on it are taken off a capture that made no order
    const alone: PaymentRead = { read: input, row, terms: row, now }
    const refundsNetted = refundsCount(alone)
    const checkout =
      row.remainder_of || refundsNetted ? await cryptoPayment.ledger.checkoutOf(row.payment_id) : undefined
    const payment: PaymentRead = { ...alone, terms: checkout?.first ?? row }

    // the late records a remainder's capture completes are withdrawn before anything new is owed, so a
    // capture with no order owes the checkout's coins once
    const members = checkout ? [checkout.first, ...checkout.remainders] : [row]
    const completes = completedBy(payment, earlierIdsOf(members, row.payment_id))
    const completed = completes?.paymentIds ?? []
    for (const paymentId of completed.filter((id) => id !== row.payment_id))
      await cryptoPayment.ledger.recordCompletedByRemainder(paymentId, completes?.remainderId, now)

    // a capture that made no order owes every coin, less the refunds Medusa's compensation recorded
    const recorded = refundsNetted ? (checkout?.records ?? []) : []
    const owed = owedToRecord(payment, recorded)
    const owedRecord = owed
      ? await cryptoPayment.ledger.recordOwedByRead(owed.paymentId, owed.owed, owed.rate, owed.received)
      : undefined

    const record = paymentRecordFor(payment, owedRecord)
    for (const line of record.warnings) log.warn(line)
    const events = recordEventsOf(row, record.fields, {
      action: input.decision.action,
      captured: input.decision.action === "capture" || !!input.decision.captured,
    })
    const saved = await cryptoPayment.ledger.saveRecord(row.id, record.fields, events)
    if (completed.includes(row.payment_id))
      await cryptoPayment.ledger.recordCompletedByRemainder(row.payment_id, undefined, now)
    return new StepResponse(saved)
  }
)
