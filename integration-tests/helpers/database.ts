import { Client } from "pg"

/** The server the test command pointed us at (DB_* variables), as a client config. */
export function serverConfig(database = "postgres") {
  return {
    host: process.env.DB_HOST ?? "localhost",
    port: Number(process.env.DB_PORT ?? 5432),
    user: process.env.DB_USERNAME ?? "postgres",
    password: process.env.DB_PASSWORD ?? "",
    database,
  }
}

export function databaseUrl(database: string): string {
  const c = serverConfig(database)
  return `postgres://${encodeURIComponent(c.user)}:${encodeURIComponent(c.password)}@${c.host}:${c.port}/${database}`
}

/** Creates an empty database (dropping one of that name first). */
export async function recreateDatabase(name: string): Promise<void> {
  const client = new Client(serverConfig())
  await client.connect()
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}"`)
    await client.query(`CREATE DATABASE "${name}"`)
  } finally {
    await client.end()
  }
}

export async function dropDatabase(name: string): Promise<void> {
  const client = new Client(serverConfig())
  await client.connect()
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}"`)
  } finally {
    await client.end()
  }
}
