import { model } from "@medusajs/framework/utils"

/** One change of a saved setting: which field, from what to what, and who made it (never deleted). */
const CryptoSettingChange = model
  .define("crypto_setting_change", {
    id: model.id({ prefix: "cryptosetchg" }).primaryKey(),
    provider_id: model.text(),
    /** The setting's API name: underpayment_tolerance_percent, late_payments. */
    field: model.text(),
    /** As the API shows it; null: the option from medusa-config.ts. */
    from_value: model.text().nullable(),
    to_value: model.text().nullable(),
    actor_id: model.text().nullable(),
  })
  .indexes([{ on: ["provider_id", "created_at"] }])

export default CryptoSettingChange
