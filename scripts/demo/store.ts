/**
 * A whole development store on this machine: a throwaway PostgreSQL, the service sandbox, the
 * migrations, an admin user and `medusa develop` with the plugin, seeded with a shop. Used by
 * `npm run demo` and by the admin browser test. `stop()` ends everything it started.
 */
import { ChildProcess, spawn } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import net from "node:net"
import axios, { AxiosInstance } from "axios"
import { Client } from "pg"
import { startSandbox, Sandbox, SandboxControl } from "../../src/sandbox"
import { DemoStore, SeedLayout, seedDemoStore } from "./seed"
import { buildStorefront, serveStorefront } from "./storefront/serve"

const { startThrowawayPostgres, databaseUrl } = require("../lib/throwaway-postgres")

/** The project: where `medusa develop` runs unless told otherwise. */
export const ROOT = path.resolve(__dirname, "..", "..")
export const API_KEY = "sandbox_test_key"
export const ADMIN = { email: "admin@crypto-demo.test", password: "crypto-demo-2026" }

type Throwaway = {
  host: string
  port: number
  user: string
  password: string
  kind: string
  stop: () => Promise<void> | void
}

export type RunningStore = {
  backendUrl: string
  /** kill -9 of the Medusa process (and its children), as a crash would. */
  crash: () => Promise<void>
  /**
   * Starts Medusa again on the same database and port (with more env, and from another project root, if given);
   * resolves once it is healthy.
   */
  restart: (env?: NodeJS.ProcessEnv, root?: string) => Promise<void>
  /** Another Medusa process on the same database (a second instance), with more env; stopped with the store. */
  startAnother: (env: NodeJS.ProcessEnv) => Promise<{ url: string }>
  sandboxUrl: string
  /** The demo storefront (when asked for with `storefront: true`). */
  storefrontUrl?: string
  control: SandboxControl
  admin: AxiosInstance
  store: DemoStore
  logDir: string
  /** The store's database (a throwaway one unless `database` was given). */
  databaseUrl: string
  stop: () => Promise<void>
}

/**
 * A config directory in which Medusa's telemetry is switched off (`medusa telemetry --disable`
 * would write the same file into the user's own config directory).
 */
function telemetryOff(dir: string): string {
  const home = path.join(dir, "config")
  fs.mkdirSync(path.join(home, "medusa"), { recursive: true })
  fs.writeFileSync(path.join(home, "medusa", "config.json"), JSON.stringify({ telemetry: { enabled: false } }))
  return home
}

/**
 * npx exits at once on SIGTERM (or has exited before) while the server it started may still be running or
 * shutting down: the rest of the process group gets SIGTERM, 10 s, then SIGKILL, so a stopped store leaves no
 * server behind.
 */
async function stopGroup(pid: number): Promise<void> {
  /** Signals the group; false when none of it is left. */
  const signal = (name: NodeJS.Signals | 0) => {
    try {
      process.kill(-pid, name)
      return true
    } catch {
      return false
    }
  }
  if (!signal("SIGTERM")) return
  for (const giveUpAt = Date.now() + 10_000; signal(0) && Date.now() < giveUpAt;)
    await new Promise((resolve) => setTimeout(resolve, 200))
  signal("SIGKILL")
}

/**
 * The PostgreSQL `npm test` started (DB_HOST, DB_PORT, …) and the run's migrated template database
 * (CRYPTO_TEST_TEMPLATE_DB), as startDemoStore's `database` and `template` options; none when unset.
 */
export function databaseFromEnv(env: NodeJS.ProcessEnv = process.env): {
  database?: Omit<Throwaway, "stop" | "kind">
  template?: string
} {
  if (!env.DB_HOST) return {}
  return {
    database: {
      host: env.DB_HOST,
      port: Number(env.DB_PORT ?? 5432),
      user: env.DB_USERNAME ?? "postgres",
      password: env.DB_PASSWORD ?? "",
    },
    ...(env.CRYPTO_TEST_TEMPLATE_DB ? { template: env.CRYPTO_TEST_TEMPLATE_DB } : {}),
  }
}

/**
 * Ends a script step of `npm test`: prints its tally, hands it to scripts/test.js (CRYPTO_TEST_COUNTS)
 * and exits non-zero when anything failed.
 */
export function finishStep(name: string, counts: { passed: number; failed: number }): never {
  process.stdout.write(`\n${name}: ${counts.passed} passed, ${counts.failed} failed\n`)
  if (process.env.CRYPTO_TEST_COUNTS) fs.writeFileSync(process.env.CRYPTO_TEST_COUNTS, JSON.stringify(counts))
  process.exit(counts.failed ? 1 : 0)
}

/**
 * Runs a script step's main and ends the step: an error it throws counts as one failure, said on the
 * console (with `describe`'s words for it), then finishStep.
 */
export function runStep(
  name: string,
  counts: { passed: number; failed: number },
  main: () => Promise<void>,
  describe: (error: unknown) => string = (error) => (error instanceof Error ? error.message : String(error))
): void {
  main()
    .catch((error) => {
      counts.failed++
      process.stdout.write(`\n✖ ${describe(error)}\n`)
    })
    .finally(() => finishStep(name, counts))
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer()
    server.once("error", () => resolve(false))
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)))
  })
}

/**
 * The demo's ports: the usual ones, or those set in DEMO_SANDBOX_PORT, DEMO_MEDUSA_PORT and
 * DEMO_STOREFRONT_PORT. A usual port that is busy is replaced by a free one; a port set that is busy stops the demo.
 */
export const DEMO_PORTS = {
  sandbox: { variable: "DEMO_SANDBOX_PORT", usual: 4010 },
  medusa: { variable: "DEMO_MEDUSA_PORT", usual: 9000 },
  storefront: { variable: "DEMO_STOREFRONT_PORT", usual: 8000 },
} as const

async function demoPort(which: keyof typeof DEMO_PORTS, env = process.env): Promise<number> {
  const { variable, usual } = DEMO_PORTS[which]
  const set = env[variable]
  if (set === undefined || set === "") return choosePort(usual)
  const port = Number(set)
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`${variable} must be a port number (1–65535), not "${set}"`)
  if (!(await portFree(port))) throw new Error(`port ${port} (${variable}) is busy: free it or set another`)
  return port
}

export async function choosePort(preferred: number): Promise<number> {
  if (await portFree(preferred)) return preferred
  return new Promise((resolve) => {
    const server = net.createServer()
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

function tail(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, "utf8").trim().split("\n").slice(-lines).join("\n")
  } catch {
    return "(no output)"
  }
}

/** `run` with a client of the server's `postgres` database. */
async function onServer<T>(server: Omit<Throwaway, "stop" | "kind">, run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ ...server, database: "postgres" })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`

/** A new database `name`, empty or a copy of `template` (which nothing may be connected to). */
const createDatabase = (server: Omit<Throwaway, "stop" | "kind">, name: string, template?: string) =>
  onServer(server, (client) =>
    client.query(`CREATE DATABASE ${quoted(name)}${template ? ` TEMPLATE ${quoted(template)}` : ""}`)
  )

const databaseExists = (server: Omit<Throwaway, "stop" | "kind">, name: string) =>
  onServer(
    server,
    async (client) => (await client.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name])).rowCount === 1
  )

/**
 * Starts the store. `adminDashboard` serves the dashboard at /app (with the plugin's widget and
 * page); `database` reuses a running PostgreSQL instead of starting one.
 */
export async function startDemoStore(opts: {
  adminDashboard: boolean
  /** The store's directory (default: this repository's development store). */
  root?: string
  say: (line: string) => void
  database?: Omit<Throwaway, "stop" | "kind">
  /**
   * A database migrated with this repository's configuration (`npm test`'s template) to copy instead of
   * migrating a new one; ignored for a store in another `root`. Its first use adds the demo's admin to a
   * copy of it, `<template>_demo`, which later stores copy too.
   */
  template?: string
  /** Run `medusa db:migrate` on the copy as well: the store's configuration adds modules the template lacks. */
  migrate?: boolean
  /** More environment for Medusa (CRYPTO_RECONCILE_INTERVAL_SECONDS, say). */
  env?: NodeJS.ProcessEnv
  /** The crypto providers the seeded regions offer (default pp_crypto_crypto). */
  cryptoProviders?: string[]
  /** The regions seeded (default "demo": US in USD and Europe in EUR; "starter": Medusa's starter's Europe region alone). */
  layout?: SeedLayout
  /** Build and serve the demo storefront (scripts/demo/storefront) against this store. */
  storefront?: boolean
  /** Receives stop() at once, so Ctrl-C while starting stops what has started. */
  onStop?: (stop: () => Promise<void>) => void
}): Promise<RunningStore> {
  const { say } = opts
  const step = (line: string) => say(`\n▸ ${line}`)
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "medusa-crypto-demo-"))
  let database: Throwaway | undefined
  let sandbox: Sandbox | undefined
  let medusa: ChildProcess | undefined
  let stopped: Promise<void> | undefined
  let storefrontDir: string | undefined

  const extraStops: Array<() => Promise<void>> = []
  const stopEverything = async () => {
    for (const extra of extraStops) await extra()
    // npx may be gone (on SIGTERM at once, or earlier) while the server it started lives on: the whole group
    if (medusa?.pid) await stopGroup(medusa.pid)
    await sandbox?.close()
    await database?.stop()
    if (storefrontDir) fs.rmSync(storefrontDir, { recursive: true, force: true })
  }
  const stop = () => (stopped ??= stopEverything())
  opts.onStop?.(stop)

  /** Runs a Medusa CLI command to completion, its output in a log file (shown when it fails). */
  const medusaCli = (args: string[], env: NodeJS.ProcessEnv, logName: string) =>
    new Promise<void>((resolve, reject) => {
      const logFile = path.join(logDir, logName)
      const out = fs.openSync(logFile, "w")
      const child = spawn("npx", ["medusa", ...args], { cwd: opts.root ?? ROOT, env, stdio: ["ignore", out, out] })
      child.on("exit", (code) => {
        fs.closeSync(out)
        if (code === 0) return resolve()
        reject(new Error(`medusa ${args.join(" ")} failed (exit ${code}):\n${tail(logFile)}`))
      })
    })

  const waitForHealth = async (url: string, logFile: string, timeoutMs = 240_000) => {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      if (medusa?.exitCode !== null && medusa?.exitCode !== undefined) {
        throw new Error(`Medusa exited (code ${medusa.exitCode}):\n${tail(logFile)}`)
      }
      const ok = await axios.get(`${url}/health`, { timeout: 2000 }).then(
        (r) => r.status === 200,
        () => false
      )
      if (ok) return
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    throw new Error(`Medusa did not become healthy within ${timeoutMs / 1000} s:\n${tail(logFile)}`)
  }

  try {
    const dbName = `medusa_demo_${Date.now().toString(36)}`
    let server = opts.database
    if (!server) {
      step("Starting a throwaway PostgreSQL")
      database = (await startThrowawayPostgres()) as Throwaway
      server = database
      say(`  ${database.kind} on port ${database.port}`)
    }
    step("Starting the crypto payment service sandbox")
    sandbox = await startSandbox({ port: await demoPort("sandbox"), apiKey: API_KEY, blockIntervalMs: 0 })
    const control = new SandboxControl(sandbox.url)
    say(`  ${sandbox.url} (API key ${API_KEY})`)

    const port = await demoPort("medusa")
    const backendUrl = `http://localhost:${port}`
    // the storefront's origin must be in STORE_CORS before Medusa starts; it is built while Medusa boots
    const storefrontPort = opts.storefront ? await demoPort("storefront") : undefined
    // a busy usual port is not an error: a free one is taken, and said (the summary names every URL)
    for (const [what, which, took] of [
      ["the sandbox", "sandbox", new URL(sandbox.url).port],
      ["Medusa", "medusa", port],
      ["the storefront", "storefront", storefrontPort],
    ] as const) {
      const { variable, usual } = DEMO_PORTS[which]
      if (took !== undefined && Number(took) !== usual && !process.env[variable])
        say(`  port ${usual} is busy: ${what} listens on ${took} (${variable} picks one)`)
    }
    const storefrontOrigin = storefrontPort ? `http://localhost:${storefrontPort}` : undefined
    const storefrontBuild = opts.storefront ? buildStorefront().then((dir) => (storefrontDir = dir)) : undefined
    storefrontBuild?.catch(() => {})
    const storeDefaults: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "development",
      DATABASE_URL: databaseUrl(server, dbName),
      PORT: String(port),
      CRYPTO_API_KEY: API_KEY,
      CRYPTO_BASE_URL: sandbox.url,
      // the Europe region's EUR carts are priced from the sandbox's ECB file (offline)
      CRYPTO_ECB_URL: process.env.CRYPTO_ECB_URL ?? `${sandbox.url}/ecb/eurofxref-daily.xml`,
      CRYPTO_BACKEND_URL: backendUrl,
      MEDUSA_BACKEND_URL: backendUrl,
      MEDUSA_ADMIN_DISABLED: opts.adminDashboard ? "false" : "true",
      MEDUSA_DISABLE_TELEMETRY: "true",
      // MEDUSA_DISABLE_TELEMETRY stops the events but not the flush, which forks a node process every
      // 10 s and every 20 events; the setting that stops it lives in the user's config directory
      XDG_CONFIG_HOME: telemetryOff(logDir),
      ADMIN_CORS: `${backendUrl},http://localhost:5173`,
      AUTH_CORS: `${backendUrl},http://localhost:5173,http://localhost:8000`,
      STORE_CORS: [process.env.STORE_CORS ?? "http://localhost:8000", storefrontOrigin].filter(Boolean).join(","),
      ...(storefrontOrigin ? { MEDUSA_STOREFRONT_URL: storefrontOrigin } : {}),
    }
    const env: NodeJS.ProcessEnv = { ...storeDefaults, ...opts.env }

    const template = opts.root ? undefined : opts.template
    if (template) {
      const withAdmin = `${template}_demo`
      if (!(await databaseExists(server, withAdmin))) {
        step(`Copying the migrated template and adding the admin user ${ADMIN.email}`)
        await createDatabase(server, withAdmin, template)
        const adminEnv = { ...storeDefaults, DATABASE_URL: databaseUrl(server, withAdmin) }
        await medusaCli(["user", "-e", ADMIN.email, "-p", ADMIN.password], adminEnv, "user.log")
      }
      await createDatabase(server, dbName, withAdmin)
      if (opts.migrate) {
        step("Running the migrations the template lacks")
        await medusaCli(["db:migrate"], env, "migrate.log")
      }
    } else {
      await createDatabase(server, dbName)
      step("Running migrations")
      await medusaCli(["db:migrate"], env, "migrate.log")
      step(`Creating the admin user ${ADMIN.email}`)
      await medusaCli(["user", "-e", ADMIN.email, "-p", ADMIN.password], env, "user.log")
    }

    step(`Starting Medusa with the plugin on ${backendUrl}${opts.adminDashboard ? " (with the admin dashboard)" : ""}`)
    const medusaLog = path.join(logDir, "medusa.log")
    const startMedusa = async (extra: NodeJS.ProcessEnv = {}, root = opts.root ?? ROOT) => {
      const out = fs.openSync(medusaLog, "a")
      medusa = spawn("npx", ["medusa", "develop"], {
        cwd: root,
        env: { ...env, ...extra },
        stdio: ["ignore", out, out],
        detached: true,
      })
      await waitForHealth(backendUrl, medusaLog)
    }
    await startMedusa()
    say("  ready")
    const others: ChildProcess[] = []
    const startAnother = async (extra: NodeJS.ProcessEnv) => {
      const otherPort = await choosePort(port + 1 + others.length)
      const url = `http://localhost:${otherPort}`
      const log = path.join(logDir, `medusa-${others.length + 2}.log`)
      const out = fs.openSync(log, "a")
      const child = spawn("npx", ["medusa", "develop"], {
        cwd: opts.root ?? ROOT,
        env: { ...env, ...extra, PORT: String(otherPort) },
        stdio: ["ignore", out, out],
        detached: true,
      })
      others.push(child)
      const deadline = Date.now() + 240_000
      while (
        !(await axios.get(`${url}/health`, { timeout: 2000 }).then(
          (r) => r.status === 200,
          () => false
        ))
      ) {
        if (child.exitCode !== null) throw new Error(`the second Medusa exited (code ${child.exitCode}):\n${tail(log)}`)
        if (Date.now() > deadline) throw new Error(`the second Medusa did not become healthy:\n${tail(log)}`)
        await new Promise((resolve) => setTimeout(resolve, 500))
      }
      return { url }
    }
    extraStops.push(async () => {
      for (const child of others) if (child.pid) await stopGroup(child.pid)
    })
    const crash = async () => {
      const running = medusa
      if (!running?.pid || running.exitCode !== null) return
      const exited = new Promise((resolve) => running.once("exit", resolve))
      process.kill(-running.pid, "SIGKILL")
      await exited
    }

    step("Seeding the shop through the admin API")
    const { token } = (await axios.post(`${backendUrl}/auth/user/emailpass`, ADMIN)).data
    const admin = axios.create({ baseURL: backendUrl, headers: { authorization: `Bearer ${token}` } })
    const store = await seedDemoStore(admin, opts.cryptoProviders, opts.layout)
    say(
      `  ${store.regions.map((r) => `${r.name} region (${r.currencyCode.toUpperCase()}) ${r.id}`).join(", ")} with pp_crypto_crypto; product "Hardware wallet" ($79 / €75, 100 in stock); publishable key ${store.publishableKey}`
    )
    let storefrontUrl: string | undefined
    if (storefrontBuild && storefrontPort) {
      step("Serving the demo storefront")
      const storefront = await serveStorefront({
        dir: await storefrontBuild,
        port: storefrontPort,
        config: { backendUrl, publishableKey: store.publishableKey, storeName: "Crypto webshop" },
      })
      extraStops.push(storefront.close)
      storefrontUrl = storefront.url
      say(`  ${storefrontUrl}`)
    }
    return {
      backendUrl,
      storefrontUrl,
      crash,
      restart: startMedusa,
      startAnother,
      sandboxUrl: sandbox.url,
      control,
      admin,
      store,
      logDir,
      databaseUrl: env.DATABASE_URL!,
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}
