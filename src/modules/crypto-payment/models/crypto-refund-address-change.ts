import { model } from "@medusajs/framework/utils"

/** Every refund address given for an owed record, by whom: the customer through the link, or an admin. */
const CryptoRefundAddressChange = model.define("crypto_refund_address_change", {
  id: model.id({ prefix: "cryptoaddr" }).primaryKey(),
  owed_id: model.text().index(),
  payment_id: model.text(),
  coin: model.text(),
  address: model.text(),
  /** "customer", or the admin user's id. */
  actor: model.text(),
})

export default CryptoRefundAddressChange
