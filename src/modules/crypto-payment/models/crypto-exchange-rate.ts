import { model } from "@medusajs/framework/utils"

/**
 * The exchange rates a rate source last published, one row per source and url, shared by every
 * process and kept across restarts: checkouts price from it while its publication is fresh, the job
 * refreshes it. Written by the provider (which holds the options); the module shows it to the admin.
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
    /** When the stored publication was fetched. */
    fetched_at: model.dateTime().nullable(),
    /**
     * A newer publication held back because a rate moved more than 20 % against the stored one:
     * { publishedOn, rates, fetched_at, moved: [{ currency, percent }] }. Taken when the next fetch
     * agrees with it or an admin accepts it.
     */
    held: model.json().nullable(),
    /** The last fetch begun by any process (the claim that makes one process fetch at a time). */
    attempted_at: model.dateTime().nullable(),
    /** Why the last fetch failed (no secret: the url is an option, the error a short text); null after a success. */
    last_error: model.text().nullable(),
    failures: model.number().default(0),
  })
  .indexes([{ on: ["source", "url"], unique: true }])

export default CryptoExchangeRate
