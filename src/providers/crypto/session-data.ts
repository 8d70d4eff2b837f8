import { z } from "zod"
import { COINS, PAYMENT_STATUSES } from "../../lib/crypto-api/constants"
import type { SessionExpectation } from "../../lib/payment-decision"
import { numberToDecimalString } from "../../lib/decimal"

/**
 * The payment session's data. All of it is public (the storefront reads it): identifiers,
 * the hosted page, the address and QR payload, what was agreed and the progress. Never the
 * API key, the webhook token or an upstream body.
 */
export const sessionDataSchema = z.looseObject({
  session_id: z.string().min(1),
  paymentId: z.string().min(1),
  kind: z.enum(["invoice", "payment"]),
  invoiceUrl: z.string(),
  expiresAt: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  /** What Medusa asked for: amount at the store currency's precision, and that currency. */
  baseAmount: z.string(),
  baseCurrency: z.string(),
  /** Payment: the coin amount, coin, address and QR payload. */
  amount: z.number().optional(),
  currency: z.enum(COINS).optional(),
  address: z.string().optional(),
  qrCode: z.string().optional(),
  /** Invoice: the amount quoted per coin (decimal text). */
  quotes: z.record(z.string(), z.string()).optional(),
  confirmations: z.number().optional(),
  requiredConfirmations: z.number().optional(),
  receivedAmount: z.string().optional(),
  requiredAmount: z.string().optional(),
})
export type CryptoSessionData = z.infer<typeof sessionDataSchema>

/** What the storefront may pass when it creates a session. */
export const storefrontInputSchema = z.looseObject({
  currency: z.string().optional(),
})

export function parseSessionData(data: unknown): CryptoSessionData | undefined {
  const parsed = sessionDataSchema.safeParse(data)
  return parsed.success ? parsed.data : undefined
}

/** What the session agreed with the service, for the decision code. */
export function expectationOf(data: CryptoSessionData): SessionExpectation {
  if (data.kind === "payment") {
    return {
      paymentId: data.paymentId,
      kind: "payment",
      coin: data.currency,
      cryptoAmount: data.amount !== undefined ? numberToDecimalString(data.amount) : undefined,
    }
  }
  return { paymentId: data.paymentId, kind: "invoice", quotes: data.quotes }
}
