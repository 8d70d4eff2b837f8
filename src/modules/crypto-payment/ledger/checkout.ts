import type { Knex } from "knex"
import { checkoutPaymentOf, CheckoutPayment } from "../../../lib/domain/checkout-payment"
import type { LedgerRow, OwedRecord } from "./row"

export type LedgerCheckout = CheckoutPayment<LedgerRow, OwedRecord>

/** A chain deeper than this is not one the plugin makes (each remainder asks the rest of the one before). */
const MAX_DEPTH = 32

/** Walks up `remainder_of` from a payment ("up", deepest last): its first payment is the deepest row. */
const UP = `"up" as (
    select "payment_id", "remainder_of", 0 as "depth" from "crypto_payment" where "payment_id" = ? and "deleted_at" is null
    union all
    select p."payment_id", p."remainder_of", u."depth" + 1 from "crypto_payment" p
      join "up" u on p."payment_id" = u."remainder_of" where p."deleted_at" is null and u."depth" < ${MAX_DEPTH}
  )`
const FIRST = `(select "payment_id" from "up" order by "depth" desc limit 1)`

/**
 * Walks up `remainder_of` from a payment to the first one, then down to every payment whose chain
 * leads there: the rows of one checkout's payment, in one statement.
 */
const CHECKOUT_ROWS = `with recursive ${UP}, "down" as (
    select p."payment_id", 0 as "depth" from "crypto_payment" p
      where p."payment_id" = ${FIRST} and p."deleted_at" is null
    union all
    select p."payment_id", d."depth" + 1 from "crypto_payment" p
      join "down" d on p."remainder_of" = d."payment_id" where p."deleted_at" is null and d."depth" < ${MAX_DEPTH}
  )
  select p.* from "crypto_payment" p where p."deleted_at" is null and p."payment_id" in (select "payment_id" from "down")
  order by p."created_at", p."id"`

/** Takes the refund lock of the checkout a payment belongs to (none for a payment the ledger lacks). */
const LOCK_FIRST = `with recursive ${UP}
  select pg_advisory_xact_lock(hashtext('crypto_refund:' || "payment_id")) from ${FIRST} as "first"`

/**
 * The one read of a checkout's payment (lib/domain/checkout-payment.ts): its ledger rows and their owed
 * records, on the connection or transaction given.
 */
export async function readCheckoutPayment(
  db: Knex | Knex.Transaction,
  paymentId: string
): Promise<LedgerCheckout | undefined> {
  const { rows } = (await db.raw(CHECKOUT_ROWS, [paymentId])) as { rows: LedgerCheckout["first"][] }
  if (!rows.length) return undefined
  const { rows: records } = (await db.raw(
    `select * from "crypto_owed_amount" where "payment_id" = any(?) and "deleted_at" is null order by "created_at", "id"`,
    [rows.map((row) => row.payment_id)]
  )) as { rows: LedgerCheckout["records"] }
  return checkoutPaymentOf(rows, records, paymentId)
}

/**
 * So two refunds of one checkout never both read what was refunded before either wrote. An advisory lock,
 * not Medusa's locking module: the provider's container has none, and Medusa's completion-failure
 * compensation refunds while a reconcile run holds the collection's lock.
 */
export async function underRefundLock<T>(
  db: Knex,
  paymentId: string,
  work: (trx: Knex.Transaction, checkout: LedgerCheckout | undefined) => Promise<T>
): Promise<T> {
  return db.transaction(async (trx) => {
    // the lock is its first payment's, found up the chain (a remainder never changes which one that is)
    await trx.raw(LOCK_FIRST, [paymentId])
    return work(trx, await readCheckoutPayment(trx, paymentId))
  })
}
