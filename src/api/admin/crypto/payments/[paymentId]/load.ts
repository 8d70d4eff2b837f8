import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { CRYPTO_PAYMENT_MODULE } from "../../../../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../../../../modules/crypto-payment/service"
import { adminPaymentDetail } from "../../admin-payment-view"

export async function ledgerRowOr404(container: MedusaContainer, paymentId: string) {
  const cryptoPayment: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
  const row = await cryptoPayment.ledger.byPaymentId(paymentId)
  if (!row)
    throw new MedusaError(
      MedusaError.Types.NOT_FOUND,
      `Crypto payment ${paymentId} was not found: this shop never created it.`
    )
  return { cryptoPayment, row }
}

/** A payment's detail as the ledger holds it now: what an admin action answers with. */
export async function currentPaymentDetail(container: MedusaContainer, paymentId: string) {
  const { row } = await ledgerRowOr404(container, paymentId)
  return adminPaymentDetail(container, row)
}
