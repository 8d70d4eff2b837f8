import type { Knex } from "knex"
import type { RatePublication } from "../../lib/domain/exchange-rates/ecb-file"
import { entityId } from "../../lib/domain/entity-id"
import { ChangeMade, logSettingChange } from "./merchant-settings"

const TABLE = "crypto_exchange_rate"

/** A publication held back because a rate moved too far against the stored one. */
export type HeldPublication = RatePublication & {
  fetched_at: string
  moved: Array<{ currency: string; percent: string }>
}

/** A rate source's stored row (see the crypto_exchange_rate model). */
export type StoredRates = {
  id: string
  source: string
  url: string
  published_on: string | null
  rates: Record<string, string> | null
  fetched_at: Date | null
  held: HeldPublication | null
  attempted_at: Date | null
  last_error: string | null
  failures: number
}

/**
 * The stored exchange rates (crypto_exchange_rate), raw SQL on the shared connection as the ledger's
 * (ledger/index.ts says why): one row per source and url, shared by every process. Every write is one conditional statement, so processes
 * never overwrite each other's newer publication.
 */
export class RateStore {
  constructor(private readonly db: () => Knex) {}

  async read(source: string, url: string): Promise<StoredRates | undefined> {
    const result = await this.db().raw(
      `select * from "${TABLE}" where "source" = ? and "url" = ? and "deleted_at" is null limit 1`,
      [source, url]
    )
    return (result as { rows: StoredRates[] }).rows[0]
  }

  /**
   * Claims the next fetch for this process: true when no process began one within `seconds` (the
   * row is created on the first claim). One process fetches at a time; the others read what it stored.
   */
  async claim(source: string, url: string, seconds: number): Promise<boolean> {
    const result = await this.db().raw(
      `insert into "${TABLE}" ("id", "source", "url", "attempted_at") values (?, ?, ?, now())
       on conflict ("source", "url") where "deleted_at" is null do update set "attempted_at" = now(), "updated_at" = now()
         where "${TABLE}"."attempted_at" is null or "${TABLE}"."attempted_at" <= now() - make_interval(secs => ?)
       returning "id"`,
      [entityId("cryptorate"), source, url, seconds]
    )
    return (result as { rows: unknown[] }).rows.length > 0
  }

  /**
   * Stores a publication unless the row holds a newer one (an older file never replaces the stored
   * one), or `replacing`: a stored publication the caller judged dated too far ahead to keep. Clears
   * any held publication and failure. True when it was stored.
   */
  async store(source: string, url: string, publication: RatePublication, replacing: string | null = null) {
    const result = await this.db().raw(
      `update "${TABLE}" set "published_on" = ?, "rates" = ?::jsonb, "fetched_at" = now(), "held" = null,
         "last_error" = null, "failures" = 0, "updated_at" = now()
       where "source" = ? and "url" = ? and "deleted_at" is null
         and ("published_on" is null or "published_on" <= ? or "published_on" = ?)
       returning "id"`,
      [
        publication.publishedOn,
        JSON.stringify(publication.rates),
        source,
        url,
        publication.publishedOn,
        replacing ?? "",
      ]
    )
    return (result as { rows: unknown[] }).rows.length > 0
  }

  /** Holds a publication whose rates moved too far; the stored one keeps pricing checkouts. */
  async hold(source: string, url: string, held: HeldPublication): Promise<void> {
    await this.db().raw(
      `update "${TABLE}" set "held" = ?::jsonb, "last_error" = null, "failures" = 0, "updated_at" = now()
       where "source" = ? and "url" = ? and "deleted_at" is null`,
      [JSON.stringify(held), source, url]
    )
  }

  /** A fetch that brought nothing usable: why, for the health and the policy panel. */
  async failed(source: string, url: string, reason: string): Promise<void> {
    await this.db().raw(
      `update "${TABLE}" set "last_error" = ?, "failures" = "failures" + 1, "updated_at" = now()
       where "source" = ? and "url" = ? and "deleted_at" is null`,
      [reason.slice(0, 300), source, url]
    )
  }

  /**
   * An admin takes the publication held back for a jump (the move is real): it replaces the stored
   * one unless that is newer, and the settings' log says who took it. The change, or undefined when
   * nothing was held (or a newer publication was stored meanwhile: the held one is dropped).
   */
  async acceptHeld(providerId: string, source: string, url: string, actorId: string | null) {
    return this.db().transaction(async (trx): Promise<ChangeMade | undefined> => {
      const [row] = (
        await trx.raw(
          `select "id", "published_on", "held" from "${TABLE}" where "source" = ? and "url" = ? and "deleted_at" is null for update`,
          [source, url]
        )
      ).rows as Array<Pick<StoredRates, "id" | "published_on" | "held">>
      if (!row?.held) return undefined
      const { publishedOn, rates } = row.held
      const taken = await trx.raw(
        `update "${TABLE}" set "published_on" = ?, "rates" = ?::jsonb, "fetched_at" = now(), "held" = null, "updated_at" = now()
         where "id" = ? and ("published_on" is null or "published_on" <= ?) returning "id"`,
        [publishedOn, JSON.stringify(rates), row.id, publishedOn]
      )
      if (!(taken as { rows: unknown[] }).rows.length) {
        // a newer publication was stored meanwhile: the held one is moot
        await trx.raw(`update "${TABLE}" set "held" = null, "updated_at" = now() where "id" = ?`, [row.id])
        return undefined
      }
      const change = { field: "exchange_rates", from: row.published_on, to: publishedOn }
      await logSettingChange(trx, providerId, change, actorId)
      return change
    })
  }
}
