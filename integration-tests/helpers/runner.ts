import { randomBytes } from "node:crypto"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { Client } from "pg"

type RunnerOptions = Parameters<typeof medusaIntegrationTestRunner>[0]

/** What a spec's tests get from the runner: the API, the container, the database. */
export type CryptoSuite = Parameters<RunnerOptions["testSuite"]>[0]

/** The migrated database `npm test` prepared for this run (scripts/lib/template-database.js), when it did. */
export const TEMPLATE = process.env.CRYPTO_TEST_TEMPLATE_DB

/**
 * Medusa's integration runner on a database cloned from the run's migrated template: the runner's own
 * migration pass then finds everything applied (a module the spec's configuration adds is migrated as
 * usual). Without a template (jest run by hand) it migrates a new database, as the runner does.
 */
export function cryptoIntegrationRunner(options: RunnerOptions): void {
  const dbName = `crypto-it-${randomBytes(6).toString("hex")}`
  medusaIntegrationTestRunner({
    ...options,
    dbName,
    hooks: {
      ...options.hooks,
      beforeServerStart: async (container) => {
        if (TEMPLATE) await cloneTemplate(TEMPLATE, dbName)
        await options.hooks?.beforeServerStart?.(container)
      },
    },
  })
}

/** A new database `dbName`, a copy of the migrated `template`. */
export async function cloneTemplate(template: string, dbName: string): Promise<void> {
  const client = new Client({
    host: process.env.DB_HOST ?? "localhost",
    port: Number(process.env.DB_PORT ?? 5432),
    user: process.env.DB_USERNAME ?? "postgres",
    password: process.env.DB_PASSWORD || undefined,
    database: "postgres",
  })
  await client.connect()
  try {
    await client.query(`CREATE DATABASE "${dbName}" TEMPLATE "${template.replace(/"/g, '""')}"`)
  } finally {
    await client.end()
  }
}
