import { MedusaError } from "@medusajs/framework/utils"
import type { Knex } from "knex"
import { outboxEvents, outboxInsertSql } from "../payment-outbox"
import { ringOutbox } from "../../../lib/runtime/outbox-bell"
import { attentionKey, PaymentEvent } from "../../../lib/domain/payment-events"
import { FAILURES_BEFORE_ATTENTION, nextReadDelaySeconds } from "../../../lib/domain/read-schedule"
import { RECORD_FLAGS } from "../../../lib/domain/payment-read"
import { PreparedStatement } from "./prepared-statement"
import { OpenedPayment, openingStatement, openingValues } from "./opening"
import { ledgerError, LedgerReads } from "./payment-reads"
import type { LedgerRow } from "./row"

/** The columns a read's record writes (saveRecord), and those among them that hold json. */
export type RecordColumn = Exclude<keyof LedgerRow, "id" | "created_at" | "updated_at" | "deleted_at">
const JSON_COLUMNS = new Set<RecordColumn>(["quotes", "last_read", "drift", "warned", "timeline"])
const RECORD_COLUMNS = new Set<RecordColumn>([
  ...JSON_COLUMNS,
  "status",
  "outcome",
  "coin",
  "address",
  "received_amount",
  "required_amount",
  "confirmations",
  "required_confirmations",
  ...RECORD_FLAGS,
  "needs_attention",
  "attention",
  "order_id",
  "applied",
  "settled",
  "settled_at",
  "settled_by",
  "last_webhook_at",
  "last_checked_at",
  "next_check_at",
  "check_failures",
  "refund_owed",
  "captured_no_order",
])

/**
 * The ledger's writes of a payment's row: its opening, each read's record, its schedule and its
 * failures. A write that makes a transition writes its events to the outbox in the same statement.
 */
export class LedgerRecords extends LedgerReads {
  private readonly openings: { row: PreparedStatement; withSession: PreparedStatement }

  constructor(db: () => Knex) {
    super(db)
    // on a raw pooled connection: through MikroORM it would lose its named plan, and checkout would
    // pay for planning it on every session
    this.openings = {
      row: new PreparedStatement(db, "crypto_ledger_open", openingStatement(false)),
      withSession: new PreparedStatement(db, "crypto_ledger_open_session", openingStatement(true)),
    }
  }

  /**
   * A payment made on an order's collection (an order edit's, a claim's) belongs to that order from the
   * start. `sessionData`: what Medusa is about to save on a session being created, written in the same
   * statement, so the paymentId is on the session and in the ledger at once (and Medusa's own write of it
   * finds nothing to change: one statement fewer per session).
   */
  async open(payment: OpenedPayment, sessionData?: Record<string, unknown>): Promise<void> {
    const values = openingValues(payment)
    try {
      if (sessionData) await this.openings.withSession.run([...values, JSON.stringify(sessionData)])
      else await this.openings.row.run(values)
    } catch (error) {
      throw ledgerError(error)
    }
    ringOutbox()
  }

  /** `events`: the transitions the record makes, written to the outbox by the same statement. */
  async saveRecord(
    id: string,
    fields: Partial<Record<RecordColumn, unknown>>,
    events: PaymentEvent[] = [],
    trx?: Knex.Transaction
  ): Promise<LedgerRow> {
    const columns = Object.keys(fields).filter((column) => fields[column as RecordColumn] !== undefined)
    for (const column of columns) {
      if (!RECORD_COLUMNS.has(column as RecordColumn))
        throw new MedusaError(MedusaError.Types.INVALID_DATA, `Not a column of the crypto payment ledger: ${column}`)
    }
    const values = columns.map((column) => {
      const value = fields[column as RecordColumn]
      return JSON_COLUMNS.has(column as RecordColumn) && value !== null ? JSON.stringify(value) : value
    })
    // the order's display id follows order_id (the admin lists and filters by it), read from Medusa's
    // order table only when the row's order changes or its display id is not known yet
    const orderId = columns.includes("order_id") ? ((fields.order_id as string | null) ?? null) : undefined
    const displayId =
      orderId === undefined
        ? ""
        : `, "order_display_id" = case when "order_id" is not distinct from ?::text and "order_display_id" is not null
            then "order_display_id" else (select o."display_id" from "order" o where o."id" = ?::text) end`
    const bindings = [...values, ...(orderId === undefined ? [] : [orderId, orderId])]
    const update = `update "crypto_payment" set ${columns
      .map((column) => `"${column}" = ?${JSON_COLUMNS.has(column as RecordColumn) ? "::jsonb" : ""}`)
      .join(", ")}${displayId}, "updated_at" = now() where "id" = ? returning *`
    const [row] = events.length
      ? await this.rows<LedgerRow>(
          `with "saved" as (${update}), "events" as (${outboxInsertSql("saved")}) select * from "saved"`,
          [...bindings, id, outboxEvents(events)],
          trx
        )
      : await this.rows<LedgerRow>(update, [...bindings, id], trx)
    if (!row) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Crypto payment ${id} is no longer in the ledger.`)
    // inside a transaction the caller rings once it committed
    if (events.length && !trx) ringOutbox()
    return row
  }

  /** Keeps a status read from the service for every process to reuse, unless the ledger holds a newer one. */
  async keepRead(paymentId: string, read: { record: unknown; readAt: string }): Promise<void> {
    await this.rows(
      `update "crypto_payment" set "last_read" = ?::jsonb where "payment_id" = ? and "deleted_at" is null
         and ("last_read" is null or ("last_read"->>'readAt')::timestamptz < ?::timestamptz)`,
      [JSON.stringify(read), paymentId, read.readAt]
    )
  }

  /**
   * Never sooner than `floorSeconds` after its last read, so a flood of hints costs at most one read per
   * floor. Only brings a scheduled read forward.
   */
  async readSoon(paymentIds: string[], floorSeconds: number): Promise<void> {
    if (!paymentIds.length) return
    const earliest = `greatest(now(), coalesce(greatest("last_checked_at", ("last_read"->>'readAt')::timestamptz), '-infinity'::timestamptz) + make_interval(secs => ?))`
    await this.rows(
      `update "crypto_payment" set "next_check_at" = ${earliest}
       where "payment_id" = any(?) and "deleted_at" is null
         and "next_check_at" is not null and "next_check_at" > ${earliest}`,
      [floorSeconds, paymentIds, floorSeconds]
    )
  }

  /** Moves a payment's next read to `at`, counting no failure (its lock was busy: nothing was read). */
  async readAgainAt(paymentId: string, at: Date): Promise<void> {
    await this.rows(
      `update "crypto_payment" set "next_check_at" = ?, "updated_at" = now() where "payment_id" = ? and "deleted_at" is null`,
      [at, paymentId]
    )
  }

  /** Writes down which session a payment pays (the unique index refuses a second payment for one session). */
  async claimSession(paymentId: string, sessionId: string): Promise<void> {
    await this.rows(
      `update "crypto_payment" set "capture_session_id" = ?, "updated_at" = now() where "payment_id" = ? and "deleted_at" is null`,
      [sessionId, paymentId]
    )
  }

  /**
   * After FAILURES_BEFORE_ATTENTION in a row the payment needs attention, until a run succeeds; a settled
   * payment past its watch window is no longer read.
   */
  async recordFailure(paymentId: string, message: string, next: { nextCheckAt?: Date } = {}, now = new Date()) {
    const row = await this.byPaymentId(paymentId)
    if (!row) return undefined
    const failures = row.check_failures + 1
    const failing = failures >= FAILURES_BEFORE_ATTENTION
    // past its watch window too: an unsettled payment (an order held for the window's end, say) is
    // read again with backoff until a read succeeds and decides it; a settled one stops being watched
    const pastWatch = !!row.watch_until && now > new Date(row.watch_until)
    const stop = pastWatch && row.settled
    const attention = `The last ${failures} attempts to apply this payment's status failed: ${message}`
    await this.saveRecord(
      row.id,
      {
        check_failures: failures,
        ...(next.nextCheckAt || stop ? { next_check_at: stop ? null : next.nextCheckAt } : {}),
        ...(failing ? { needs_attention: true, attention } : {}),
      },
      failing ? this.attentionRaised(row, attention) : []
    )
    return { failures, firstFlag: failures === FAILURES_BEFORE_ATTENTION }
  }

  /**
   * The service answered 404 for a payment the shop created: flagged for attention (logged once),
   * read again with a growing interval, and no more after its late-payment window.
   */
  async recordMissing(paymentId: string, intervalSeconds: number, now = new Date()) {
    const row = await this.byPaymentId(paymentId)
    if (!row) return undefined
    const warned = { ...((row.warned as Record<string, string> | null) ?? {}) }
    const firstTime = !warned.missing
    warned.missing ??= now.toISOString()
    const settled = !!row.watch_until && now > new Date(row.watch_until)
    const delay = nextReadDelaySeconds({
      now,
      expiresAt: row.expires_at,
      createdAt: row.created_at,
      outcome: "mismatch",
      watchLate: false,
      intervalSeconds,
    })
    const attention = "The payment service does not know this payment (404). Check it on the service's dashboard."
    await this.saveRecord(
      row.id,
      {
        needs_attention: true,
        attention,
        warned,
        settled,
        last_checked_at: now,
        next_check_at: settled ? null : new Date(now.getTime() + delay * 1000),
        check_failures: 0,
      },
      this.attentionRaised(row, attention)
    )
    return { row, firstTime }
  }

  /** The event of a need for attention raised on a row that had none. */
  protected attentionRaised(row: LedgerRow, attention: string): PaymentEvent[] {
    return row.needs_attention
      ? []
      : [{ name: "crypto_payment.needs_attention", key: attentionKey(row.payment_id, attention) }]
  }
}
