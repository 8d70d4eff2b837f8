import { z } from "zod"
import { COINS, PAYMENT_STATUSES } from "../../../lib/crypto-api/constants"
import { LEDGER_FLAGS } from "../../../modules/crypto-payment/types"

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
