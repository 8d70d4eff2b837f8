import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { CRYPTO_PAYMENT_MODULE } from "../../../../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../../../../modules/crypto-payment/service"

/** The ledger row of a payment the shop created, or a 404. */
export async function ledgerRowOr404(container: MedusaContainer, paymentId: string) {
  const ledger: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
  const row = await ledger.retrieveByPaymentId(paymentId)
  if (!row)
    throw new MedusaError(
      MedusaError.Types.NOT_FOUND,
      `Crypto payment ${paymentId} was not found: this shop never created it.`
    )
  return { ledger, row }
}
