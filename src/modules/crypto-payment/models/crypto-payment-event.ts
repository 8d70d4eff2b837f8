import { model } from "@medusajs/framework/utils"

/**
 * The outbox of crypto_payment.* events: one row per recorded transition, written by the statement
 * (or transaction) that records the transition, and delivered to Medusa's event bus after commit.
 * `event_key` is unique: the same transition recorded twice (a duplicate webhook, a retried workflow,
 * two processes) is one row. A row is claimed for delivery (`claimed_until`), emitted, then marked
 * `delivered_at`; a process that dies in between leaves the claim to expire and another delivers it
 * again: at least once, with the same key.
 */
const CryptoPaymentEvent = model
  .define("crypto_payment_event", {
    id: model.id({ prefix: "cryptoevt" }).primaryKey(),
    event_key: model.text().unique(),
    /** crypto_payment.created, .detected, .paid … */
    name: model.text(),
    /** The ledger row (crypto_payment.id). */
    crypto_payment_id: model.text(),
    /** The service's payment id. */
    payment_id: model.text().index(),
    payment_collection_id: model.text().nullable(),
    order_id: model.text().nullable(),
    claimed_until: model.dateTime().nullable(),
    attempts: model.number().default(0),
    delivered_at: model.dateTime().nullable(),
  })
  .indexes([
    { on: ["created_at"], where: "delivered_at IS NULL" },
    // the job's retention deletes, oldest delivery first
    { on: ["delivered_at"], where: "delivered_at IS NOT NULL" },
  ])

export default CryptoPaymentEvent
