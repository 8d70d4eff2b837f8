#!/usr/bin/env node
"use strict"
/**
 * Runs a command with a throwaway PostgreSQL (see lib/throwaway-postgres.js) and an empty
 * database in DATABASE_URL, then stops the server. For maintenance commands such as
 * `node scripts/with-postgres.js npx medusa plugin:db:generate`.
 */
const { spawn } = require("node:child_process")
const { Client } = require("pg")
const { startThrowawayPostgres, databaseEnv, databaseUrl } = require("./lib/throwaway-postgres")

async function main() {
  const [cmd, ...args] = process.argv.slice(2)
  if (!cmd) throw new Error("usage: node scripts/with-postgres.js <command> [args...]")
  const db = await startThrowawayPostgres()
  try {
    const client = new Client({
      host: db.host,
      port: db.port,
      user: db.user,
      password: db.password,
      database: "postgres",
    })
    await client.connect()
    await client.query('CREATE DATABASE "medusa_work"')
    await client.end()
    const env = {
      ...process.env,
      ...databaseEnv(db),
      DB_NAME: "medusa_work",
      DATABASE_URL: databaseUrl(db, "medusa_work"),
    }
    return await new Promise((resolve) => {
      const child = spawn(cmd, args, { stdio: "inherit", env })
      const forward = (signal) => child.kill(signal)
      process.on("SIGINT", forward)
      process.on("SIGTERM", forward)
      child.on("exit", (code) => resolve(code ?? 1))
    })
  } finally {
    await db.stop()
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error)
    process.exit(1)
  }
)
