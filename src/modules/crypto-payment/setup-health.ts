import type { Knex } from "knex"
import type { HealthCheck } from "../../lib/setup-health/checks"
import { ConfigLike, lockingOf, workerModeOf } from "../../lib/setup-health/configuration"

/** A process counts as running while it refreshed its row within this many seconds. */
export const PROCESS_ALIVE_SECONDS = 180

/** Each table of the module with the newest column its migrations added: all present = all migrations ran. */
const EXPECTED_COLUMNS: Array<[table: string, column: string]> = [
  ["crypto_payment", "rate_markup_percent"],
  ["crypto_owed_amount", "reference"],
  ["crypto_setting", "late_payments"],
  ["crypto_setting_change", "actor_id"],
  ["crypto_process", "seen_at"],
  ["crypto_exchange_rate", "failures"],
  ["crypto_payment_event", "event_key"],
  ["crypto_owed_amount", "refund_address"],
  ["crypto_payment", "order_display_id"],
  ["crypto_secret", "sealed"],
  ["crypto_acknowledgement", "value"],
]

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows

export async function migrationsCheck(db: Knex): Promise<HealthCheck> {
  const line = { id: "migrations", label: "Database migrations" }
  const found = rowsOf<{ table_name: string; column_name: string }>(
    await db.raw(
      `select "table_name", "column_name" from information_schema.columns
       where "table_schema" = current_schema() and ("table_name", "column_name") in (${EXPECTED_COLUMNS.map(() => "(?, ?)").join(", ")})`,
      EXPECTED_COLUMNS.flat()
    )
  )
  const missing = EXPECTED_COLUMNS.filter(([t, c]) => !found.some((f) => f.table_name === t && f.column_name === c))
  if (missing.length) {
    return {
      ...line,
      level: "red",
      detail: `The plugin's tables are not up to date (${missing.map(([t]) => t).join(", ")}).`,
      action: "Run `npx medusa db:migrate` with the plugin installed, then restart.",
    }
  }
  return { ...line, level: "green", detail: "The plugin's tables are up to date." }
}

export type RunningProcess = { host: string; pid: number; worker_mode: string; locking: string }

/**
 * The processes running on the database: this one, and every other that refreshed its row recently
 * after running for a heartbeat at least (a command such as `medusa user` boots, registers and exits).
 */
export async function runningProcesses(db: Knex, selfId?: string): Promise<RunningProcess[]> {
  return rowsOf<RunningProcess>(
    await db.raw(
      `select "host", "pid", "worker_mode", "locking" from "crypto_process"
       where "deleted_at" is null and ("id" = ? or ("seen_at" > now() - make_interval(secs => ?)
         and "seen_at" >= "created_at" + make_interval(secs => ?)))
       order by "created_at"`,
      [selfId ?? "", PROCESS_ALIVE_SECONDS, PROCESS_ALIVE_SECONDS / 3 - 10]
    )
  )
}

/**
 * In-memory locking with several processes lets two apply one payment at once (red); Postgres locking
 * holds the plugin's locks but lets core's cart lock race (amber).
 */
export function lockingCheck(config: ConfigLike, processes: RunningProcess[]): HealthCheck {
  const line = { id: "locking", label: "Locking" }
  const { kind, provider } = lockingOf(config)
  const workerMode = workerModeOf(config)
  const count = Math.max(processes.length, workerMode === "shared" ? 1 : 2)
  const seen = `${processes.length} Medusa process${processes.length === 1 ? "" : "es"} on this database (${processes.map((p) => `${p.worker_mode} on ${p.host}`).join(", ") || "none registered yet"})`
  switch (kind) {
    case "redis":
      return { ...line, level: "green", detail: `${provider}: shared by every process; ${seen}.` }
    case "postgres":
      return {
        ...line,
        level: "amber",
        detail: `${provider}: the plugin's locks hold across processes, but Medusa's own cart lock can let two completions of one cart race on two processes; ${seen}.`,
        action: "Use @medusajs/medusa/locking-redis when you run more than one process.",
      }
    case "in-process":
    case "other":
      if (count > 1)
        return {
          ...line,
          level: "red",
          detail: `${provider} locks only inside one process, and ${workerMode === "shared" ? seen : `workerMode is "${workerMode}" (another process runs the rest); ${seen}`}: two processes can apply one payment at once.`,
          action:
            "Add @medusajs/medusa/locking with the locking-redis provider (is_default: true) to medusa-config.ts.",
        }
      return {
        ...line,
        level: kind === "other" ? "amber" : "green",
        detail: `${provider}, one process: fine until a second process shares the database.`,
        ...(kind === "other" ? { action: "Make sure this locking provider is shared by every process." } : {}),
      }
  }
}

/** The worker mode: a server-only process needs a worker somewhere, or nothing reconciles. */
export function workerModeCheck(config: ConfigLike, processes: RunningProcess[]): HealthCheck {
  const line = { id: "worker_mode", label: "Worker mode" }
  const workerMode = workerModeOf(config)
  const workers = processes.filter((p) => p.worker_mode !== "server").length
  if (workerMode === "server" && !workers)
    return {
      ...line,
      level: "amber",
      detail:
        'workerMode is "server" and no worker process has been seen on this database: the reconciliation job and Medusa\'s subscribers run only on a worker.',
      action: "Run a second process with MEDUSA_WORKER_MODE=worker (same database and Redis).",
    }
  const where =
    workerMode === "shared"
      ? "this process serves HTTP and runs the reconciliation job"
      : workerMode === "server"
        ? "this process serves HTTP (webhooks); a worker runs the reconciliation job"
        : "this process runs the reconciliation job and subscribers; servers answer webhooks"
  return { ...line, level: "green", detail: `workerMode "${workerMode}": ${where}.` }
}

/**
 * Who settled the payments of the last day: the service's notifications (webhook) or the
 * reconciliation job. All by the job means notifications do not arrive, so orders settle late.
 */
export async function webhooksCheck(db: Knex): Promise<HealthCheck> {
  const line = { id: "webhooks", label: "Webhooks" }
  const [stats] = rowsOf<{ total: string; by_webhook: string; by_job: string; last_webhook: Date | null }>(
    await db.raw(
      `select count(*) as "total", count(*) filter (where "settled_by" = 'webhook') as "by_webhook",
         count(*) filter (where "settled_by" = 'reconcile') as "by_job",
         (select max("last_webhook_at") from "crypto_payment" where "deleted_at" is null) as "last_webhook"
       from "crypto_payment" where "deleted_at" is null and "settled_at" > now() - interval '1 day'`
    )
  )
  const total = Number(stats.total)
  const byWebhook = Number(stats.by_webhook)
  const byJob = Number(stats.by_job)
  const last = stats.last_webhook
    ? `the last webhook arrived ${new Date(stats.last_webhook).toISOString()}`
    : "no webhook has arrived yet"
  const share = `${byWebhook} of ${total} payment${total === 1 ? "" : "s"} settled in the last day by webhook, ${byJob} by the reconciliation job; ${last}`
  if (total === 0) return { ...line, level: "green", detail: `No payment settled in the last day; ${last}.` }
  if (byWebhook === 0 || byWebhook * 2 < byJob)
    return {
      ...line,
      level: "amber",
      detail: `${share}. Payments settled by the job settle up to a reconcile interval late.`,
      action:
        "Check that the service can reach the webhook URL above: backendUrl must be the backend's public URL, and a proxy or firewall must let POST /hooks/crypto/* through.",
    }
  return { ...line, level: "green", detail: `${share}.` }
}

/**
 * This database's clock against the service's: each payment's row is written right after the
 * service created it, so the two creation times differ by the network's time only.
 */
export async function clockCheck(db: Knex): Promise<HealthCheck> {
  const line = { id: "clock", label: "Clock" }
  const rows = rowsOf<{ created_at: Date; service_created_at: string | null }>(
    await db.raw(
      `select "created_at", "last_read"->'record'->>'createdAt' as "service_created_at" from "crypto_payment"
       where "deleted_at" is null and "last_read"->'record'->>'createdAt' is not null order by "created_at" desc limit 20`
    )
  )
  const offsets = rows
    .map((r) => new Date(r.created_at).getTime() - Date.parse(r.service_created_at ?? ""))
    .filter(Number.isFinite)
    .sort((a, b) => a - b)
  if (!offsets.length) return { ...line, level: "green", detail: "No payment to compare with the service's clock yet." }
  const median = offsets[Math.floor(offsets.length / 2)]
  const seconds = Math.round(median / 1000)
  const detail = `This database's clock is ${Math.abs(seconds)} s ${seconds >= 0 ? "ahead of" : "behind"} the service's (median of ${offsets.length} payments).`
  if (Math.abs(seconds) <= 60) return { ...line, level: "green", detail }
  return {
    ...line,
    level: Math.abs(seconds) <= 300 ? "amber" : "red",
    detail: `${detail} Expiry and the late-payment window are judged by this clock.`,
    action: "Synchronise the server's clock (NTP).",
  }
}

export async function deploymentChecks(db: Knex, config: ConfigLike, selfId?: string): Promise<HealthCheck[]> {
  const migrations = await migrationsCheck(db)
  if (migrations.level === "red") return [migrations, lockingCheck(config, []), workerModeCheck(config, [])]
  const processes = await runningProcesses(db, selfId)
  return [
    migrations,
    lockingCheck(config, processes),
    workerModeCheck(config, processes),
    await webhooksCheck(db),
    await clockCheck(db),
  ]
}
