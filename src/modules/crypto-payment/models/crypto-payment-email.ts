import { model } from "@medusajs/framework/utils"

/**
 * One row per payment and kind, claimed before the Notification Module is asked, so each is sent at
 * most once whatever delivers its event twice.
 */
const CryptoPaymentEmail = model
  .define("crypto_payment_email", {
    id: model.id({ prefix: "cryptomail" }).primaryKey(),
    payment_id: model.text(),
    kind: model.text(),
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
    notification_id: model.text().nullable(),
  })
  .indexes([
    { on: ["payment_id", "kind"], unique: true },
    // the job's retention deletes: finished records, oldest first
    { on: ["updated_at"], where: "status IN ('sent', 'failed', 'skipped')" },
  ])

export default CryptoPaymentEmail
