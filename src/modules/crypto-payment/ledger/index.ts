import { OwedRecords } from "./owed-records"

/**
 * The ledger: every statement on crypto_payment and crypto_owed_amount, raw SQL on the shared
 * connection, because the core writes a row inside Medusa's call to the provider, whose container
 * cannot resolve a module.
 */
export class Ledger extends OwedRecords {}

export type { LedgerRow, OwedRecord } from "./row"
export type { LedgerCheckout } from "./checkout"
export type { OpenedPayment, PaymentExchange } from "./opening"
export type { DuePayment } from "./payment-reads"
export type { OwedRefund } from "./owed-records"
