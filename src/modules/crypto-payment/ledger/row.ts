import type { InferTypeOf } from "@medusajs/framework/types"
import type CryptoPayment from "../models/crypto-payment"
import type CryptoOwedAmount from "../models/crypto-owed-amount"

/** A table's row as a statement returns it: the model's columns, without the ORM's `raw_` twins of numbers. */
type Row<T> = Omit<T, `raw_${string}`>

/** A ledger row: one invoice or payment the shop created at the service (see the model). */
export type LedgerRow = Row<InferTypeOf<typeof CryptoPayment>>

/** Coins owed back to a customer: an excess, a late payment, or a refund Medusa made (see the model). */
export type OwedRecord = Row<InferTypeOf<typeof CryptoOwedAmount>>
