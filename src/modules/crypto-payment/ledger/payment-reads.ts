import { MedusaError } from "@medusajs/framework/utils"
import type { Knex } from "knex"
import { cryptoError } from "../../../lib/domain/customer-errors"
import { isMissingTable } from "../missing-table"
import { LedgerCheckout, readCheckoutPayment } from "./checkout"
import type { LedgerRow, OwedRecord } from "./row"

/** A payment due for a status read: what the job needs to read it. */
export type DuePayment = Pick<LedgerRow, "id" | "payment_id" | "provider_id" | "check_failures">

/** What a capture or cancel of a payment must lock: its payment collection and that collection's order. */
export type LockScope = { collectionId: string | null; orderId: string | null }

/** Whom a payment collection belongs to, as Medusa's link tables say: its order, and its cart (a checkout's). */
export type CollectionOwners = { orderId: string | null; cartId: string | null }

/** What the decision needs of every payment the ledger holds for a collection. */
const SIBLING_COLUMNS = [
  "payment_id",
  "session_id",
  "capture_session_id",
  "remainder_of",
  "created_at",
  "status",
  "settled",
  "coin",
  "received_amount",
  "required_amount",
  "base_amount",
  "base_currency",
]
  .map((column) => `"${column}"`)
  .join(", ")

const DUE_COLUMNS = `"id", "payment_id", "provider_id", "check_failures"`

/** The order of a payment collection from Medusa's link table, as a scalar subquery on `collection` (SQL). */
const orderOfCollection = (collection: string) =>
  `(select l."order_id" from "order_payment_collection" l
     where l."payment_collection_id" = ${collection} and l."deleted_at" is null limit 1)`

/** A missing table means the plugin was not added to `plugins` or its migration never ran: say so. */
export function ledgerError(error: unknown): Error {
  if (isMissingTable(error)) return cryptoError(MedusaError.Types.NOT_ALLOWED, "crypto.not_set_up")
  return error as Error
}

/**
 * The ledger's reads: one statement each on the shared connection (the capture path reads a row
 * several times under its lock, and the ORM's entity building cost more than the query).
 */
export class LedgerReads {
  constructor(protected readonly db: () => Knex) {}

  /** Runs a statement on the connection (or `trx`), its rows; a missing table says the plugin is not set up. */
  protected async rows<T>(sql: string, bindings: unknown[], trx?: Knex.Transaction): Promise<T[]> {
    try {
      const result = await (trx ?? this.db()).raw(sql, bindings as Knex.RawBinding[])
      return (result as { rows: T[] }).rows
    } catch (error) {
      throw ledgerError(error)
    }
  }

  async byPaymentId(paymentId: string): Promise<LedgerRow | undefined> {
    return this.first(`"payment_id" = ?`, [paymentId])
  }

  /**
   * The payment that pays a session: one claimed for it (a replaced session's payment that covers
   * the cart), else the newest payment created for it.
   */
  async forSession(sessionId: string): Promise<LedgerRow | undefined> {
    return this.first(
      `("capture_session_id" = ? or "session_id" = ?)`,
      [sessionId, sessionId],
      `("capture_session_id" is not null) desc, "created_at" desc`
    )
  }

  /** The newest payment created for a session (updatePayment creates a new one per amount). */
  async latestOfSession(sessionId: string): Promise<LedgerRow | undefined> {
    return this.first(`"session_id" = ?`, [sessionId])
  }

  /** The newest remainder asked for a short payment, if any. */
  async remainderOf(paymentId: string): Promise<LedgerRow | undefined> {
    return this.first(`"remainder_of" = ?`, [paymentId])
  }

  /** Unsettled payments of a session other than `except`, newest first. */
  async openOfSession(sessionId: string, except: string): Promise<string[]> {
    const rows = await this.select(
      `"session_id" = ? and "payment_id" <> ? and "settled" = false`,
      [sessionId, except],
      `"created_at" desc`,
      20
    )
    return rows.map((row) => row.payment_id)
  }

  /**
   * The newest unsettled first payment (not a remainder) of an order's collections, by Medusa's link
   * table: one statement, so an order placed with another provider costs its `order.placed` one probe.
   */
  async openFirstOfOrder(orderId: string): Promise<LedgerRow | undefined> {
    return this.first(
      `"payment_collection_id" in (select l."payment_collection_id" from "order_payment_collection" l
         where l."order_id" = ? and l."deleted_at" is null) and "settled" = false and "remainder_of" is null`,
      [orderId]
    )
  }

  /**
   * The payments of an order's collections that say "captured, no order": the order that just met them may
   * be paid with their capture. One statement by Medusa's link table, as openFirstOfOrder.
   */
  async noOrderClaimsOfOrder(orderId: string): Promise<LedgerRow[]> {
    return this.select(
      `"captured_no_order" = true and "payment_collection_id" in (select l."payment_collection_id"
         from "order_payment_collection" l where l."order_id" = ? and l."deleted_at" is null)`,
      [orderId],
      `"created_at" asc`,
      20
    )
  }

  /** The checkout's payment a payment belongs to: its first payment, every remainder and their owed records. */
  async checkoutOf(paymentId: string): Promise<LedgerCheckout | undefined> {
    return readCheckoutPayment(this.db(), paymentId).catch((error) => {
      throw ledgerError(error)
    })
  }

  /** What a capture or cancel of the payment must lock, in one read (Medusa's link table gives the order). */
  async lockScopeOf(paymentId: string): Promise<LockScope | undefined> {
    const [scope] = await this.rows<LockScope>(
      `select p."payment_collection_id" as "collectionId", ${orderOfCollection(`p."payment_collection_id"`)} as "orderId"
       from "crypto_payment" p where p."payment_id" = ? and p."deleted_at" is null limit 1`,
      [paymentId]
    )
    return scope
  }

  /**
   * The collection's order and cart in one read of Medusa's link tables (a collection Medusa created on
   * an existing order has no cart; a checkout's has no order until its cart completed).
   */
  async ownersOfCollection(collectionId: string): Promise<CollectionOwners> {
    const [owners] = await this.rows<CollectionOwners>(
      `select ${orderOfCollection("?")} as "orderId",
         (select c."cart_id" from "cart_payment_collection" c
           where c."payment_collection_id" = ? and c."deleted_at" is null limit 1) as "cartId"`,
      [collectionId, collectionId]
    )
    return owners ?? { orderId: null, cartId: null }
  }

  /** The ledger's payments for a collection, oldest first (at most 1,000: a cart's churn is bounded far below). */
  async ofCollection(collectionId: string): Promise<LedgerRow[]> {
    return this.select(`"payment_collection_id" = ?`, [collectionId], `"created_at" asc`, 1000, SIBLING_COLUMNS)
  }

  /**
   * How many payments the shop created for a payment collection since `since` (every session and
   * every new amount makes one), and when the oldest of them was created: bounds a cart's churn.
   */
  async createdForCollectionSince(collectionId: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
    const [row] = await this.rows<{ count: number; oldest: Date | null }>(
      `select count(*)::int as "count", min("created_at") as "oldest" from "crypto_payment"
       where "payment_collection_id" = ? and "created_at" > ? and "deleted_at" is null`,
      [collectionId, since]
    )
    return { count: row?.count ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null }
  }

  /**
   * The unsettled payments due for a status read, oldest due first, at most `limit`: a range scan of
   * the (settled, next_check_at) index, whatever the size of the ledger.
   */
  async listDue(now: Date, limit: number): Promise<DuePayment[]> {
    return this.select(`"settled" = false and "next_check_at" <= ?`, [now], `"next_check_at" asc`, limit, DUE_COLUMNS)
  }

  /**
   * Settled payments whose watch is due (money after capture, a second payment, a late one): the
   * same index, the lowest priority; the job gives them a small share of each tick.
   */
  async listDueSettled(now: Date, limit: number): Promise<DuePayment[]> {
    return this.select(`"settled" = true and "next_check_at" <= ?`, [now], `"next_check_at" asc`, limit, DUE_COLUMNS)
  }

  async listOwed(paymentIds: string[]): Promise<OwedRecord[]> {
    if (!paymentIds.length) return []
    return this.rows<OwedRecord>(
      `select * from "crypto_owed_amount" where "payment_id" = any(?) and "deleted_at" is null
       order by "created_at" asc limit 1000`,
      [paymentIds]
    )
  }

  private async first(where: string, bindings: unknown[], order = `"created_at" desc`): Promise<LedgerRow | undefined> {
    const [row] = await this.select(where, bindings, order, 1)
    return row
  }

  private async select(
    where: string,
    bindings: unknown[],
    order: string,
    limit: number,
    columns = "*"
  ): Promise<LedgerRow[]> {
    return this.rows<LedgerRow>(
      `select ${columns} from "crypto_payment" where ${where} and "deleted_at" is null order by ${order} limit ?`,
      [...bindings, limit]
    )
  }
}
