import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { CRYPTO_PAYMENT_MODULE } from "../modules/crypto-payment"
import type CryptoPaymentModuleService from "../modules/crypto-payment/service"
import { cryptoCore, inLedger } from "../modules/crypto-payment/core"
import { reconcileCryptoPaymentWorkflow } from "../workflows/reconcile-crypto-payment"
import { pluginLog } from "../lib/runtime/log"

/**
 * A cart whose payment was captured with no order can become an order later (the shop restocked, the
 * storefront completed it with the captured session). Its no-order claim is withdrawn as the order's
 * capture is recorded (docs/money.md): at once, by one run of the reconcile workflow on the status the
 * ledger kept (a captured payment's is final: no read of the service), rather than at the job's next
 * read of a settled payment, hours away, while the admin could start paying the claim out.
 */
export default async function cryptoClaimMeetsOrder({ event, container }: SubscriberArgs<{ id: string }>) {
  const cryptoPayment: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
  // the ledger first: an order of another provider, or any ordinary order, stops at this one statement
  const claims = await cryptoPayment.ledger.noOrderClaimsOfOrder(event.data.id)
  const log = pluginLog(container.resolve(ContainerRegistrationKeys.LOGGER))
  for (const row of claims) {
    try {
      const core = await cryptoCore(container, row.provider_id)
      const report = inLedger(await core.report(row.payment_id, "final"), row.payment_id)
      if (!report.assessment) continue
      await reconcileCryptoPaymentWorkflow(container).run({
        input: { payment_id: row.payment_id, assessment: report.assessment, policy: report.policy, source: "order" },
      })
    } catch (error) {
      // the job's next read of the payment does the same
      log.warn(
        `order ${event.data.id} placed with the capture of crypto payment ${row.payment_id}, whose no-order claim is withdrawn at its next read: ${(error as Error)?.message}`
      )
    }
  }
}

export const config: SubscriberConfig = {
  event: "order.placed",
  context: { subscriberId: "medusa-payment-crypto-claim-meets-order" },
}
