import type { Knex } from "knex"
import { isMissingTable } from "./missing-table"

/**
 * Locks whose time is up, in Medusa's Postgres locking provider (`@medusajs/locking-postgres`, table
 * "locking"). That provider never hands another owner a lock whose expiration has passed: the row stays
 * until its owner releases it. A process killed while it held one (its collection and order locks, the
 * tick's, core's cart lock) would so hold it for ever, and every later webhook, capture and tick for it
 * would be refused. Redis drops an expired key by itself; this gives Postgres locking the same meaning
 * by deleting rows whose expiration has passed (a row without one is never touched). Without the table
 * (in-memory or Redis locking) it does nothing.
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
