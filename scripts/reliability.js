#!/usr/bin/env node
"use strict"
/**
 * `npm run test:reliability`: the reliability suite's full profile (minutes), on a throwaway
 * PostgreSQL like `npm test`, then RELIABILITY.md written from the figures the suite recorded.
 */
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")
const { spawnSync } = require("node:child_process")
const { commitStamp } = require("./lib/commit")
const { SOAK_NOTE, soakRows, ordered } = require("./lib/reliability-doc")

const run = String(process.pid)
const results = path.join(os.tmpdir(), `crypto-reliability-${run}.json`)
const started = Date.now()
const { status } = spawnSync("node", [path.join(__dirname, "test.js"), "reliability", ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, RELIABILITY_PROFILE: "full", RELIABILITY_RUN: run },
})
if (!fs.existsSync(results)) {
  console.error("the suite recorded no figures; RELIABILITY.md is unchanged")
  process.exit(status || 1)
}
const { figures } = JSON.parse(fs.readFileSync(results, "utf8"))
fs.rmSync(results)
const cpus = os.cpus()
const file = path.join(__dirname, "..", "RELIABILITY.md")
const lines = [
  "# Reliability",
  "",
  "Written by `npm run test:reliability` (the full profile) from the figures its tests recorded; do not edit by hand.",
  "",
  `- Run: ${new Date().toISOString()}, ${Math.round((Date.now() - started) / 1000)} s in all, exit ${status}, commit ${commitStamp()}`,
  `- Machine: ${cpus.length} × ${cpus[0]?.model.trim() ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}, Node ${process.version}`,
  "- Medusa: the development store's configuration (in-process locking) on PostgreSQL, the service sandbox over loopback; R3 and R5 run `medusa develop` as processes of their own (R3 with Redis or Postgres locking and a throwaway `redis-server`, R5 kills it with SIGKILL), the others run Medusa inside the test process; R7 scans what all of them logged and answered",
  SOAK_NOTE,
  "",
  "| | what | count | result | time |",
  "|---|---|---|---|---|",
  // the soak's rows (R10, R11) are not the suite's: carried over as they are
  ...ordered([
    ...figures.map((f) => `| ${f.id} | ${f.title} | ${f.count} | ${f.result} | ${(f.ms / 1000).toFixed(1)} s |`),
    ...soakRows(file),
  ]),
  "",
  "",
]
fs.writeFileSync(file, lines.join("\n"))
console.log(`RELIABILITY.md written (${figures.length} figures)`)
process.exit(status)
