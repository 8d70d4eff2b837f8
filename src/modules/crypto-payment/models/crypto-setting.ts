import { model } from "@medusajs/framework/utils"

/**
 * The merchant's payment policy for one crypto provider, as saved from the admin: a value here wins
 * over the provider's option in medusa-config.ts; null means "use the option".
 */
const CryptoSetting = model.define("crypto_setting", {
  id: model.id({ prefix: "cryptoset" }).primaryKey(),
  /** pp_crypto_<id>: one row per provider. */
  provider_id: model.text().unique(),
  /** The underpayment tolerance in basis points of the required coins (50 = 0.5 %), or null. */
  underpayment_tolerance_bp: model.number().nullable(),
  /** "flag" or "fulfil", or null. */
  late_payments: model.text().nullable(),
  updated_by: model.text().nullable(),
})

export default CryptoSetting
