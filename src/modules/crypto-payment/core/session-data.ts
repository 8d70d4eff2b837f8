import { z } from "zod"
import type { Coin } from "../../../lib/crypto-api/constants"
import type { PlaceOrder } from "./options"
import { noPaymentError } from "./errors"

/**
 * All of it is public: never the API key, the webhook token or an upstream body. Medusa merges what the
 * storefront sent into it, so the provider reads only the session id back and the rest from the ledger.
 */
export type CryptoSessionData = {
  session_id: string
  paymentId: string
  kind: "invoice" | "payment"
  invoiceUrl: string
  expiresAt: string
  status: "PENDING"
  /** When the shop places the order: before the payment (awaiting it) or once it is paid; the storefront's checkout follows it. */
  placeOrder: PlaceOrder
  /** What Medusa asked for: amount at the store currency's precision, and that currency (USD, EUR, JPY …). */
  baseAmount: string
  baseCurrency: string
  /** A store currency the service does not take, priced in USD: a storefront shows "€46.00 ≈ $49.88". */
  exchange?: {
    usdAmount: string
    rate: string
    source: string
    publishedOn: string | null
    markupPercent: string
  }
  /** Payment: the coin amount to send, exact decimal text (up to the coin's native decimals). */
  cryptoAmount?: string
  /** @deprecated The coin amount as a JSON number, which cannot hold 18 decimals: read `cryptoAmount`. Kept one release. */
  amount?: number
  /**
   * Payment: the coin, the address (EIP-55 for the EVM coins, as the views show it; any other as the
   * service wrote it) and the service's QR payload (as it wrote it: no wallet's scheme).
   */
  currency?: Coin
  address?: string
  qrCode?: string
  /** Payment: BIP-21 / EIP-681 for the amount at the address, what a QR code and an "open in wallet" link carry. */
  walletUri?: string
  /** Invoice: the amount quoted per coin (decimal text). */
  quotes?: Record<string, string>
}

/** The only thing read back from session data: which Medusa session this is. */
const sessionRefSchema = z.looseObject({ session_id: z.string().min(1) })

export function sessionIdOf(data: unknown): string | undefined {
  const parsed = sessionRefSchema.safeParse(data)
  return parsed.success ? parsed.data.session_id : undefined
}

export function requiredSessionId(data: unknown): string {
  const sessionId = sessionIdOf(data)
  if (!sessionId) throw noPaymentError()
  return sessionId
}

/** What the storefront may pass when it creates a session: the coin, or nothing (an invoice). */
export const storefrontInputSchema = z.looseObject({
  currency: z.string().nullish(),
})
