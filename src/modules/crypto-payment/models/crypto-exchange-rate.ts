import { model } from "@medusajs/framework/utils"

/**
 * The rates a source last published, one row per source and url, shared by every process and kept
 * across restarts. Written by the provider, which holds the options.
 */
const CryptoExchangeRate = model
  .define("crypto_exchange_rate", {
    id: model.id({ prefix: "cryptorate" }).primaryKey(),
    /** "ecb" (fixed rates live in the options and are never stored). */
    source: model.text(),
    url: model.text(),
    /** The publication's date (YYYY-MM-DD) and its rates per one EUR, as published ({ USD: "1.0842" }). */
    published_on: model.text().nullable(),
    rates: model.json().nullable(),
    fetched_at: model.dateTime().nullable(),
    /**
     * A newer publication held back because a rate moved more than 20 %: taken when the next fetch agrees
     * with it or an admin accepts it.
     */
    held: model.json().nullable(),
    /** The last fetch begun by any process (the claim that makes one process fetch at a time). */
    attempted_at: model.dateTime().nullable(),
    /** When the last claimed fetch ended (stored, held or failed): one is under way while attempted_at is later. */
    settled_at: model.dateTime().nullable(),
    /** Why the last fetch failed (no secret: the url is an option, the error a short text); null after a success. */
    last_error: model.text().nullable(),
    failures: model.number().default(0),
  })
  .indexes([{ on: ["source", "url"], unique: true }])

export default CryptoExchangeRate
