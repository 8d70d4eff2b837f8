import type { Knex } from "knex"
import type { RatePublication } from "../../lib/domain/exchange-rates/ecb-file"
import { entityId } from "../../lib/domain/entity-id"
import { ChangeMade, logSettingChange } from "./merchant-settings"

const TABLE = "crypto_exchange_rate"

export type HeldPublication = RatePublication & {
  fetched_at: string
  moved: Array<{ currency: string; percent: string }>
}

export type StoredRates = {
  id: string
  source: string
  url: string
  published_on: string | null
  rates: Record<string, string> | null
  fetched_at: Date | null
  held: HeldPublication | null
  attempted_at: Date | null
  settled_at: Date | null
  last_error: string | null
  failures: number
}

/**
 * The stored exchange rates, one row per source and url (a url that is another spelling of a stored
 * one's source shares its row: exchange-rates.ts picks it), shared by every process (raw SQL on the shared
 * connection: ledger/index.ts says why). Every write is one conditional statement, so processes never
 * overwrite each other's newer publication.
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

  /** Every row of a source kind ("ecb"): one per url it was fetched from (a handful at most). */
  async ofSource(source: string): Promise<StoredRates[]> {
    const result = await this.db().raw(
      `select * from "${TABLE}" where "source" = ? and "deleted_at" is null order by "created_at"`,
      [source]
    )
    return (result as { rows: StoredRates[] }).rows
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
   * Unless the row holds a newer one; `replacing`: a stored publication judged dated too far ahead to
   * keep. True when it was stored.
   */
  async store(source: string, url: string, publication: RatePublication, replacing: string | null = null) {
    const result = await this.db().raw(
      `update "${TABLE}" set "published_on" = ?, "rates" = ?::jsonb, "fetched_at" = now(), "held" = null,
         "last_error" = null, "failures" = 0, "settled_at" = now(), "updated_at" = now()
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
      `update "${TABLE}" set "held" = ?::jsonb, "last_error" = null, "failures" = 0, "settled_at" = now(), "updated_at" = now()
       where "source" = ? and "url" = ? and "deleted_at" is null`,
      [JSON.stringify(held), source, url]
    )
  }

  /** A fetch that brought nothing usable: why, for the health and the policy panel. */
  async failed(source: string, url: string, reason: string): Promise<void> {
    await this.db().raw(
      `update "${TABLE}" set "last_error" = ?, "failures" = "failures" + 1, "settled_at" = now(), "updated_at" = now()
       where "source" = ? and "url" = ? and "deleted_at" is null`,
      [reason.slice(0, 300), source, url]
    )
  }

  /**
   * Replaces the stored publication unless that is newer (then the held one is dropped); undefined when
   * nothing was held.
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
