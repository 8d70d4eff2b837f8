import { model } from "@medusajs/framework/utils"

/**
 * A state of a provider's setup an admin acknowledged on the setup health (its API key today), with who
 * and when; the newest row per provider and subject is the one in force (never updated, never deleted).
 */
const CryptoAcknowledgement = model
  .define("crypto_acknowledgement", {
    id: model.id({ prefix: "cryptoack" }).primaryKey(),
    /** pp_crypto_<id>. */
    provider_id: model.text(),
    /** What was acknowledged: "api_key". */
    subject: model.text(),
    /** Tells two states apart (for the API key: fingerprints, never a key). */
    value: model.text(),
    /** The state in words an admin can read (for the API key: last fours and where it comes from). */
    facts: model.json().nullable(),
    /** "acknowledged" (pressed on the health), "saved" (a signed-in admin saved it), "first_sight". */
    how: model.text(),
    /** The admin user; null at first sight. */
    actor_id: model.text().nullable(),
  })
  .indexes([{ on: ["provider_id", "subject", "created_at"] }])

export default CryptoAcknowledgement
