import type { AmountPrecision, Coin, PaymentStatus } from "./spec-facts"
import type { JsonDecimal } from "./json"

/** A transfer to a record's address on the simulated chain: its amount in units, and its confirmations so far. */
export type Transaction = { units: bigint; confirmations: number; at: string }

/**
 * One invoice or payment as the stand-in service records it, with its transactions: what the payment book
 * keeps (payment-book.ts), and what the views of it read (balances, webhooks, the spec and control APIs).
 */
export type BookEntry = {
  paymentId: string
  kind: "invoice" | "payment"
  baseAmount: number
  baseCurrency: string
  orderId?: string
  description?: string
  coin?: Coin
  address?: string
  /** The precision of the record's amounts, the payment book's at its creation (`decimals` of PaymentBookRules). */
  precision: AmountPrecision
  /** Units of the coin required (of 10^-decimals(record)), once a coin is known. */
  requiredUnits?: bigint
  conversionRates?: Record<Coin, { cryptoAmount: number | JsonDecimal; price: number }>
  /** This invoice's re-price at coin choice, in percent of the creation quote (POST /__sandbox/payments/:id/reprice). */
  repricePercent?: number
  transactions: Transaction[]
  status: PaymentStatus
  createdAt: string
  expiresAt: string
  completedAt?: string
  webhookUrl?: string
}
