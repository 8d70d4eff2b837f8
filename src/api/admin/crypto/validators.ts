import { z } from "zod"
import { COINS, PAYMENT_STATUSES } from "../../../lib/crypto-api/constants"
import { LIST_FLAGS } from "../../../modules/crypto-payment/payment-list"
import { parseOrderRef } from "../../../lib/domain/order-ref"
import { decodeCursor } from "../../../modules/crypto-payment/list-cursor"
import { instantMicros, isoInstantParam } from "../../../lib/domain/iso-instant"
import { latePaymentsSchema, tolerancePercentSchema } from "../../../lib/domain/merchant-policy"
import { REFUND_BASES } from "../../../lib/domain/refund-basis"
import { EXPORT_KINDS } from "../../../lib/domain/accounting-export"
import { ACKNOWLEDGEMENT_SUBJECTS } from "../../../lib/domain/acknowledgement"

/** `order`: an order id or display id. `offset` is deprecated: given, the old offset page with its count answers. */
export const AdminCryptoPaymentsQuery = z
  .object({
    cursor: z
      .string()
      .refine((text) => !!decodeCursor(text), "cursor is not one this list handed out: start again from the first page")
      .optional(),
    limit: z.coerce.number().int().min(1).max(200).default(20),
    offset: z.coerce.number().int().min(0).optional(),
    status: z.enum(PAYMENT_STATUSES).optional(),
    flag: z.enum(LIST_FLAGS).optional(),
    coin: z.enum(COINS).optional(),
    created_from: isoInstantParam("created_from").optional(),
    created_to: isoInstantParam("created_to").optional(),
    order: z
      .string()
      .refine(
        (text) => !!parseOrderRef(text),
        "order must be an order id (order_…) or an order's display id (its number, like 1042)"
      )
      .optional(),
    order_id: z.string().min(1).optional(),
  })
  .refine((query) => !(query.cursor && query.offset !== undefined), {
    message: "offset cannot be combined with cursor: page with the cursors alone (offset is deprecated)",
    path: ["offset"],
  })
  .refine(
    (query) =>
      !query.created_from || !query.created_to || instantMicros(query.created_from) < instantMicros(query.created_to),
    {
      message: "created_to must be later than created_from: the range is [created_from, created_to)",
      path: ["created_to"],
    }
  )
export type AdminCryptoPaymentsQueryType = z.infer<typeof AdminCryptoPaymentsQuery>

/**
 * GET /admin/crypto/payments/export: the accounting export of [from, to) (instants with their offset),
 * the payments created in it (kind payments) or the owed records created or sent in it (kind refunds),
 * for one provider or all.
 */
export const AdminCryptoPaymentsExportQuery = z
  .object({
    from: isoInstantParam("from"),
    to: isoInstantParam("to"),
    provider_id: z
      .string()
      .regex(/^pp_crypto_/, "provider_id must be a crypto provider id (pp_crypto_…)")
      .optional(),
    kind: z.enum(EXPORT_KINDS).default("payments"),
  })
  .refine((query) => instantMicros(query.from) < instantMicros(query.to), {
    message: "to must be later than from: the export covers [from, to)",
    path: ["to"],
  })
export type AdminCryptoPaymentsExportQueryType = z.infer<typeof AdminCryptoPaymentsExportQuery>

const coinsText = z.string().regex(/^\d+(\.\d+)?$/, "must be a decimal number of coins, like 0.0051")

/** What a refund-sent body must carry; the message of a 400 for any body without it (the old ones too). */
export const REFUND_SENT_BODY =
  "Send owed: [{ id, coin_amount }]: each open record you mark sent, with the coins you were shown for it " +
  "(coin_amount null where none were shown), and reference if you have one. owed_ids, total with as_of, and a " +
  "body naming no records are no longer taken."

/**
 * The owed records the admin saw, each with its coins: 409 when one is no longer open or its coins changed.
 * A body without `owed` (the old `owed_ids`, `total` with `as_of`, or none) is a 400 saying what to send.
 */
export const AdminCryptoRefundSent = z
  .custom<Record<string, unknown>>(
    (body) => typeof body === "object" && body !== null && !Array.isArray(body) && "owed" in body,
    { message: REFUND_SENT_BODY }
  )
  .pipe(
    z.strictObject({
      reference: z.string().trim().min(1).max(200).optional(),
      owed: z
        .array(
          z.strictObject({
            id: z.string().min(1).max(100),
            coin_amount: z
              .string()
              .regex(/^\d+(\.\d+)?$/, "owed's coin_amount must be the coins shown for the record, like 0.0051, or null")
              .nullable(),
          })
        )
        .max(200)
        // a refinement, not min(1): Medusa's message for too_small drops the text
        .refine((owed) => owed.length > 0, "owed must name at least one record you sent")
        .refine((owed) => new Set(owed.map((o) => o.id)).size === owed.length, "owed names a record more than once"),
    })
  )
export type AdminCryptoRefundSentType = z.infer<typeof AdminCryptoRefundSent>

/** The coin path parameter: a bad one is a 400 naming the allowed coins, before the service is asked. */
export const AdminCryptoBalanceParams = z.object({
  currency: z.enum(COINS, { error: `currency must be one of ${COINS.join(", ")}` }),
})

/** A provider's policy saved from the admin: a field given as null goes back to medusa-config's option. */
export const AdminCryptoSettings = z
  .strictObject({
    provider_id: z
      .string()
      .regex(/^pp_crypto_/, "must be a crypto provider id (pp_crypto_…)")
      .optional(),
    underpayment_tolerance_percent: tolerancePercentSchema.nullable().optional(),
    late_payments: latePaymentsSchema.nullable().optional(),
    /** Take the exchange-rate publication held back for a jump of more than 20 %. */
    accept_held_rates: z.literal(true).optional(),
  })
  .refine(
    (body) =>
      body.underpayment_tolerance_percent !== undefined ||
      body.late_payments !== undefined ||
      body.accept_held_rates !== undefined,
    {
      message:
        "Give underpayment_tolerance_percent or late_payments (null goes back to the default), or accept_held_rates: true.",
    }
  )
export type AdminCryptoSettingsType = z.infer<typeof AdminCryptoSettings>

/** An API key saved from the policy panel (checked with the service before it is saved). */
export const AdminCryptoApiKey = z.strictObject({
  provider_id: z
    .string()
    .regex(/^pp_crypto_/, "must be a crypto provider id (pp_crypto_…)")
    .optional(),
  api_key: z
    .string()
    .trim()
    .min(8, "must be the API key from the service's dashboard")
    .max(500)
    .regex(/^[\x21-\x7e]+$/, "must be the API key from the service's dashboard (no spaces)"),
  /**
   * The last four characters of the key in use, typed by the admin: the change is made on purpose only.
   * Required while a key is in use (the provider compares it); the whole key is refused, never needed.
   */
  current_key_last4: z
    .string()
    .trim()
    .min(1, "must be the last four characters of the API key in use")
    .max(4, "must be the last four characters of the API key in use, not the whole key")
    .optional(),
})
export type AdminCryptoApiKeyType = z.infer<typeof AdminCryptoApiKey>

/**
 * A setup health line acknowledged: its subject, and the state it showed (the line's `acknowledge.value`),
 * so a state that changed since it was read is not acknowledged unseen.
 */
export const AdminCryptoAcknowledge = z.strictObject({
  provider_id: z
    .string()
    .regex(/^pp_crypto_/, "must be a crypto provider id (pp_crypto_…)")
    .optional(),
  subject: z.enum(ACKNOWLEDGEMENT_SUBJECTS),
  value: z.string().min(1).max(200),
})
export type AdminCryptoAcknowledgeType = z.infer<typeof AdminCryptoAcknowledge>

export const AdminCryptoSettingsQuery = z.object({
  provider_id: z.string().min(1).optional(),
})

/** The address the admin was shown when starting a payout (the body before 2026-11-27 had none: deprecated). */
export const AdminCryptoPayout = z.strictObject({
  address: z.string().trim().min(1).max(200).optional(),
})
export type AdminCryptoPayoutType = z.infer<typeof AdminCryptoPayout>

/** The refund's basis for one owed record: the payment's rate, or coins the admin types; an optional fee. */
export const AdminCryptoRefundBasis = z.strictObject({
  basis: z.enum(REFUND_BASES),
  coins: coinsText.optional(),
  fee_percent: z
    .string()
    .regex(/^\d{1,3}(\.\d{1,2})?$/, "must be a percentage with at most two decimals")
    .refine((v) => Number(v) <= 100, "must be at most 100")
    .optional(),
})
export type AdminCryptoRefundBasisType = z.infer<typeof AdminCryptoRefundBasis>

/** An address the customer gave the shop by another channel (email, phone), for one owed record. */
export const AdminCryptoRefundAddress = z.strictObject({
  coin: z.string().trim().min(1).max(20),
  address: z.string().max(200),
  network_confirmed: z.boolean().optional(),
})
export type AdminCryptoRefundAddressType = z.infer<typeof AdminCryptoRefundAddress>
