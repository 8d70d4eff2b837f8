import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { StoreSideState } from "../../lib/payment-decision"

export type CryptoPaymentContext = {
  session: {
    id: string
    status: string
    amount: number
    currency_code: string
    provider_id: string
    data: Record<string, unknown>
  }
  store: StoreSideState
}

/** The payment session, its payment and its order, as they stand now. */
export const loadCryptoPaymentStep = createStep(
  "load-crypto-payment",
  async (input: { session_id: string }, { container }) => {
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const {
      data: [session],
    } = await query.graph({
      entity: "payment_session",
      fields: ["id", "status", "amount", "currency_code", "provider_id", "data", "payment_collection_id", "payment.id", "payment.captured_at"],
      filters: { id: input.session_id },
    })
    if (!session) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment session ${input.session_id} was not found.`)
    }
    const { data: links } = await query.graph({
      entity: "order_payment_collection",
      fields: ["order_id", "order.id", "order.status"],
      filters: { payment_collection_id: session.payment_collection_id },
    })
    const order = (links[0] as { order?: { id: string; status: string } } | undefined)?.order
    const payment = session.payment as { id: string; captured_at?: Date | string | null } | null | undefined
    const context: CryptoPaymentContext = {
      session: {
        id: session.id,
        status: session.status,
        amount: Number(session.amount),
        currency_code: session.currency_code,
        provider_id: session.provider_id,
        data: (session.data ?? {}) as Record<string, unknown>,
      },
      store: {
        sessionStatus: session.status,
        captured: !!payment?.captured_at,
        ...(order ? { orderId: order.id, orderStatus: order.status } : {}),
      },
    }
    return new StepResponse(context)
  }
)
