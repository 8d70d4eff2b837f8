import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { CryptoGateway } from "../../lib/crypto-gateway"
import type { PaymentAssessment } from "../../lib/payment-decision"
import type { CryptoPaymentContext } from "./load-crypto-payment"

/** Reads the service's status through the provider and judges it against the session. */
export const assessCryptoPaymentStep = createStep(
  "assess-crypto-payment",
  async (input: CryptoPaymentContext["session"], { container }) => {
    const gateway = new CryptoGateway(container.resolve(Modules.PAYMENT))
    const assessment: PaymentAssessment = await gateway.assess(input.provider_id, input.id, input.data)
    return new StepResponse(assessment)
  }
)
