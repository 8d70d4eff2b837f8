import { Modules, PaymentSessionStatus } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { SessionSnapshot } from "../../lib/domain/payment-context"

/**
 * Marks an expired or failed session canceled in Medusa (order cancellation leaves sessions as
 * they were), so the storefront sees it closed.
 */
export const closePaymentSessionStep = createStep(
  "close-crypto-payment-session",
  async (session: SessionSnapshot, { container }) => {
    const payments = container.resolve(Modules.PAYMENT)
    await payments.updatePaymentSession({
      id: session.id,
      amount: session.amount,
      currency_code: session.currency_code,
      data: session.data,
      status: PaymentSessionStatus.CANCELED,
    })
    return new StepResponse(undefined, session)
  },
  async (session, { container }) => {
    if (!session) return
    await container.resolve(Modules.PAYMENT).updatePaymentSession({
      id: session.id,
      amount: session.amount,
      currency_code: session.currency_code,
      data: session.data,
      status: session.status as PaymentSessionStatus,
    })
  }
)
