import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { ledgerRowOr404 } from "../../load"

export async function owedOr404(container: MedusaContainer, paymentId: string, owedId: string) {
  const { cryptoPayment, row } = await ledgerRowOr404(container, paymentId)
  const owed = await cryptoPayment.refundAddresses.owed(owedId)
  if (!owed || owed.payment_id !== row.payment_id)
    throw new MedusaError(
      MedusaError.Types.NOT_FOUND,
      `Nothing owed ${owedId} was recorded for crypto payment ${paymentId}.`
    )
  return { cryptoPayment, row, owed }
}
