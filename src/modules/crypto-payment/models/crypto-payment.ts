import { model } from "@medusajs/framework/utils"

/**
 * The ledger: one row per invoice or payment the shop ever created at the service, never deleted with
 * its session (Medusa deletes sessions when the coin or cart total changes, while the invoice stays
 * payable). `applied` and `settled` are written only after the effect was verified.
 */
const CryptoPayment = model
  .define("crypto_payment", {
    id: model.id({ prefix: "cryptopay" }).primaryKey(),
    /** The service's invoice or payment id. */
    payment_id: model.text().unique(),
    /** The Medusa payment session it was created for (which may since have been deleted or replaced). */
    session_id: model.text().index(),
    payment_collection_id: model.text().nullable(),
    /** The payment provider that created it (pp_crypto_<id>): the one that can read its status. */
    provider_id: model.text().nullable(),
    kind: model.enum(["invoice", "payment"]),

    // ---- what was agreed at creation
    /**
     * What Medusa asked for: the store amount at its currency's decimals, and that currency (USD, EUR,
     * JPY …). Every later amount (coverage, excess, late, owed, refund) is in it, at this payment's
     * rate: the required coins ÷ this amount.
     */
    base_amount: model.text(),
    base_currency: model.text(),
    /**
     * A store currency the service does not take: the USD asked (store amount × rate × (1 + markup),
     * rounded up to the cent) and how it was priced. Null when the service took the currency itself.
     */
    usd_amount: model.text().nullable(),
    exchange_rate: model.text().nullable(),
    rate_source: model.text().nullable(),
    rate_url: model.text().nullable(),
    rate_published_on: model.text().nullable(),
    rate_markup_percent: model.text().nullable(),
    /** Payment: the coin amount asked for (decimal text). Invoice: null; see quotes. */
    crypto_amount: model.text().nullable(),
    /** Invoice: the amount quoted per coin at creation ({ BTC: "0.001…" }). */
    quotes: model.json().nullable(),
    invoice_url: model.text().nullable(),
    qr_code: model.text().nullable(),
    expires_at: model.dateTime().nullable(),
    /** Reads stop after this time unless the payment settles sooner (expiry + the late-payment window). */
    watch_until: model.dateTime().nullable(),

    // ---- the service's latest status, as last read
    /** PENDING, COMPLETED, EXPIRED, FAILED. */
    status: model.text().default("PENDING"),
    /** The decision: paid, pending, expired, failed, mismatch. */
    outcome: model.text().default("pending"),
    /** Payment: its coin from creation. Invoice: the coin the customer chose, once known. */
    coin: model.text().nullable(),
    address: model.text().nullable(),
    received_amount: model.text().nullable(),
    required_amount: model.text().nullable(),
    confirmations: model.number().default(0),
    required_confirmations: model.number().nullable(),
    /**
     * `{ record, readAt }`, written by every read of every process. A final one is reused by checkout,
     * capture and polls until a later read replaces it; a pending one by polls for statusCacheSeconds.
     */
    last_read: model.json().nullable(),

    // ---- flags for the admin
    underpaid: model.boolean().default(false),
    overpaid: model.boolean().default(false),
    /** Paid after its invoice expired or its order was canceled. */
    paid_late: model.boolean().default(false),
    /** Paid for an order or cart that another payment had already paid. */
    paid_twice: model.boolean().default(false),
    /** Paid after its session was replaced (another coin, another cart total). */
    replaced_session: model.boolean().default(false),
    /** The status record does not match what was agreed (other coin, less money, unknown payment). */
    mismatch: model.boolean().default(false),
    /** The service re-priced the invoice beyond quoteDriftAlertPercent (informational: never blocks the capture). */
    quote_drift: model.boolean().default(false),
    /** Expired short within the underpayment tolerance and captured: the shortfall is the shop's (informational). */
    accepted_short: model.boolean().default(false),
    /** The last re-price seen: { coin, quoted, required, percent }. */
    drift: model.json().nullable(),
    needs_attention: model.boolean().default(false),
    /** Why the admin should look at this payment, and what to do. */
    attention: model.text().nullable(),
    /** Flags already logged at warn, so each is logged once: { paid_late: "2026-…" }. */
    warned: model.json().nullable(),

    // ---- what happened in Medusa
    /**
     * Unique: one payment pays a session, a second one is "paid twice". Written before the capture is
     * attempted, so a crash between the two is recovered by the next read.
     */
    capture_session_id: model.text().nullable(),
    order_id: model.text().nullable(),
    /**
     * The display id of order_id's order (the number the dashboard shows): copied from Medusa's order
     * table when order_id is written, and by the job for older rows, so the admin lists and filters by it.
     */
    order_display_id: model.number().nullable(),
    /** A remainder: the short payment whose rest this payment asks (same session, same coin). */
    remainder_of: model.text().nullable(),
    // ---- money owed to the customer (records in crypto_owed_amount; the service has no refund API)
    /** Some owed amount of this payment is not marked sent yet (the admin's "owed to customers"). */
    refund_owed: model.boolean().default(false),
    /**
     * Captured in Medusa, but no order exists after the cart's completion (it failed after the
     * capture, say the last unit sold meanwhile, and Medusa swallowed it): needs attention, coins owed.
     */
    captured_no_order: model.boolean().default(false),
    /** The effect verified in Medusa: capture, cancel_order, cancel_session. */
    applied: model.text().nullable(),
    /** Nothing left to do and no more status reads. */
    settled: model.boolean().default(false),
    /** When it settled, and what settled it: webhook, reconcile (the job), admin (setup health's share over a day). */
    settled_at: model.dateTime().nullable(),
    settled_by: model.text().nullable(),
    /** The last notification at the plugin's webhook URL about this payment. */
    last_webhook_at: model.dateTime().nullable(),
    next_check_at: model.dateTime().nullable(),
    last_checked_at: model.dateTime().nullable(),
    check_failures: model.number().default(0),
    /** { entries: [{ at, source, status, outcome, confirmations, received, required, applied, note }] } */
    timeline: model.json().nullable(),
  })
  .indexes([
    { on: ["settled", "next_check_at"] },
    { on: ["payment_collection_id"] },
    { on: ["order_id"] },
    { on: ["capture_session_id"], unique: true },
    { on: ["settled_at"] },
    { on: ["order_display_id"] },
    // a checkout's remainders, read down from its first payment
    { on: ["remainder_of"], where: "remainder_of IS NOT NULL" },
    // the admin list's keyset indexes, on (created_at desc, id desc) and partial per flag, are in
    // Migration20261126180000: a data model index has no sort order
  ])

export default CryptoPayment
