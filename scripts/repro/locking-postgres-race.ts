/**
 * A minimal reproduction of a race in `@medusajs/locking-postgres` (reported nowhere yet; the
 * reliability suite's R3 runs it so RELIABILITY.md shows whether the installed version has it):
 * two callers that acquire the same key *without* an owner id at the same moment can both hold it.
 *
 * `acquire` reads the lock row, finds none and inserts it. The loser of the two inserts gets the
 * primary-key error and is forgiven when `ownerId != owner.owner_id`, i.e. `undefined != null`, is
 * false: both calls resolve. With owner ids the loser's check is true and it is refused.
 * Core's `acquireLockStep` (the cart completion lock) passes no owner id.
 *
 * The provider class is used as Medusa ships it, given only a manager whose `execute` runs SQL on
 * a pool of connections, like MikroORM's does.
 *
 *   npx ts-node scripts/repro/locking-postgres-race.ts   (DATABASE_URL, or a throwaway PostgreSQL)
 */
import { Pool, PoolConfig } from "pg"

const { PostgresAdvisoryLockProvider } = require("@medusajs/locking-postgres/dist/services/advisory-lock")

export type RaceResult = { rounds: number; bothHeldWithoutOwner: number; bothHeldWithOwner: number }

type Provider = { acquire: (key: string, args?: { ownerId?: string; expire?: number }) => Promise<void> }

/** `rounds` races of two concurrent acquires of one fresh key, without and with owner ids. */
export async function raceLockingPostgres(config: PoolConfig, rounds = 50): Promise<RaceResult> {
  const pool = new Pool({ ...config, max: 4 })
  try {
    await pool.query(
      `create table if not exists "locking" ("id" text not null, "owner_id" text null, "expiration" timestamptz null, constraint "locking_pkey" primary key ("id"))`
    )
    const manager = {
      execute: async (sql: string, params: unknown[] = []) => {
        let n = 0
        return (
          await pool.query(
            sql.replace(/\?/g, () => `$${++n}`),
            params
          )
        ).rows
      },
    }
    const provider: Provider = new PostgresAdvisoryLockProvider({ manager })
    const bothHeld = async (key: string, owners: [string | undefined, string | undefined]) => {
      const outcomes = await Promise.allSettled(owners.map((ownerId) => provider.acquire(key, { ownerId, expire: 30 })))
      return outcomes.every((o) => o.status === "fulfilled")
    }
    const result: RaceResult = { rounds, bothHeldWithoutOwner: 0, bothHeldWithOwner: 0 }
    const run = `race-${Date.now().toString(36)}`
    for (let i = 0; i < rounds; i++) {
      if (await bothHeld(`${run}-anonymous-${i}`, [undefined, undefined])) result.bothHeldWithoutOwner++
      if (await bothHeld(`${run}-owned-${i}`, [`a-${i}`, `b-${i}`])) result.bothHeldWithOwner++
    }
    await pool.query(`delete from "locking" where id like $1`, [`${run}-%`])
    return result
  } finally {
    await pool.end()
  }
}

if (require.main === module) {
  const { startThrowawayPostgres, configuredDatabase } = require("../lib/throwaway-postgres")
  ;(async () => {
    const given = configuredDatabase()
    const server = given ?? (await startThrowawayPostgres())
    try {
      const config: PoolConfig = {
        host: server.host,
        port: server.port,
        user: server.user,
        password: server.password,
        database: "postgres",
      }
      const result = await raceLockingPostgres(config)
      console.log(`${result.rounds} races of two acquire() calls on one key:`)
      console.log(`  without owner ids: both held the lock ${result.bothHeldWithoutOwner} times (expected 0)`)
      console.log(`  with owner ids:    both held the lock ${result.bothHeldWithOwner} times`)
      process.exitCode = result.bothHeldWithoutOwner ? 1 : 0
    } finally {
      if (!given) await server.stop()
    }
  })()
}
