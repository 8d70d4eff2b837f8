import { OwedRecords } from "./owed-records"

/**
 * The ledger of crypto payments: one row per invoice or payment the shop created at the service (its
 * latest status, its flags, what was applied in Medusa and when to read it again) and the coins owed
 * back. Every statement on crypto_payment and crypto_owed_amount is here, raw SQL on the shared
 * connection: the core writes a row inside Medusa's call to the provider, whose container cannot resolve
 * a module. Reads: payment-reads.ts; a payment's writes: payment-records.ts; owed records: owed-records.ts.
 */
export class Ledger extends OwedRecords {}

export type { LedgerRow, OwedRecord } from "./row"
export type { LedgerCheckout } from "./checkout"
export type { OpenedPayment, PaymentExchange } from "./opening"
export type { DuePayment, LockScope } from "./payment-reads"
export type { RecordColumn } from "./payment-records"
export type { OwedRefund } from "./owed-records"
export { ledgerError } from "./payment-reads"
