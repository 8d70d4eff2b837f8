/**
 * The demo store in one command. Brings up a throwaway PostgreSQL, the service sandbox, migrates,
 * creates an admin, starts Medusa with the plugin, seeds a shop and runs a customer's crypto
 * checkout end to end, printing each step. Then it keeps running with the URLs printed, until
 * Ctrl-C stops everything it started. `--once` runs the checkout and exits (0 on success).
 */
import { ChildProcess, spawn } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import net from "node:net"
import axios from "axios"
import { Client } from "pg"
import { startSandbox, Sandbox, SandboxControl } from "../../src/sandbox"
import { seedDemoStore } from "./seed"
import { runScriptedCheckout } from "./checkout"

// eslint-disable-next-line @typescript-eslint/no-var-requires
const { startThrowawayPostgres, databaseUrl } = require("../lib/throwaway-postgres")

const ONCE = process.argv.includes("--once")
const ROOT = path.resolve(__dirname, "..", "..")
const API_KEY = "sandbox_test_key"
const ADMIN = { email: "admin@crypto-demo.test", password: "crypto-demo-2026" }
const LOG_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "medusa-crypto-demo-"))

const say = (line: string) => process.stdout.write(`${line}\n`)
const step = (line: string) => say(`\n▸ ${line}`)

type Throwaway = { host: string; port: number; user: string; password: string; kind: string; stop: () => Promise<void> | void }

let database: Throwaway | undefined
let sandbox: Sandbox | undefined
let medusa: ChildProcess | undefined
let stopped: Promise<void> | undefined

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer()
    server.once("error", () => resolve(false))
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)))
  })
}

async function choosePort(preferred: number): Promise<number> {
  if (await portFree(preferred)) return preferred
  return new Promise((resolve) => {
    const server = net.createServer()
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/** Runs a Medusa CLI command to completion, its output in a log file (shown when it fails). */
function medusaCli(args: string[], env: NodeJS.ProcessEnv, logName: string): Promise<void> {
  const logFile = path.join(LOG_DIR, logName)
  return new Promise((resolve, reject) => {
    const out = fs.openSync(logFile, "w")
    const child = spawn("npx", ["medusa", ...args], { cwd: ROOT, env, stdio: ["ignore", out, out] })
    child.on("exit", (code) => {
      fs.closeSync(out)
      if (code === 0) return resolve()
      reject(new Error(`medusa ${args.join(" ")} failed (exit ${code}):\n${tail(logFile)}`))
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

async function waitForHealth(url: string, logFile: string, timeoutMs = 240_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (medusa?.exitCode !== null && medusa?.exitCode !== undefined) {
      throw new Error(`Medusa exited (code ${medusa.exitCode}):\n${tail(logFile)}`)
    }
    const ok = await axios.get(`${url}/health`, { timeout: 2000 }).then((r) => r.status === 200, () => false)
    if (ok) return
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error(`Medusa did not become healthy within ${timeoutMs / 1000} s:\n${tail(logFile)}`)
}

/** Stops what this command started; every caller waits for the same stop. */
function stopAll(): Promise<void> {
  stopped ??= stopEverything()
  return stopped
}

async function stopEverything(): Promise<void> {
  if (medusa && medusa.exitCode === null && medusa.pid) {
    const exited = new Promise((resolve) => medusa!.once("exit", resolve))
    try {
      process.kill(-medusa.pid, "SIGTERM")
    } catch {
      /* already gone */
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-medusa!.pid!, "SIGKILL")
      } catch {
        /* already gone */
      }
    }, 10_000)
    await exited
    clearTimeout(timer)
  }
  await sandbox?.close()
  await database?.stop()
}

async function main(): Promise<void> {
  const started = Date.now()
  say("medusa-payment-crypto demo: a Medusa store taking crypto, against the local service sandbox")
  say(`(logs in ${LOG_DIR})`)

  step("Starting a throwaway PostgreSQL")
  database = (await startThrowawayPostgres()) as Throwaway
  const client = new Client({ host: database.host, port: database.port, user: database.user, password: database.password, database: "postgres" })
  await client.connect()
  await client.query('CREATE DATABASE "medusa_demo"')
  await client.end()
  say(`  ${database.kind} on port ${database.port}`)

  step("Starting the crypto payment service sandbox")
  sandbox = await startSandbox({ port: await choosePort(4010), apiKey: API_KEY, blockIntervalMs: 0 })
  const control = new SandboxControl(sandbox.url)
  say(`  ${sandbox.url} (API key ${API_KEY})`)

  const port = await choosePort(9000)
  const backendUrl = `http://localhost:${port}`
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "development",
    DATABASE_URL: databaseUrl(database, "medusa_demo"),
    PORT: String(port),
    CRYPTO_API_KEY: API_KEY,
    CRYPTO_BASE_URL: sandbox.url,
    CRYPTO_BACKEND_URL: backendUrl,
    MEDUSA_ADMIN_DISABLED: ONCE ? "true" : "false",
    MEDUSA_DISABLE_TELEMETRY: "true",
    ADMIN_CORS: `${backendUrl},http://localhost:5173`,
    AUTH_CORS: `${backendUrl},http://localhost:5173,http://localhost:8000`,
  }

  step("Running migrations")
  await medusaCli(["db:migrate"], env, "migrate.log")
  step(`Creating the admin user ${ADMIN.email}`)
  await medusaCli(["user", "-e", ADMIN.email, "-p", ADMIN.password], env, "user.log")

  step(`Starting Medusa with the plugin on ${backendUrl}${ONCE ? "" : " (with the admin dashboard)"}`)
  const medusaLog = path.join(LOG_DIR, "medusa.log")
  const out = fs.openSync(medusaLog, "w")
  medusa = spawn("npx", ["medusa", "develop"], { cwd: ROOT, env, stdio: ["ignore", out, out], detached: true })
  await waitForHealth(backendUrl, medusaLog)
  say("  ready")

  step("Seeding the shop through the admin API")
  const { token } = (await axios.post(`${backendUrl}/auth/user/emailpass`, ADMIN)).data
  const admin = axios.create({ baseURL: backendUrl, headers: { authorization: `Bearer ${token}` } })
  const store = await seedDemoStore(admin)
  say(`  USD region ${store.regionId} with pp_crypto_crypto; product "Hardware wallet" ($79, 100 in stock); publishable key ${store.publishableKey}`)

  step("A customer checks out with crypto (@medusajs/js-sdk)")
  const result = await runScriptedCheckout({ backendUrl, store, sandbox: control, admin, log: (line) => say(`  ${line}`) })

  step(`Done in ${Math.round((Date.now() - started) / 1000)} s: order #${result.displayId} (${result.orderId}) captured, $${result.total}`)
  if (ONCE) return

  say(`
  Store API     ${backendUrl}/store   (x-publishable-api-key: ${store.publishableKey})
  Admin         ${backendUrl}/app   (${ADMIN.email} / ${ADMIN.password})
  Invoice page  ${result.invoiceUrl}   (the paid demo invoice; new checkouts get their own)
  Sandbox       ${sandbox.url}/__sandbox/   (control API)
  Status route  ${backendUrl}/store/crypto/payments/${result.paymentId}

  Try it by hand: create a cart and a crypto session with the store API, open its invoiceUrl, pick a
  coin, pay and confirm on the page, and watch the order turn paid in the admin.
  Ctrl-C stops everything this command started.`)
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve)
    process.once("SIGTERM", resolve)
  })
}

process.on("SIGINT", () => void stopAll().then(() => process.exit(130)))
process.on("SIGTERM", () => void stopAll().then(() => process.exit(143)))

main()
  .then(async () => {
    await stopAll()
    process.exit(0)
  })
  .catch(async (error) => {
    say(`\n✖ ${error instanceof Error ? error.message : String(error)}`)
    await stopAll()
    process.exit(1)
  })
