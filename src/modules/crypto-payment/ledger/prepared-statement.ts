import { createHash } from "node:crypto"
import type { Knex } from "knex"

/** What node-postgres' client offers on a connection of knex's pool. */
type PgConnection = {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>
}

/** PostgreSQL's answers when a prepared statement is missing or already taken on the server connection. */
const REFUSED_BY_POOLER = new Set(["26000", "42P05"])

/**
 * Planned once per connection instead of on every call of checkout's hot path; the name hashes the text,
 * so a changed statement never meets an old plan. A pooler that refuses prepared statements (PgBouncer
 * in transaction mode before 1.21) makes it run unnamed from then on.
 */
export class PreparedStatement {
  private readonly name: string
  private named = true

  constructor(
    private readonly db: () => Knex,
    name: string,
    private readonly text: string
  ) {
    this.name = `${name}_${createHash("sha1").update(text).digest("hex").slice(0, 8)}`
  }

  async run(values: unknown[]): Promise<{ rows: unknown[] }> {
    const client = this.db().client as Knex.Client
    const connection = (await client.acquireConnection()) as PgConnection
    try {
      if (this.named) {
        try {
          return await connection.query({ name: this.name, text: this.text, values })
        } catch (error) {
          if (!REFUSED_BY_POOLER.has((error as { code?: string })?.code ?? "")) throw error
          this.named = false
        }
      }
      return await connection.query({ text: this.text, values })
    } finally {
      await client.releaseConnection(connection)
    }
  }
}
