import type { Knex } from "knex"
import { entityId } from "../../lib/domain/entity-id"
import type {
  AcknowledgeableState,
  AcknowledgedHow,
  Acknowledgement,
  AcknowledgementSubject,
} from "../../lib/domain/acknowledgement"

const TABLE = "crypto_acknowledgement"

export type AcknowledgementToRecord = AcknowledgeableState & {
  providerId: string
  subject: AcknowledgementSubject
  how: AcknowledgedHow
  actorId: string | null
}

type Row = Omit<Acknowledgement, "created_at"> & { created_at: Date | string }

const view = (row: Row): Acknowledgement => ({ ...row, created_at: new Date(row.created_at).toISOString() })

/**
 * Records an acknowledgement (in the caller's transaction when given one), timed by the statement, not
 * the transaction: two recorded in one transaction keep their order. `onlyIfNone`: only while the
 * provider has none for the subject (the state first seen, which a later change is compared with).
 */
export async function recordAcknowledgement(
  db: Knex | Knex.Transaction,
  ack: AcknowledgementToRecord,
  { onlyIfNone = false } = {}
): Promise<Acknowledgement | undefined> {
  const values = [
    entityId("cryptoack"),
    ack.providerId,
    ack.subject,
    ack.value,
    JSON.stringify(ack.facts),
    ack.how,
    ack.actorId,
  ]
  const result = await db.raw(
    `insert into "${TABLE}" ("id", "provider_id", "subject", "value", "facts", "how", "actor_id", "created_at")
     select ?, ?, ?, ?, ?::jsonb, ?, ?, clock_timestamp()
     ${onlyIfNone ? `where not exists (select 1 from "${TABLE}" where "provider_id" = ? and "subject" = ? and "deleted_at" is null)` : ""}
     returning "provider_id", "subject", "value", "facts", "how", "actor_id", "created_at"`,
    onlyIfNone ? [...values, ack.providerId, ack.subject] : values
  )
  const [row] = (result as { rows: Row[] }).rows
  return row && view(row)
}

/**
 * What admins acknowledged on the setup health (crypto_acknowledgement), raw SQL on the shared connection
 * as the ledger's (ledger/index.ts says why). Rows are only added: the newest per provider and subject is
 * in force, the earlier ones say who acknowledged what before.
 */
export class Acknowledgements {
  constructor(private readonly db: () => Knex) {}

  /** The newest acknowledgement of `subject` of each provider that has one. */
  async newest(providerIds: string[], subject: AcknowledgementSubject): Promise<Acknowledgement[]> {
    if (!providerIds.length) return []
    const result = await this.db().raw(
      `select distinct on ("provider_id") "provider_id", "subject", "value", "facts", "how", "actor_id", "created_at"
       from "${TABLE}" where "provider_id" = any(?) and "subject" = ? and "deleted_at" is null
       order by "provider_id", "created_at" desc, "id" desc`,
      [providerIds, subject]
    )
    return (result as { rows: Row[] }).rows.map(view)
  }

  record(ack: AcknowledgementToRecord, options?: { onlyIfNone?: boolean }): Promise<Acknowledgement | undefined> {
    return recordAcknowledgement(this.db(), ack, options)
  }
}
