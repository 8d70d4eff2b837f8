/**
 * What is still due, exactly (decimal text, never floats): on an order's payment collections, and on
 * a crypto payment that arrived short.
 */
import type { CryptoPayment } from "./payment-types"
import { compareDecimals, subtractDecimals } from "./decimal"

/** A payment collection of an order, as `GET /admin/orders/:id` returns it. */
export type OrderCollection = {
  id: string
  status: string
  amount: number | string
  captured_amount?: number | string | null
  currency_code: string
}

export type OutstandingCollection = { collection: OrderCollection; due: string }

/**
 * Statuses of a collection nobody has paid in full yet. An order edit, claim or exchange that costs
 * more leaves one `not_paid`; a fully captured checkout collection is `completed` and never listed.
 */
const OPEN_STATUSES: ReadonlySet<string> = new Set(["not_paid", "awaiting", "partially_authorized"])

export function outstandingCollections(collections: OrderCollection[]): OutstandingCollection[] {
  return collections.flatMap((collection) => {
    if (!OPEN_STATUSES.has(collection.status)) return []
    const due = subtractDecimals(collection.amount, collection.captured_amount ?? 0)
    return due !== null && compareDecimals(due, 0) === 1 ? [{ collection, due }] : []
  })
}

/** Required − received of a short payment in `status` (exact, in its coin), or null when it is not short. */
function missingOf(payment: CryptoPayment, status: CryptoPayment["status"]): string | null {
  if (payment.status !== status || !payment.flags.includes("underpaid") || !payment.coin) return null
  if (payment.amount_required === null) return null
  const missing = subtractDecimals(payment.amount_required, payment.amount_received)
  return missing !== null && compareDecimals(missing, 0) === 1 ? missing : null
}

/**
 * What an expired, short payment misses, when the admin may request it as a remainder payment (it
 * is not settled: no remainder completed it yet); null otherwise.
 */
export function shortfallOf(payment: CryptoPayment): string | null {
  return payment.settled ? null : missingOf(payment, "EXPIRED")
}

/**
 * What an underpaid payment still waits for, in its coin ("0.0004"), while the customer can still send
 * it to the same address: PENDING, flagged underpaid, coin and both amounts known. Null otherwise.
 */
export function remainingToSend(payment: CryptoPayment): string | null {
  return missingOf(payment, "PENDING")
}
