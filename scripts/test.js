#!/usr/bin/env node
"use strict"
/**
 * `npm test`: typecheck, unit tests, then integration tests against a real PostgreSQL.
 * When no database is configured (DB_HOST or DATABASE_URL), a throwaway server is started
 * for the run and stopped afterwards, also when a step fails or the run is interrupted.
 *
 *   npm test                      everything
 *   npm test -- unit              only the steps named (typecheck, unit, integration, reliability, package, browser;
 *                                 admin-browser, storefront and payment-link run one of browser's suites alone)
 *   npm test -- integration -t X  extra arguments after the step names go to jest
 *
 * Each step's output goes to a log file (named in the summary; CRYPTO_TEST_LOGS picks the folder);
 * the console gets one line per step and, for a failing step, its failures. TEST_VERBOSE=1 streams
 * every step's output to the console as well.
 */
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")
const { spawn } = require("node:child_process")
const { startThrowawayPostgres, configuredDatabase, databaseEnv } = require("./lib/throwaway-postgres")
const { migratedTemplate, dropTemplate } = require("./lib/template-database")

// Medusa integration specs: never two at once on 2 cores, and never all in one process. CRYPTO_TEST_IN_BAND=1
// runs a few specs in jest's own process instead: a failure whose error jest's worker cannot pass back (an
// axios error holds circular sockets) otherwise crashes the worker, and jest runs the file again, silently
const ONE_RECYCLED_WORKER =
  process.env.CRYPTO_TEST_IN_BAND === "1"
    ? ["--runInBand"]
    : ["--maxWorkers=1", "--workerIdleMemoryLimit=1536MB", "--logHeapUsage"]

/** A step of browser checks in Debian's Chromium: a script of scripts/ that starts its store from the template. */
const browserStep = (script, more = {}) => ({
  needsDb: true,
  clonesTemplate: true,
  cmd: ["node", "-r", "ts-node/register/transpile-only", `scripts/${script}`],
  ...more,
})

const STEPS = {
  // the server code, then the browser bundles with their own compiler options (the admin extensions; the demo
  // storefront with the components of docs/storefront; those components again as Medusa's Next.js starter
  // compiles them: ES5, lib DOM + ES2017, @types/node 17, @types/react 19), then the formatting
  typecheck: {
    needsDb: false,
    cmd: [
      "sh",
      "-c",
      "npx tsc -p tsconfig.typecheck.json && npx tsc -p src/admin/tsconfig.json && npx tsc -p scripts/demo/storefront/tsconfig.json && npx tsc -p scripts/starter-typecheck/tsconfig.json && npx prettier --check --log-level warn .",
    ],
  },
  unit: { needsDb: false, cmd: ["npx", "jest", "--runInBand"], env: { TEST_TYPE: "unit" } },
  // one worker at a time, replaced once its heap passes 1.5 GB after a file: each spec boots Medusa, and a
  // process that ran all 23 in band kept ≈ 160 MB a spec and ran out of heap (4 GB) near the end in CI
  integration: {
    needsDb: true,
    clonesTemplate: true,
    cmd: ["npx", "jest", ...ONE_RECYCLED_WORKER, "--forceExit"],
    env: { TEST_TYPE: "integration:http", NODE_OPTIONS: "--experimental-vm-modules" },
  },
  // forged, duplicate and hostile input and a secrets scan; the short profile unless RELIABILITY_PROFILE=full
  reliability: {
    needsDb: true,
    clonesTemplate: true,
    cmd: ["npx", "jest", ...ONE_RECYCLED_WORKER, "--forceExit"],
    // one run id: the figures and what R7 scans are collected per run
    env: {
      TEST_TYPE: "integration:reliability",
      NODE_OPTIONS: "--experimental-vm-modules",
      RELIABILITY_RUN: process.env.RELIABILITY_RUN || `test-${process.pid}`,
    },
  },
  // the packed plugin installed into a new store, as a shop installs it (MEDUSA_VERSION=2.x.y to pick Medusa)
  package: { needsDb: true, cmd: ["node", "-r", "ts-node/register/transpile-only", "scripts/package-test.ts"] },
  // the three browser suites below on one development store with its dashboard and the demo storefront
  browser: browserStep("browser-test.ts"),
  // each browser suite alone, on a store of its own (a whole run has them in `browser`): the admin widget and
  // page; a customer buying through the demo storefront, both order modes and an expiry; an order's
  // outstanding amount in crypto (the admin's payment link, the storefront's payment-collection page, a short
  // payment's remainder)
  "admin-browser": browserStep("admin-browser-test.ts", { alone: true }),
  storefront: browserStep("storefront-browser-test.ts", { alone: true }),
  "payment-link": browserStep("payment-link-browser-test.ts", { alone: true }),
}

const argv = process.argv.slice(2)
const named = []
while (argv.length && STEPS[argv[0]]) named.push(argv.shift())
const steps = named.length ? named : Object.keys(STEPS).filter((step) => !STEPS[step].alone)
const jestArgs = argv

let database = null
const children = new Set()
let stopping = false

let templateServer = null

// the package step's stores are built and installed beside the integration tests (npm's work there is
// mostly I/O, the tests' mostly waiting on HTTP): the step itself then only boots and pays
const packageStores = path.join(os.tmpdir(), `crypto-package-stores-${process.pid}`)

async function stopDatabase() {
  if (templateServer) {
    const server = templateServer
    templateServer = null
    // with the copy the test stores start from (scripts/demo/store.ts), made by the first of them
    for (const name of [`crypto_test_template_${process.pid}_demo`, `crypto_test_template_${process.pid}`])
      await dropTemplate(server, name).catch(() => undefined)
  }
  fs.rmSync(packageStores, { recursive: true, force: true })
  if (database) {
    const db = database
    database = null
    await db.stop()
  }
}

const verbose = process.env.TEST_VERBOSE === "1"
const logDir = process.env.CRYPTO_TEST_LOGS || fs.mkdtempSync(path.join(os.tmpdir(), "crypto-test-logs-"))
fs.mkdirSync(logDir, { recursive: true })

/** Runs a step with its output in `logFile` (and on the console when verbose); resolves its exit code. */
function run(cmd, env, logFile) {
  return new Promise((resolve) => {
    const log = fs.createWriteStream(logFile)
    const child = spawn(cmd[0], cmd.slice(1), { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } })
    children.add(child)
    for (const stream of [child.stdout, child.stderr]) {
      stream.pipe(log, { end: false })
      if (verbose) stream.pipe(process.stdout, { end: false })
    }
    child.on("close", (code, signal) => {
      children.delete(child)
      log.end(() => resolve(code ?? (signal ? 1 : 0)))
    })
  })
}

/** What a failing step shows on the console: its failing tests, else the end of its log. */
function failureSummary(counts, logFile) {
  const lines = []
  for (const failure of (counts && counts.failures) || []) {
    lines.push(`  ✕ ${failure.name}`)
    const message = failure.message
      .replace(/\u001b\[[0-9;]*m/g, "")
      .split("\n")
      .slice(0, 12)
    lines.push(...message.map((line) => `      ${line}`))
  }
  if (lines.length) return lines.join("\n")
  const text = fs.readFileSync(logFile, "utf8").replace(/\u001b\[[0-9;]*m/g, "")
  const marked = text.split("\n").filter((line) => /✕/.test(line))
  const tail = text.split("\n").slice(-40)
  return [...marked, "  … the end of its log:", ...tail.map((line) => `  ${line}`)].join("\n")
}

async function shutdown(signal) {
  if (stopping) return
  stopping = true
  process.stderr.write(`\n${signal}: stopping\n`)
  for (const child of children) child.kill(signal)
  await stopDatabase()
  process.exit(130)
}
process.on("SIGINT", () => shutdown("SIGINT"))
process.on("SIGTERM", () => shutdown("SIGTERM"))
process.on("SIGHUP", () => shutdown("SIGHUP"))

async function main() {
  let dbEnv = {}
  if (steps.some((s) => STEPS[s].needsDb)) {
    const given = configuredDatabase()
    if (given) {
      dbEnv = databaseEnv(given)
      console.log(`Using the configured database at ${given.host}:${given.port}`)
    } else {
      const started = Date.now()
      database = await startThrowawayPostgres()
      dbEnv = databaseEnv(database)
      console.log(`Started a throwaway ${database.kind} on port ${database.port} in ${Date.now() - started} ms`)
    }
  }
  const counts = { passed: 0, failed: 0 }
  const table = []
  const report = (code) => {
    console.log(`\n${table.join("\n")}`)
    console.log(`\nTests: ${counts.passed} passed, ${counts.failed} failed (logs in ${logDir})`)
    return code
  }
  // one migrated database for the run, cloned by each Medusa spec (the runner's migrations then find all applied)
  const templateName = `crypto_test_template_${process.pid}`
  let templateEnv = {}
  const server = database ?? configuredDatabase()

  /** Runs one step to its end: its console lines, its row of the table; resolves its exit code. */
  async function runStep(step) {
    const { cmd, env = {}, needsDb } = STEPS[step]
    const results = path.join(os.tmpdir(), `crypto-test-counts-${process.pid}-${step}.json`)
    const full = STEPS[step].cmd[0] === "npx" && STEPS[step].cmd[1] === "jest" ? [...cmd, ...jestArgs] : cmd
    const logFile = path.join(logDir, `${step}.log`)
    console.log(`\n▶ ${step}: ${full.join(" ")}`)
    const started = Date.now()
    const code = await run(
      full,
      {
        ...env,
        ...(needsDb ? dbEnv : {}),
        ...(STEPS[step].clonesTemplate ? templateEnv : {}),
        ...(step === "package" && fs.existsSync(packageStores) ? { CRYPTO_PACKAGE_STORES: packageStores } : {}),
        CRYPTO_TEST_COUNTS: results,
        CRYPTO_TEST_TIMES: path.join(logDir, `${step}-times.tsv`),
      },
      logFile
    )
    const seconds = ((Date.now() - started) / 1000).toFixed(1)
    let json = null
    if (fs.existsSync(results)) {
      json = JSON.parse(fs.readFileSync(results, "utf8"))
      counts.passed += json.passed
      counts.failed += json.failed
      fs.rmSync(results)
    }
    const tally = json ? `${json.passed} passed, ${json.failed} failed` : code === 0 ? "ok" : "failed"
    const slowest = json?.slowest?.length
      ? `    slowest: ${json.slowest.map((spec) => `${spec.file} ${spec.seconds.toFixed(0)} s`).join(", ")}`
      : null
    console.log(
      `◀ ${step}: ${tally}, exit ${code} after ${seconds} s — log: ${logFile}${slowest ? `\n${slowest}` : ""}`
    )
    table.push(`  ${step.padEnd(13)} ${tally.padEnd(22)} ${seconds.padStart(7)} s`, ...(slowest ? [slowest] : []))
    if (code !== 0) console.log(failureSummary(json, logFile))
    return code
  }

  // the typecheck needs no database: it runs beside the unit tests and the template's migration, and is
  // awaited before the first step that boots Medusa (two steps on 2 cores, never two Medusa boots)
  const beside = steps.length > 1 && steps.includes("typecheck") ? runStep("typecheck") : null
  let preparing = null
  const prepareStores = async () => {
    const began = Date.now()
    const logFile = path.join(logDir, "package-prepare.log")
    const code = await run(
      ["node", "-r", "ts-node/register/transpile-only", "scripts/package-test.ts", "--prepare"],
      { CRYPTO_PACKAGE_STORES: packageStores },
      logFile
    )
    const seconds = ((Date.now() - began) / 1000).toFixed(1)
    // a failed preparation is left to the package step, which then packs and installs by itself
    if (code !== 0) fs.rmSync(packageStores, { recursive: true, force: true })
    console.log(
      `\n▷ package stores: ${code === 0 ? "built and installed" : "not prepared"} in ${seconds} s — log: ${logFile}`
    )
  }
  for (const step of steps) {
    if (beside && step === "typecheck") continue
    if (beside && step !== "unit") {
      const code = await beside
      if (code !== 0) return report(code)
    }
    if (STEPS[step].clonesTemplate && !templateEnv.CRYPTO_TEST_TEMPLATE_DB) {
      const began = Date.now()
      await migratedTemplate(server, templateName, path.join(logDir, "template-database.log"))
      templateEnv = { CRYPTO_TEST_TEMPLATE_DB: templateName }
      templateServer = server
      console.log(`\nMigrated the template database ${templateName} in ${((Date.now() - began) / 1000).toFixed(1)} s`)
    }
    if (step === "integration" && steps.includes("package")) preparing = prepareStores()
    if (step === "package" && preparing) await preparing
    const code = await runStep(step)
    if (code !== 0) {
      if (beside) await beside
      if (preparing) {
        for (const other of children) other.kill("SIGTERM")
        await preparing
      }
      return report(code)
    }
  }
  if (beside) {
    const code = await beside
    if (code !== 0) return report(code)
  }
  return report(0)
}

main()
  .then(async (code) => {
    await stopDatabase()
    process.exit(code)
  })
  .catch(async (error) => {
    console.error(error)
    await stopDatabase()
    process.exit(1)
  })
