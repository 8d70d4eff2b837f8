/**
 * Counts the SQL statements a running Medusa sends, for docs/performance.md's "statements per ..." tables:
 *
 *   STATEMENTS_FILE=/tmp/statements.jsonl NODE_OPTIONS="--require ./scripts/profile/statements.js" npx medusa develop
 *
 * Every statement through node-postgres (knex's and MikroORM's, and the plugin's prepared ones) is noted
 * with its time and first words. Writing to `<STATEMENTS_FILE>.mark` (any content) makes every process
 * that loaded this append what it noted since the last mark to STATEMENTS_FILE as one JSON line, and
 * start afresh. A client that marks before and after the work it drives (and keeps the job out of the
 * way) gets that work's statements: scripts/profile/session-statements.ts.
 */
const fs = require("node:fs")

const file = process.env.STATEMENTS_FILE || require("node:path").join(require("node:os").tmpdir(), "statements.jsonl")
let noted = []

function patch(pg) {
  const query = pg.Client.prototype.query
  if (query.__counted) return
  pg.Client.prototype.query = function counted(config, ...rest) {
    const text = typeof config === "string" ? config : (config && (config.text || config.name)) || "?"
    noted.push({ at: Date.now(), sql: String(text).replace(/\s+/g, " ").slice(0, 160) })
    return query.call(this, config, ...rest)
  }
  pg.Client.prototype.query.__counted = true
}

const Module = require("node:module")
const load = Module._load
Module._load = function (request, ...rest) {
  const loaded = load.call(this, request, ...rest)
  if (request === "pg" && loaded && loaded.Client) patch(loaded)
  return loaded
}

const mark = `${file}.mark`
if (!fs.existsSync(mark)) fs.writeFileSync(mark, "")
fs.watchFile(mark, { interval: 50 }, () => {
  fs.appendFileSync(file, JSON.stringify({ pid: process.pid, statements: noted }) + "\n")
  noted = []
}).unref()
