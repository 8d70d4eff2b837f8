import { model } from "@medusajs/framework/utils"

/**
 * The event outbox, written with each transition and delivered after commit. `event_key` is unique, so
 * a transition recorded twice is one row; a process that dies mid-delivery leaves its claim to expire,
 * and another delivers again with the same key.
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
