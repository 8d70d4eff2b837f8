import type { Knex } from "knex"
import { entityId } from "../../lib/domain/entity-id"
import { type AcknowledgementToRecord, recordAcknowledgement } from "./acknowledgements"

const TABLE = "crypto_secret"

export type SecretName = "api_key" | "webhook_secret"

/** A stored secret, still sealed (lib/domain/secret-box.ts opens it). */
export type StoredSecret = {
  sealed: string
  last_four: string | null
  saved_by: string | null
  created_at: Date
  updated_at: Date
}

/**
 * The stored secrets (crypto_secret), raw SQL on the shared connection as the ledger's (ledger/index.ts
 * says why): the core holds the options and the client, so it is the one that reads, checks and
 * replaces its keys.
 */
export class SecretStore {
  constructor(private readonly db: () => Knex) {}

  async read(providerId: string, name: SecretName): Promise<StoredSecret | undefined> {
    const result = await this.db().raw(
      `select "sealed", "last_four", "saved_by", "created_at", "updated_at" from "${TABLE}"
       where "provider_id" = ? and "name" = ? and "deleted_at" is null limit 1`,
      [providerId, name]
    )
    return (result as { rows: StoredSecret[] }).rows[0]
  }

  /**
   * Stores a generated secret unless one is stored already, and returns the one that stands: when two
   * processes generate at once, both end up with the first one written.
   */
  async keepFirst(providerId: string, name: SecretName, sealed: string, savedBy: string): Promise<StoredSecret> {
    const result = await this.db().raw(
      `with made as (
         insert into "${TABLE}" ("id", "provider_id", "name", "sealed", "saved_by") values (?, ?, ?, ?, ?)
         on conflict ("provider_id", "name") where "deleted_at" is null do nothing
         returning "sealed", "last_four", "saved_by", "created_at", "updated_at"
       )
       select * from made
       union all
       select "sealed", "last_four", "saved_by", "created_at", "updated_at" from "${TABLE}"
       where "provider_id" = ? and "name" = ? and "deleted_at" is null and not exists (select 1 from made)`,
      [entityId("cryptosecret"), providerId, name, sealed, savedBy, providerId, name]
    )
    return (result as { rows: StoredSecret[] }).rows[0]
  }

  /**
   * Only while the stored one is still `expected` (null: none stored): null, with nothing written, when
   * another save changed it since.
   */
  async replace(
    providerId: string,
    name: SecretName,
    sealed: string,
    lastFour: string,
    actorId: string | null,
    expected: string | null,
    acknowledgements?: { before: AcknowledgementToRecord; saved?: AcknowledgementToRecord }
  ): Promise<{ replaced: string | null } | null> {
    return this.db().transaction(async (trx) => {
      const before = await trx.raw(
        `select "sealed", "last_four" from "${TABLE}" where "provider_id" = ? and "name" = ? and "deleted_at" is null for update`,
        [providerId, name]
      )
      const stored = (before as { rows: Array<{ sealed: string; last_four: string | null }> }).rows[0]
      if ((stored?.sealed ?? null) !== expected) return null
      // with none stored there is no row to lock: a save inserting at the same time makes this one write nothing
      const written =
        expected === null
          ? await trx.raw(
              `insert into "${TABLE}" ("id", "provider_id", "name", "sealed", "last_four", "saved_by") values (?, ?, ?, ?, ?, ?)
               on conflict ("provider_id", "name") where "deleted_at" is null do nothing returning "id"`,
              [entityId("cryptosecret"), providerId, name, sealed, lastFour, actorId]
            )
          : await trx.raw(
              `update "${TABLE}" set "sealed" = ?, "last_four" = ?, "saved_by" = ?, "updated_at" = now()
               where "provider_id" = ? and "name" = ? and "deleted_at" is null returning "id"`,
              [sealed, lastFour, actorId, providerId, name]
            )
      if (!(written as { rows: unknown[] }).rows.length) return null
      const replaced = stored?.last_four ?? null
      await trx.raw(
        `insert into "crypto_setting_change" ("id", "provider_id", "field", "from_value", "to_value", "actor_id")
         values (?, ?, ?, ?, ?, ?)`,
        [entityId("cryptosetchg"), providerId, name, replaced ? `…${replaced}` : null, `…${lastFour}`, actorId]
      )
      if (acknowledgements) {
        await recordAcknowledgement(trx, acknowledgements.before, { onlyIfNone: true })
        if (acknowledgements.saved) await recordAcknowledgement(trx, acknowledgements.saved)
      }
      return { replaced }
    })
  }

  /**
   * Whether the provider still watches a payment created before `before`: one whose webhook URL may
   * carry a token minted with an earlier secret (not settled, its reads not over).
   */
  async watchesPaymentsBefore(providerId: string, before: Date): Promise<boolean> {
    const result = await this.db().raw(
      `select exists (select 1 from "crypto_payment" where "deleted_at" is null and not "settled"
         and ("provider_id" = ? or "provider_id" is null) and "created_at" < ?
         and ("watch_until" is null or "watch_until" > now())) as "watched"`,
      [providerId, before]
    )
    return !!(result as { rows: Array<{ watched: boolean }> }).rows[0]?.watched
  }
}
