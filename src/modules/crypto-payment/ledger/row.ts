import type { InferTypeOf } from "@medusajs/framework/types"
import type CryptoPayment from "../models/crypto-payment"
import type CryptoOwedAmount from "../models/crypto-owed-amount"

/** A table's row as a statement returns it: the model's columns, without the ORM's `raw_` twins of numbers. */
type Row<T> = Omit<T, `raw_${string}`>

export type LedgerRow = Row<InferTypeOf<typeof CryptoPayment>>

export type OwedRecord = Row<InferTypeOf<typeof CryptoOwedAmount>>
