import { defineLink } from "@medusajs/framework/utils"
import PaymentModule from "@medusajs/medusa/payment"
import CryptoPaymentModule from "../modules/crypto-payment"

/**
 * Read-only: a ledger row's payment collection, through its own `payment_collection_id` (no table,
 * no migration). A subscriber of crypto_payment.* fetches it with
 * `query.graph({ entity: "crypto_payment", fields: ["payment_collection.*"], filters: { id } })`.
 */
export default defineLink(
  { linkable: CryptoPaymentModule.linkable.cryptoPayment, field: "payment_collection_id" },
  PaymentModule.linkable.paymentCollection,
  { readOnly: true }
)
