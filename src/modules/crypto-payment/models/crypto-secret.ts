import { model } from "@medusajs/framework/utils"

/**
 * Sealed under CRYPTO_SECRETS_KEY (lib/domain/secret-box.ts): an API key an admin saved, or the webhook
 * secret generated once because none is configured.
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
