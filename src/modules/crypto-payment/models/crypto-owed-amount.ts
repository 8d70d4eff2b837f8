import { model } from "@medusajs/framework/utils"

/**
 * Money owed a customer, open until an admin marks it sent (the service has no refund API). A refund is
 * keyed by Medusa's refund id, so a retry is one row; an excess by the amount received, so more money
 * later adds only the part beyond what was recorded.
 */
const CryptoOwedAmount = model
  .define("crypto_owed_amount", {
    id: model.id({ prefix: "cryptoowed" }).primaryKey(),
    /** The service's payment id (the ledger row it belongs to). */
    payment_id: model.text().index(),
    kind: model.enum(["refund", "excess", "late"]),
    /** Unique per payment: the refund id, or the kind and the amount received when it was seen. */
    key: model.text(),
    /** Medusa's refund (kind refund). */
    refund_id: model.text().nullable(),
    coin: model.text().nullable(),
    /** Coins to send (decimal text), or null while the payment's coin amount is unknown. */
    coin_amount: model.text().nullable(),
    /** The coins it was written with, before any refund basis changed coin_amount. */
    recorded_coin_amount: model.text().nullable(),
    base_amount: model.text(),
    base_currency: model.text(),
    sent_at: model.dateTime().nullable(),
    /** What the admin noted when sending it (a transaction hash, say). */
    reference: model.text().nullable(),

    // ---- where the coins go back (the customer's refund-address link)
    /** When the customer's link stops working; null: 30 days after creation (the admin renews it). */
    link_expires_at: model.dateTime().nullable(),
    /** The random secret the link carries (`<id>.<secret>`); a new one revokes every earlier copy. */
    link_secret: model.text().nullable(),
    /** Links emailed before secrets (an HMAC of the id) open until then; null: never. */
    link_legacy_until: model.dateTime().nullable(),
    /** The address the customer gave, validated for `refund_coin`'s network (mainnet only). */
    refund_address: model.text().nullable(),
    /** The coin and network the address is for (BTC, ETH, LTC, USDT_ERC20, USDT_BEP20). */
    refund_coin: model.text().nullable(),
    address_given_at: model.dateTime().nullable(),
    /** "customer" (through the link), or the admin user who typed it. */
    address_given_by: model.text().nullable(),
    /** The admin started sending the coins: the address can no longer change. */
    payout_started_at: model.dateTime().nullable(),
    payout_started_by: model.text().nullable(),

    // ---- the refund's basis, as the admin chose it (null: the rate the payment was priced at)
    /** rate_then: the refunded share at the payment's rate; fixed_coins: coins the admin typed. */
    basis: model.text().nullable(),
    /** A fee taken off the coins, in percent (decimal text). */
    fee_percent: model.text().nullable(),
    basis_chosen_by: model.text().nullable(),
    basis_chosen_at: model.dateTime().nullable(),
  })
  .indexes([{ on: ["payment_id", "key"], unique: true }])

export default CryptoOwedAmount
