import { generateEntityId } from "@medusajs/framework/utils"
import type { Knex } from "knex"
import { hostname } from "node:os"
import { PROCESS_ALIVE_SECONDS } from "./setup-health"

/** How often a running process refreshes its row (a third of the time after which it no longer counts). */
const HEARTBEAT_MS = (PROCESS_ALIVE_SECONDS / 3) * 1000

/**
 * This process's row in crypto_process, refreshed while it runs and removed when it stops, so setup
 * health can tell that several processes share the database. The timer never keeps a process alive.
 */
export class ProcessRegistry {
  readonly id = generateEntityId(undefined, "cryptoproc")
  private timer: NodeJS.Timeout | undefined

  constructor(
    private readonly db: () => Knex,
    private readonly describe: () => { workerMode: string; locking: string }
  ) {}

  async start(): Promise<void> {
    const { workerMode, locking } = this.describe()
    await this.db().raw(
      `insert into "crypto_process" ("id", "host", "pid", "worker_mode", "locking", "seen_at") values (?, ?, ?, ?, ?, now())`,
      [this.id, hostname(), process.pid, workerMode, locking]
    )
    // rows of processes that stopped without saying so: on this host when their pid is gone, elsewhere after a day
    const here = (
      await this.db().raw(`select "id", "pid" from "crypto_process" where "host" = ? and "id" <> ?`, [
        hostname(),
        this.id,
      ])
    ).rows as Array<{ id: string; pid: number }>
    const gone = here.filter((row) => !alive(row.pid)).map((row) => row.id)
    if (gone.length)
      await this.db().raw(`delete from "crypto_process" where "id" in (${gone.map(() => "?").join(", ")})`, gone)
    await this.db().raw(`delete from "crypto_process" where "seen_at" < now() - interval '1 day'`)
    this.timer = setInterval(() => {
      this.db()
        .raw(`update "crypto_process" set "seen_at" = now() where "id" = ?`, [this.id])
        .catch(() => undefined)
    }, HEARTBEAT_MS)
    this.timer.unref()
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
    await this.db()
      .raw(`delete from "crypto_process" where "id" = ?`, [this.id])
      .catch(() => undefined)
  }
}

/** Whether a process of this host still runs (a signal 0 only asks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}
