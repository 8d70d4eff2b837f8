import type { Knex } from "knex"
import { isMissingTable } from "./missing-table"

/**
 * Medusa's Postgres locking never hands another owner a lock whose expiration has passed, so a killed
 * process's lock would refuse every later webhook, capture and tick for ever. Deleting expired rows
 * gives it Redis's meaning.
 */
export class ExpiredLocks {
  /** This database has no "locking" table: another locking provider is in use. */
  private noTable = false

  constructor(private readonly db: () => Knex) {}

  /** Deletes the expired locks among `keys`, or every expired lock when none are named; how many. */
  async clear(keys?: string[]): Promise<number> {
    if (this.noTable || keys?.length === 0) return 0
    try {
      const result = await this.db().raw(
        `delete from "locking" where "expiration" is not null and "expiration" <= now()${keys ? ` and "id" = any(?)` : ""}`,
        keys ? [keys] : []
      )
      return (result as { rowCount?: number }).rowCount ?? 0
    } catch (error) {
      if (!isMissingTable(error)) throw error
      this.noTable = true
      return 0
    }
  }
}
