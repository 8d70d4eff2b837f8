import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { CRYPTO_PAYMENT_MODULE } from "../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../modules/crypto-payment/service"
import { reconcileCryptoPaymentWorkflow, type ReconcileCryptoPaymentInput } from "../reconcile-crypto-payment"

/**
 * Applies a notified status through the reconcile workflow, run as a workflow of its own: it holds the
 * payment's lock and undoes its own steps when one fails. A failure is counted against the payment as
 * the job counts its own (three in a row and it needs attention), then rethrown naming the payment
 * (`payment_id`, which a workflow's error keeps) for the route's one log line: the service retries.
 */
export const reconcileNotifiedPaymentStep = createStep(
  "reconcile-notified-payment",
  async (input: ReconcileCryptoPaymentInput, { container }) => {
    try {
      const { result } = await reconcileCryptoPaymentWorkflow(container).run({ input })
      return new StepResponse(result.decision.action)
    } catch (error) {
      const cryptoPayment: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
      await cryptoPayment.ledger.recordFailure(input.payment_id, (error as Error).message).catch(() => undefined)
      throw Object.assign(error as Error, { payment_id: input.payment_id })
    }
  }
)
