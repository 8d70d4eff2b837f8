"use strict"
/**
 * One migrated database per `npm test` run, cloned by every Medusa integration spec
 * (integration-tests/helpers/runner.ts) instead of each running Medusa's 200-odd migrations again.
 */
const { spawn } = require("node:child_process")
const { Client } = require("pg")
const { databaseUrl } = require("./throwaway-postgres")

const quoted = (name) => `"${name.replace(/"/g, '""')}"`

async function onServer(db, sql) {
  const client = new Client({
    host: db.host,
    port: db.port,
    user: db.user,
    password: db.password || undefined,
    database: "postgres",
  })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/**
 * Creates `name` and runs `medusa db:migrate` on it with the development store's configuration (its
 * modules, links and the plugin's migrations). Resolves once it is migrated; rejects with the command's output.
 */
async function migratedTemplate(db, name, logFile) {
  await dropTemplate(db, name)
  await onServer(db, `CREATE DATABASE ${quoted(name)}`)
  const output = []
  const code = await new Promise((resolve) => {
    const child = spawn("npx", ["medusa", "db:migrate", "--skip-scripts"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, DATABASE_URL: databaseUrl(db, name), NODE_ENV: "development", LOG_LEVEL: "warn" },
    })
    for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk) => output.push(chunk))
    child.on("close", (exitCode) => resolve(exitCode ?? 1))
  })
  if (logFile) require("node:fs").writeFileSync(logFile, Buffer.concat(output))
  if (code !== 0)
    throw new Error(
      `medusa db:migrate failed on the template database (exit ${code}):\n${Buffer.concat(output).toString().slice(-3000)}`
    )
}

async function dropTemplate(db, name) {
  await onServer(db, `DROP DATABASE IF EXISTS ${quoted(name)}`)
}

module.exports = { migratedTemplate, dropTemplate }
