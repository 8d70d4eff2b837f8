import { defineLink } from "@medusajs/framework/utils"
import OrderModule from "@medusajs/medusa/order"
import CryptoPaymentModule from "../modules/crypto-payment"

/**
 * Read-only: a ledger row's order, through its own `order_id` (set once the payment belongs to an
 * order; a checkout's payment before its cart completed has none). `fields: ["order.*"]` in
 * `query.graph({ entity: "crypto_payment", … })`.
 */
export default defineLink(
  { linkable: CryptoPaymentModule.linkable.cryptoPayment, field: "order_id" },
  OrderModule.linkable.order,
  { readOnly: true }
)
