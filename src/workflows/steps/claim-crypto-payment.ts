import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { MedusaContainer } from "@medusajs/framework/types"
import { CRYPTO_PAYMENT_MODULE } from "../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../modules/crypto-payment/service"

/**
 * A claim can no longer hold when the session it names is gone (Medusa deleted it when the
 * customer switched coin or the cart changed) and nothing was captured with it.
 */
async function claimIsStale(container: MedusaContainer, sessionId: string): Promise<boolean> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const [{ data: sessions }, { data: payments }] = await Promise.all([
    query.graph({ entity: "payment_session", fields: ["id"], filters: { id: sessionId } }),
    query.graph({ entity: "payment", fields: ["id", "captured_at"], filters: { payment_session_id: sessionId } }),
  ])
  const captured = (payments as Array<{ captured_at?: unknown }>).some((p) => !!p.captured_at)
  return sessions.length === 0 && !captured
}

/**
 * Before the capture: the provider's authorize then finds the payment for that session, and the unique
 * index refuses a second one. A claim whose session is gone with nothing captured is released, or the
 * payment could never be captured again.
 */
export const claimCryptoPaymentStep = createStep(
  "claim-crypto-payment",
  async (input: { payment_id: string; session_id: string; claimed: string | null }, { container }) => {
    // `claimed`: the row's claim as the load step read it under the same lock (only this step writes it)
    if (input.claimed === input.session_id) return new StepResponse(undefined)
    if (input.claimed && !(await claimIsStale(container, input.claimed))) {
      throw new MedusaError(
        MedusaError.Types.CONFLICT,
        `Crypto payment ${input.payment_id} already pays session ${input.claimed}.`
      )
    }
    const cryptoPayment: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
    await cryptoPayment.ledger.claimSession(input.payment_id, input.session_id)
    return new StepResponse(undefined)
  }
)
