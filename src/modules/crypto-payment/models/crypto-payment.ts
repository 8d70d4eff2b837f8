import { model } from "@medusajs/framework/utils"

/**
 * What the store knows about one crypto payment session: the service's latest status and
 * amounts, what the plugin did about it, flags for the admin, a timeline of every change,
 * and when reconciliation should look again.
 */
const CryptoPayment = model
  .define("crypto_payment", {
    id: model.id({ prefix: "cryptopay" }).primaryKey(),
    session_id: model.text().unique(),
    payment_id: model.text().searchable(),
    kind: model.enum(["invoice", "payment"]),
    /** The service's status: PENDING, COMPLETED, EXPIRED, FAILED. */
    status: model.text(),
    /** The decision: paid, pending, expired, failed, mismatch. */
    outcome: model.text(),
    coin: model.text().nullable(),
    received_amount: model.text().nullable(),
    required_amount: model.text().nullable(),
    confirmations: model.number().default(0),
    required_confirmations: model.number().nullable(),
    underpaid: model.boolean().default(false),
    overpaid: model.boolean().default(false),
    /** Paid after its invoice expired or its order was canceled: the admin must act. */
    paid_late: model.boolean().default(false),
    /** Why the admin should look at this payment, when they should. */
    attention: model.text().nullable(),
    /** What the plugin did last: captured, order_canceled, session_canceled, none. */
    applied: model.text().nullable(),
    /** No more status reads needed. */
    settled: model.boolean().default(false),
    next_check_at: model.dateTime().nullable(),
    last_checked_at: model.dateTime().nullable(),
    check_failures: model.number().default(0),
    /** { entries: [{ at, status, confirmations, received, source }] } */
    timeline: model.json().nullable(),
  })
  .indexes([{ on: ["settled", "next_check_at"] }])

export default CryptoPayment
