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

    // one transaction under the checkout's refund lock: the late records a remainder's capture completes
    // withdrawn, a no-order claim whose cart became an order withdrawn, what is owed now (a capture with no
    // order owes the checkout's coins once, less the refunds Medusa's compensation recorded), then the row
    const members = checkout ? [checkout.first, ...checkout.remainders] : [row]
    const completed = completedBy(payment, earlierIdsOf(members, row.payment_id))
    const saved = await cryptoPayment.ledger.recordRead(
      row.payment_id,
      {
        ...(completed ? { completed } : {}),
        ...(input.decision.withdrawNoOrderClaim && input.order_id ? { claimMetOrder: input.order_id } : {}),
        // the refunds taken off are read under the lock, so one recorded meanwhile is counted
        owed: (locked) => owedToRecord(payment, refundsNetted ? (locked?.records ?? []) : []),
      },
      async (owedRecord, trx) => {
        const record = paymentRecordFor(payment, owedRecord)
        for (const line of record.warnings) log.warn(line)
        const events = recordEventsOf(row, record.fields, {
          action: input.decision.action,
          captured: input.decision.action === "capture" || !!input.decision.captured,
        })
        return cryptoPayment.ledger.saveRecord(row.id, record.fields, events, trx)
      },
      now
    )
    return new StepResponse(saved)
  }
)
