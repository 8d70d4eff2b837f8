import type { MedusaContainer } from "@medusajs/framework/types"
import { CRYPTO_PAYMENT_MODULE } from "../../src/modules/crypto-payment"
import type CryptoPaymentModuleService from "../../src/modules/crypto-payment/service"
import type { LedgerRow } from "../../src/modules/crypto-payment/ledger"

/** The plugin's module in a booted test store. */
export function cryptoPaymentOf(container: MedusaContainer): CryptoPaymentModuleService {
  return container.resolve(CRYPTO_PAYMENT_MODULE)
}

/** A payment's ledger row; a test that expects one fails here when it is missing. */
export async function ledgerRowOf(container: MedusaContainer, paymentId: string): Promise<LedgerRow> {
  const row = await cryptoPaymentOf(container).ledger.byPaymentId(paymentId)
  if (!row) throw new Error(`the ledger has no payment ${paymentId}`)
  return row
}
