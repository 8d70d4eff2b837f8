import { model } from "@medusajs/framework/utils"

/**
 * The customer emails of a payment, one row per payment and kind (link, detected, paid, expired,
 * remainder): claimed before the Notification Module is asked, so each is sent at most once whatever
 * delivers its event twice. Also records why one was not sent (no order email, no provider serves the
 * channel), for the admin's timeline.
 */
const CryptoPaymentEmail = model
  .define("crypto_payment_email", {
    id: model.id({ prefix: "cryptomail" }).primaryKey(),
    payment_id: model.text(),
    kind: model.text(),
    /** The event that caused it. */
    event_key: model.text().nullable(),
    order_id: model.text().nullable(),
    template: model.text(),
    channel: model.text(),
    to: model.text().nullable(),
    locale: model.text().nullable(),
    /** sending, sent, failed, skipped */
    status: model.text(),
    /** Why it was skipped or failed (never an upstream body). */
    reason: model.text().nullable(),
    /** The Notification Module's notification. */
    notification_id: model.text().nullable(),
  })
  .indexes([
    { on: ["payment_id", "kind"], unique: true },
    // the job's retention deletes: finished records, oldest first
    { on: ["updated_at"], where: "status IN ('sent', 'failed', 'skipped')" },
  ])

export default CryptoPaymentEmail
