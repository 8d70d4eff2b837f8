import type { Knex } from "knex"
import type { IEventBusModuleService } from "@medusajs/framework/types"
import type { PluginLog } from "../../lib/runtime/log"
import type { CryptoPaymentEventData, PaymentEvent } from "../../lib/domain/payment-events"
import { entityId } from "../../lib/domain/entity-id"

export const OUTBOX_TABLE = "crypto_payment_event"

/** How long a process may take to emit what it claimed before another may claim it again. */
const CLAIM_SECONDS = 60
const BATCH = 100

/**
 * The order a ledger row belongs to: its own order_id, else the order its payment collection is
 * linked to (a checkout's collection is linked once the cart completed). `alias`: the ledger row.
 */
export function orderOfRowSql(alias: string): string {
  return `coalesce(${alias}."order_id", (select l."order_id" from "order_payment_collection" l
    where l."payment_collection_id" = ${alias}."payment_collection_id" and l."deleted_at" is null limit 1))`
}

/**
 * For the rows the CTE `source` returned; a key already there is skipped (the same transition recorded
 * twice). Bind outboxEvents as its one parameter.
 */
export function outboxInsertSql(source: string): string {
  return `insert into "${OUTBOX_TABLE}" ("id", "event_key", "name", "crypto_payment_id", "payment_id", "payment_collection_id", "order_id")
    select e."id", e."key", e."name", s."id", s."payment_id", s."payment_collection_id", ${orderOfRowSql("s")}
    from "${source}" s, jsonb_to_recordset(?::jsonb) as e("id" text, "key" text, "name" text)
    on conflict ("event_key") do nothing`
}

/** The events as outboxInsertSql's parameter. */
export function outboxEvents(events: PaymentEvent[]): string {
  return JSON.stringify(events.map((e) => ({ id: entityId("cryptoevt"), key: e.key, name: e.name })))
}

type OutboxRow = {
  id: string
  event_key: string
  name: string
  crypto_payment_id: string
  payment_id: string
  payment_collection_id: string | null
  order_id: string | null
}

export type RecordedEvent = Pick<OutboxRow, "id" | "name" | "event_key" | "payment_id" | "order_id"> & {
  created_at: Date
  delivered_at: Date | null
}

/**
 * At least once: a process that dies after emitting and before marking leaves its claim to expire, and
 * the rows are emitted again with the same event_key.
 */
export class PaymentOutbox {
  private running: Promise<number> | undefined
  private again = false

  constructor(
    private readonly db: () => Knex,
    private readonly eventBus: () => IEventBusModuleService | undefined,
    private readonly log: PluginLog
  ) {}

  /** Delivers everything undelivered now; resolves with how many events were emitted. */
  deliver(): Promise<number> {
    if (this.running) {
      this.again = true
      return this.running
    }
    this.running = this.deliverAll().finally(() => {
      this.running = undefined
      if (this.again) {
        this.again = false
        void this.deliver()
      }
    })
    return this.running
  }

  private async deliverAll(): Promise<number> {
    const bus = this.eventBus()
    if (!bus) return 0
    let emitted = 0
    try {
      for (;;) {
        const rows = await this.claim()
        if (!rows.length) return emitted
        await bus.emit(
          rows.map((row) => ({
            name: row.name,
            data: dataOf(row),
            // a Redis event bus retries a failing subscriber (the local one ignores it)
            options: { attempts: 3 },
          }))
        )
        await this.db().raw(
          `update "${OUTBOX_TABLE}" set "delivered_at" = now(), "claimed_until" = null, "updated_at" = now() where "id" = any(?)`,
          [rows.map((r) => r.id)]
        )
        emitted += rows.length
        if (rows.length < BATCH) return emitted
      }
    } catch (error) {
      // left undelivered (or claimed until the claim expires): the next ring or tick delivers it
      this.log.warn(`crypto payment events not delivered yet: ${(error as Error).message}`)
      return emitted
    }
  }

  /** The events recorded for payments, oldest first (at most 200). */
  async of(paymentIds: string[]): Promise<RecordedEvent[]> {
    if (!paymentIds.length) return []
    const { rows } = await this.db().raw(
      `select "id", "name", "event_key", "payment_id", "order_id", "created_at", "delivered_at" from "${OUTBOX_TABLE}"
       where "payment_id" = any(?) and "deleted_at" is null order by "created_at" asc limit 200`,
      [paymentIds]
    )
    return rows
  }

  /**
   * Deletes up to `limit` rows delivered more than `days` ago, oldest first; an undelivered row is never
   * touched. How many. Given up: a transition recorded again after that is a new row, emitted again.
   */
  async deleteDelivered(days: number, limit: number): Promise<number> {
    const result = await this.db().raw(
      `delete from "${OUTBOX_TABLE}" where "id" in (select "id" from "${OUTBOX_TABLE}"
         where "delivered_at" is not null and "delivered_at" < now() - make_interval(days => ?)
         order by "delivered_at" limit ? for update skip locked)`,
      [days, limit]
    )
    return (result as { rowCount?: number }).rowCount ?? 0
  }

  private async claim(): Promise<OutboxRow[]> {
    const { rows } = await this.db().raw(
      `update "${OUTBOX_TABLE}" set "claimed_until" = now() + make_interval(secs => ?), "attempts" = "attempts" + 1, "updated_at" = now()
       where "id" in (select "id" from "${OUTBOX_TABLE}"
         where "delivered_at" is null and ("claimed_until" is null or "claimed_until" < now())
         order by "created_at", "id" limit ? for update skip locked)
       returning "id", "event_key", "name", "crypto_payment_id", "payment_id", "payment_collection_id", "order_id", "created_at"`,
      [CLAIM_SECONDS, BATCH]
    )
    return (rows as Array<OutboxRow & { created_at: Date }>).sort(
      (a, b) => +new Date(a.created_at) - +new Date(b.created_at) || (a.id < b.id ? -1 : 1)
    )
  }
}

function dataOf(row: OutboxRow): CryptoPaymentEventData {
  return {
    id: row.crypto_payment_id,
    payment_id: row.payment_id,
    payment_collection_id: row.payment_collection_id,
    ...(row.order_id ? { order_id: row.order_id } : {}),
    event_key: row.event_key,
  }
}
