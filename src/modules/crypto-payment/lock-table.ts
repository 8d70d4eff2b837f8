import type { Knex } from "knex"
import { isMissingTable } from "./missing-table"

/**
 * How long past its expiration a lock stays before the sweep deletes it: a live lease is renewed long
 * before it expires, so only a dead owner's lock is ever this late.
 */
export const SWEEP_GRACE_SECONDS = 10

/**
 * The keys the sweep may delete: the plugin's own locks, and Medusa's lock of a cart (its id, no owner,
 * 120 s), which a crypto payment's cart completion waits on. Other modules' locks are theirs to manage.
 */
const SWEPT_KEYS = `("id" like 'crypto-%' or "id" like 'cart\\_%')`

/**
 * Medusa's Postgres locking table. That provider never hands another owner a lock whose expiration has
 * passed, so a killed process's lock would refuse every later webhook, capture and tick for ever:
 * deleting expired rows gives it Redis's meaning. Its same-owner refresh is not owner-checked, so a
 * lease is extended here with a statement that is.
 */
export class LockTable {
  /** This database has no "locking" table: another locking provider is in use. */
  private noTable = false

  constructor(private readonly db: () => Knex) {}

  /** Deletes the expired locks among `keys` (every expired one the sweep may touch when none are named); how many. */
  async clearExpired(keys?: string[]): Promise<number> {
    if (keys?.length === 0) return 0
    const result = await this.run(() =>
      this.db().raw(
        `delete from "locking" where "expiration" is not null
           and "expiration" <= now() - make_interval(secs => ?) and ${SWEPT_KEYS}${keys ? ` and "id" = any(?)` : ""}`,
        keys ? [SWEEP_GRACE_SECONDS, keys] : [SWEEP_GRACE_SECONDS]
      )
    )
    return (result as { rowCount?: number } | undefined)?.rowCount ?? 0
  }

  /** Extends `ownerId`'s locks among `keys` by `seconds` from now; how many were still this owner's. */
  async extend(keys: string[], ownerId: string, seconds: number): Promise<number> {
    const result = await this.run(() =>
      this.db().raw(
        `update "locking" set "expiration" = now() + make_interval(secs => ?) where "id" = any(?) and "owner_id" = ?`,
        [seconds, keys, ownerId]
      )
    )
    return (result as { rowCount?: number } | undefined)?.rowCount ?? 0
  }

  private async run<T>(statement: () => Promise<T>): Promise<T | undefined> {
    if (this.noTable) return undefined
    try {
      return await statement()
    } catch (error) {
      if (!isMissingTable(error)) throw error
      this.noTable = true
      return undefined
    }
  }
}
