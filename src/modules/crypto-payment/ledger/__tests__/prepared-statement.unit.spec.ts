import type { Knex } from "knex"
import { PreparedStatement } from "../prepared-statement"

type Sent = { name?: string; text: string; values: unknown[] }

/**
 * A knex pool of one connection whose server keeps no prepared statements when `pooler` is set (as
 * PgBouncer in transaction mode): a named statement is refused with `refusal` before it runs.
 */
function pool(options: { pooler?: boolean; refusal?: string; failWith?: Error } = {}) {
  const sent: Sent[] = []
  let acquired = 0
  let released = 0
  const connection = {
    async query(config: Sent) {
      sent.push(config)
      if (options.failWith) throw options.failWith
      if (options.pooler && config.name) {
        throw Object.assign(new Error("prepared statement does not exist"), { code: options.refusal ?? "26000" })
      }
      return { rows: [{ ok: true }] }
    },
  }
  const client = {
    async acquireConnection() {
      acquired++
      return connection
    },
    async releaseConnection() {
      released++
    },
  }
  const db = () => ({ client }) as unknown as Knex
  return { db, sent, counts: () => ({ acquired, released }) }
}

describe("PreparedStatement", () => {
  it("runs the statement named, the name carrying a hash of its text", async () => {
    const { db, sent, counts } = pool()
    const statement = new PreparedStatement(db, "crypto_ledger_open", "select $1")
    const other = new PreparedStatement(db, "crypto_ledger_open", "select $1, $2")

    await expect(statement.run([1])).resolves.toEqual({ rows: [{ ok: true }] })
    await other.run([1, 2])

    expect(sent[0]).toEqual({
      name: expect.stringMatching(/^crypto_ledger_open_[0-9a-f]{8}$/),
      text: "select $1",
      values: [1],
    })
    expect(sent[1].name).toMatch(/^crypto_ledger_open_[0-9a-f]{8}$/)
    expect(sent[1].name).not.toBe(sent[0].name)
    expect(counts()).toEqual({ acquired: 2, released: 2 })
  })

  it.each(["26000", "42P05"])(
    "runs unnamed when a pooler refuses the named statement (%s), and stays unnamed",
    async (refusal) => {
      const { db, sent, counts } = pool({ pooler: true, refusal })
      const statement = new PreparedStatement(db, "crypto_ledger_open", "insert $1")

      await expect(statement.run(["a"])).resolves.toEqual({ rows: [{ ok: true }] })
      await statement.run(["b"])

      expect(sent.map((s) => [s.name ?? "(unnamed)", s.values[0]])).toEqual([
        [expect.stringMatching(/^crypto_ledger_open_/), "a"],
        ["(unnamed)", "a"],
        ["(unnamed)", "b"],
      ])
      expect(counts()).toEqual({ acquired: 2, released: 2 })
    }
  )

  it("passes any other error on, runs nothing again, and gives the connection back", async () => {
    const failure = Object.assign(new Error("duplicate key"), { code: "23505" })
    const { db, sent, counts } = pool({ failWith: failure })
    const statement = new PreparedStatement(db, "crypto_ledger_open", "insert $1")

    await expect(statement.run(["a"])).rejects.toBe(failure)

    expect(sent).toHaveLength(1)
    expect(counts()).toEqual({ acquired: 1, released: 1 })
  })
})
