import { model } from "@medusajs/framework/utils"

/**
 * A provider's secret kept in the database, sealed with AES-256-GCM under CRYPTO_SECRETS_KEY
 * (lib/domain/secret-box.ts): the API key an admin saved from the policy panel (it wins over
 * medusa-config's), or the webhook secret the plugin generated once because none is configured. One row
 * per provider and name; a new API key replaces the row, and the change log (crypto_setting_change)
 * keeps who made it, by last four characters only.
 */
const CryptoSecret = model
  .define("crypto_secret", {
    id: model.id({ prefix: "cryptosecret" }).primaryKey(),
    /** pp_crypto_<id>. */
    provider_id: model.text(),
    /** "api_key" or "webhook_secret". */
    name: model.text(),
    /** `v1.<iv>.<ciphertext>.<tag>`, bound to provider_id and name. */
    sealed: model.text(),
    /** What the admin may see: the last four characters (API key only). */
    last_four: model.text().nullable(),
    /** The admin user who saved it, or "plugin" for a generated secret. */
    saved_by: model.text().nullable(),
  })
  .indexes([{ on: ["provider_id", "name"], unique: true }])

export default CryptoSecret
