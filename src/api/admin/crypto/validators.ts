import { z } from "zod"
import { COINS, PAYMENT_STATUSES } from "../../../lib/crypto-api/constants"
import { LEDGER_FLAGS } from "../../../modules/crypto-payment/types"
import { latePaymentsSchema, tolerancePercentSchema } from "../../../lib/domain/merchant-policy"
import { REFUND_BASES } from "../../../lib/domain/refund-basis"

export const AdminCryptoPaymentsQuery = z.object({
  order_id: z.string().min(1).optional(),
  status: z.enum(PAYMENT_STATUSES).optional(),
  flag: z.enum(LEDGER_FLAGS).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(20),
  offset: z.coerce.number().int().min(0).default(0),
})
export type AdminCryptoPaymentsQueryType = z.infer<typeof AdminCryptoPaymentsQuery>

export const AdminCryptoRefundSent = z.object({
  reference: z.string().trim().min(1).max(200).optional(),
})
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

export const AdminCryptoSettingsQuery = z.object({
  provider_id: z.string().min(1).optional(),
})

/** The refund's basis for one owed record: the payment's rate, or coins the admin types; an optional fee. */
export const AdminCryptoRefundBasis = z.strictObject({
  basis: z.enum(REFUND_BASES),
  coins: z
    .string()
    .regex(/^\d+(\.\d+)?$/, "must be a decimal number of coins, like 0.0051")
    .optional(),
  fee_percent: z
    .string()
    .regex(/^\d{1,3}(\.\d{1,2})?$/, "must be a percentage with at most two decimals")
    .refine((v) => Number(v) <= 100, "must be at most 100")
    .optional(),
})
export type AdminCryptoRefundBasisType = z.infer<typeof AdminCryptoRefundBasis>
