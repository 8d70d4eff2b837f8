import { MedusaError } from "@medusajs/framework/utils"
import type { Knex } from "knex"
import type { LedgerRow } from "./types"
import type { SavedPolicy } from "../../lib/domain/merchant-policy"
import { cryptoError } from "../../lib/domain/customer-errors"
import { entityId } from "../../lib/domain/entity-id"
import { PreparedStatement } from "./prepared-statement"
import { outboxEvents, outboxInsertSql, OUTBOX_TABLE } from "./payment-outbox"
import { CryptoPaymentEvents, eventSuffix, owedKey } from "../../lib/domain/payment-events"
import { ringOutbox } from "../../lib/runtime/outbox-bell"
import { isMissingTable } from "./missing-table"
import { LedgerCheckout, readCheckoutPayment, underRefundLock } from "./checkout-payments"

/** What the provider writes when the service has created an invoice or payment. */
export type OpenedPayment = {
  payment_id: string
  session_id: string
  kind: "invoice" | "payment"
  base_amount: string
  base_currency: string
  crypto_amount?: string
  quotes?: Record<string, string>
  coin?: string
  address?: string
  invoice_url: string
  qr_code?: string
  /** Null when the service's expiry could not be read (the watch window then counts from creation). */
  expires_at: string | null
  watch_until: Date
  next_check_at: Date
  /** The short payment this one asks the rest of (a remainder). */
  remainder_of?: string
  /** A converted store currency: how base_amount became the USD amount asked (see the model). */
  exchange?: PaymentExchange
}

/** How a store amount was priced in USD (a store currency the service does not take). */
export type PaymentExchange = {
  usd_amount: string
  exchange_rate: string
  rate_source: string
  rate_url: string | null
  rate_published_on: string | null
  rate_markup_percent: string
}

/** The ledger's calls the provider makes (the class's public face, without its database). */
export type ProviderQueryCalls = Pick<
  ProviderQueries,
  | "open"
  | "byPaymentId"
  | "forSession"
  | "latestOfSession"
  | "recordRefund"
  | "keepRead"
  | "readSoon"
  | "openOfSession"
  | "remainderOf"
  | "savedPolicy"
  | "checkoutOf"
>

const TABLE = "crypto_payment"
const OWED_TABLE = "crypto_owed_amount"

/** A refund Medusa made, as an owed record: coins at the payment's rate (null while its coin amount is unknown). */
export type OwedRefund = {
  payment_id: string
  /** Unique per payment: Medusa's refund id. */
  key: string
  refund_id: string | null
  coin: string | null
  coin_amount: string | null
  base_amount: string
  base_currency: string
}

/**
 * The ledger row of a payment just created, with its collection and provider from its session and
 * its order (and that order's display id) from the collection ($1: the session; $2..$24: the row).
 * With `writesSession`, the same statement also writes the session's data ($25). A row written also
 * writes its crypto_payment.created event to the outbox (its id from the row's: one per row).
 */
function openStatement(writesSession: boolean): string {
  const session = writesSession
    ? `update "payment_session" set "data" = $25::jsonb, "updated_at" = now() where "id" = $1
         returning "payment_collection_id", "provider_id"`
    : `select "payment_collection_id", "provider_id" from "payment_session" where "id" = $1`
  return `with "session" as (${session}), "link" as (
    select l."order_id", o."display_id" from "order_payment_collection" l left join "order" o on o."id" = l."order_id"
    where l."deleted_at" is null and l."payment_collection_id" = (select "payment_collection_id" from "session") limit 1
  ), "opened" as (
    insert into "${TABLE}" ("id", "payment_id", "session_id", "payment_collection_id", "provider_id", "order_id", "order_display_id", "kind",
      "base_amount", "base_currency", "crypto_amount", "quotes", "coin", "address", "invoice_url", "qr_code", "expires_at",
      "watch_until", "next_check_at", "remainder_of", "timeline", "usd_amount", "exchange_rate", "rate_source", "rate_url",
      "rate_published_on", "rate_markup_percent")
    values ($2, $3, $4, (select "payment_collection_id" from "session"), (select "provider_id" from "session"),
      (select "order_id" from "link"), (select "display_id" from "link"),
      $5, $6, $7, $8, $9::jsonb, $10, $11, $12, $13, $14, $15, $16, $17, $18::jsonb, $19, $20, $21, $22, $23, $24)
    on conflict do nothing
    returning "id", "payment_id", "payment_collection_id", "order_id")
    insert into "${OUTBOX_TABLE}" ("id", "event_key", "name", "crypto_payment_id", "payment_id", "payment_collection_id", "order_id")
    select replace(o."id", 'cryptopay_', 'cryptoevt_'), o."payment_id" || ':${eventSuffix(CryptoPaymentEvents.CREATED)}',
      '${CryptoPaymentEvents.CREATED}', o."id", o."payment_id", o."payment_collection_id", o."order_id"
    from "opened" o
    on conflict ("event_key") do nothing`
}

/**
 * The SQL the crypto provider runs on the ledger (this module's crypto_payment and crypto_owed_amount
 * tables) — kept here, beside the module service that owns those tables, so the table has one home.
 *
 * Why the provider does not call the module service: a payment provider lives inside Medusa's payment
 * module, and its container holds only the manager, the config, the logger and the pg connection: it
 * cannot resolve another module. Yet the row must be written the moment the service has created the
 * payment, before Medusa can delete or replace the session.
 *
 * Beyond the ledger's tables, these statements also write Medusa's `payment_session` (the session's
 * data, in the same statement as the row: `open`) and read `payment_session` and
 * `order_payment_collection` (the row's collection, provider and order). The open runs as a named
 * prepared statement on a raw pooled connection (./prepared-statement.ts): through MikroORM it would
 * lose its named plan, and checkout would pay for planning it on every session.
 */
export class ProviderQueries {
  private readonly opens: { row: PreparedStatement; withSession: PreparedStatement }

  constructor(private readonly db: () => Knex) {
    this.opens = {
      row: new PreparedStatement(db, "crypto_ledger_open", openStatement(false)),
      withSession: new PreparedStatement(db, "crypto_ledger_open_session", openStatement(true)),
    }
  }

  /**
   * Writes the row of a payment just created at the service; its session's collection and provider
   * come from the session row, and the order from the collection when Medusa made it on an order
   * (an order edit's, a claim's, an exchange's): such a payment belongs to its order from the start.
   *
   * `sessionData`, for a session being created: the data Medusa is about to save on it (its input
   * and the provider's answer), written in the same statement. The paymentId is then on the session
   * and in the ledger at once, and Medusa's own write of that data finds nothing left to change
   * (one statement fewer on every crypto session).
   */
  async open(payment: OpenedPayment, sessionData?: Record<string, unknown>): Promise<void> {
    const entry = {
      at: new Date().toISOString(),
      source: "checkout",
      status: "PENDING",
      outcome: "pending",
      confirmations: 0,
      received: "0",
    }
    const values = [
      payment.session_id,
      entityId("cryptopay"),
      payment.payment_id,
      payment.session_id,
      payment.kind,
      payment.base_amount,
      payment.base_currency,
      payment.crypto_amount ?? null,
      payment.quotes ? JSON.stringify(payment.quotes) : null,
      payment.coin ?? null,
      payment.address ?? null,
      payment.invoice_url,
      payment.qr_code ?? null,
      payment.expires_at,
      payment.watch_until,
      payment.next_check_at,
      payment.remainder_of ?? null,
      JSON.stringify({ entries: [entry] }),
      payment.exchange?.usd_amount ?? null,
      payment.exchange?.exchange_rate ?? null,
      payment.exchange?.rate_source ?? null,
      payment.exchange?.rate_url ?? null,
      payment.exchange?.rate_published_on ?? null,
      payment.exchange?.rate_markup_percent ?? null,
    ]
    try {
      if (sessionData) await this.opens.withSession.run([...values, JSON.stringify(sessionData)])
      else await this.opens.row.run(values)
    } catch (error) {
      throw ledgerError(error)
    }
    ringOutbox()
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
    return this.first(`"session_id" = ?`, [sessionId], `"created_at" desc`)
  }

  /**
   * Records a refund Medusa made on a session as an owed amount of its own (keyed by Medusa's refund
   * id: a retry is the same record, a second refund another), open until an admin marks it sent.
   * `price` works out the record from the checkout's payment, read under its refund lock in the same
   * short transaction as the insert: two concurrent refunds are capped one after the other. Undefined
   * when the ledger has no payment for the session.
   */
  async recordRefund(
    sessionId: string,
    price: (checkout: LedgerCheckout) => OwedRefund
  ): Promise<OwedRefund | undefined> {
    const row = await this.forSession(sessionId)
    if (!row) return undefined
    let recorded = false
    const refund = await underRefundLock(this.db(), row.payment_id, async (trx, checkout) => {
      if (!checkout) return undefined
      const refund = price(checkout)
      const inserted = await trx.raw(
        `insert into "${OWED_TABLE}" ("id", "payment_id", "kind", "key", "refund_id", "coin", "coin_amount", "recorded_coin_amount", "base_amount", "base_currency")
         values (?, ?, 'refund', ?, ?, ?, ?, ?, ?, ?) on conflict do nothing returning "id"`,
        [
          entityId("cryptoowed"),
          refund.payment_id,
          refund.key,
          refund.refund_id,
          refund.coin,
          refund.coin_amount,
          refund.coin_amount,
          refund.base_amount,
          refund.base_currency,
        ]
      )
      if (!(inserted as { rows: unknown[] }).rows.length) return refund
      const entry = {
        at: new Date().toISOString(),
        source: "refund",
        status: "REFUND",
        outcome: "refund_owed",
        confirmations: 0,
        received: "0",
        note: `Refund of ${refund.base_amount} ${refund.base_currency} recorded in Medusa; ${refund.coin_amount ? `${refund.coin_amount} ${refund.coin}` : "the coins"} to send from the service's dashboard.`,
      }
      const event = { name: CryptoPaymentEvents.REFUND_OWED, key: owedKey(refund.payment_id, refund.key) }
      await trx.raw(
        `with "flagged" as (update "${TABLE}" set "refund_owed" = true,
           "timeline" = jsonb_build_object('entries', coalesce("timeline"->'entries', '[]'::jsonb) || jsonb_build_array(?::jsonb)), "updated_at" = now()
         where "payment_id" = ? and "deleted_at" is null returning *), "events" as (${outboxInsertSql("flagged")}) select 1`,
        [JSON.stringify(entry), refund.payment_id, outboxEvents([event])]
      )
      recorded = true
      return refund
    }).catch((error) => {
      throw ledgerError(error)
    })
    if (recorded) ringOutbox()
    return refund
  }

  /** Keeps a status read from the service for every process to reuse, unless the ledger holds a newer one. */
  async keepRead(paymentId: string, read: { record: unknown; readAt: string }): Promise<void> {
    await this.db()
      .raw(
        `update "${TABLE}" set "last_read" = ?::jsonb where "payment_id" = ? and "deleted_at" is null
           and ("last_read" is null or ("last_read"->>'readAt')::timestamptz < ?::timestamptz)`,
        [JSON.stringify(read), paymentId, read.readAt]
      )
      .catch((error) => {
        throw ledgerError(error)
      })
  }

  /**
   * A notification hints that payments may have news: each is read at its next tick, but never
   * sooner than `floorSeconds` after its last read (a flood of hints costs at most one read per
   * floor). Only brings a scheduled read forward: a payment that is no longer watched stays so.
   */
  async readSoon(paymentIds: string[], floorSeconds: number): Promise<void> {
    if (!paymentIds.length) return
    const earliest = `greatest(now(), coalesce(greatest("last_checked_at", ("last_read"->>'readAt')::timestamptz), '-infinity'::timestamptz) + make_interval(secs => ?))`
    await this.db()
      .raw(
        `update "${TABLE}" set "next_check_at" = ${earliest}
         where "payment_id" in (${paymentIds.map(() => "?").join(", ")}) and "deleted_at" is null
           and "next_check_at" is not null and "next_check_at" > ${earliest}`,
        [floorSeconds, ...paymentIds, floorSeconds]
      )
      .catch((error) => {
        throw ledgerError(error)
      })
  }

  /** The checkout's payment a payment belongs to: the first payment, its remainders and their owed records. */
  async checkoutOf(paymentId: string): Promise<LedgerCheckout | undefined> {
    return readCheckoutPayment(this.db(), paymentId).catch((error) => {
      throw ledgerError(error)
    })
  }

  /** The newest remainder asked for a short payment, if any. */
  async remainderOf(paymentId: string): Promise<LedgerRow | undefined> {
    return this.first(`"remainder_of" = ?`, [paymentId])
  }

  /**
   * The policy the admin saved for a provider (crypto_setting), if any. A database whose migration
   * has not added the table yet has none: the provider's options apply.
   */
  async savedPolicy(providerId: string): Promise<SavedPolicy | undefined> {
    try {
      const result = await this.db().raw(
        `select "underpayment_tolerance_bp", "late_payments" from "crypto_setting" where "provider_id" = ? and "deleted_at" is null limit 1`,
        [providerId]
      )
      return (result as { rows: SavedPolicy[] }).rows[0]
    } catch (error) {
      if (isMissingTable(error)) return undefined
      throw error
    }
  }

  /** Unsettled payments of a session other than `except`. */
  async openOfSession(sessionId: string, except: string): Promise<string[]> {
    const rows = await this.select(
      `"session_id" = ? and "payment_id" <> ? and "settled" = false`,
      [sessionId, except],
      `"created_at" desc`,
      20
    )
    return rows.map((row) => row.payment_id)
  }

  private async first(where: string, bindings: unknown[], order = `"created_at" desc`): Promise<LedgerRow | undefined> {
    const [row] = await this.select(where, bindings, order, 1)
    return row
  }

  private async select(where: string, bindings: unknown[], order: string, limit: number): Promise<LedgerRow[]> {
    try {
      const result = await this.db().raw(
        `select * from "${TABLE}" where ${where} and "deleted_at" is null order by ${order} limit ${limit}`,
        bindings as Knex.RawBinding[]
      )
      return (result as { rows: LedgerRow[] }).rows
    } catch (error) {
      throw ledgerError(error)
    }
  }
}

/** A missing table means the plugin was not added to `plugins` or its migration never ran: say so. */
function ledgerError(error: unknown): Error {
  if (isMissingTable(error)) {
    return cryptoError(MedusaError.Types.NOT_ALLOWED, "crypto.not_set_up")
  }
  return error as Error
}
