import { StatusReads } from "../status-reads"
import type { StatusRecord } from "../../../../lib/crypto-api/schemas"
import type { LedgerRow } from "../../ledger"
import type { Freshness } from "../types"

const record = (status: StatusRecord["status"], currentBalance = "0"): StatusRecord => ({
  paymentId: "pay_1",
  status,
  currentBalance,
  confirmations: 0,
})

/**
 * StatusReads against a fake service (answers in turn) and a fake ledger row whose last_read is
 * what keepRead wrote, as the provider reloads the row for every call.
 */
function setup(answers: StatusRecord[], cacheSeconds = 30) {
  let clock = Date.parse("2026-11-22T08:00:00.000Z")
  const reads: string[] = []
  const kept: string[] = []
  const failures: string[] = []
  let keepFails = false
  let lastRead: Record<string, unknown> | null = null
  const statusReads = new StatusReads({
    read: async (paymentId) => {
      reads.push(paymentId)
      return answers[Math.min(reads.length - 1, answers.length - 1)]
    },
    keepRead: async (_paymentId, read) => {
      if (keepFails) throw new Error("database down")
      kept.push(read.record.status)
      lastRead = read
    },
    onKeepFailed: (paymentId) => failures.push(paymentId),
    cacheSeconds,
    now: () => clock,
  })
  const row = () => ({ payment_id: "pay_1", last_read: lastRead }) as unknown as LedgerRow
  return {
    status: (freshness: Freshness) => statusReads.status(row(), freshness),
    /** The ledger holds this read, `ageMs` old. */
    holds: (held: unknown, ageMs = 0) => (lastRead = { record: held, readAt: new Date(clock - ageMs).toISOString() }),
    reads,
    kept,
    failures,
    tick: (ms: number) => (clock += ms),
    failKeeping: () => (keepFails = true),
  }
}

describe("status reads", () => {
  it.each<[Freshness, StatusRecord | undefined, number, number]>([
    // freshness, read the ledger holds, its age in s, service reads
    ["fresh", undefined, 0, 1],
    ["fresh", record("COMPLETED"), 0, 1],
    ["webhook", undefined, 0, 1],
    ["webhook", record("PENDING"), 0, 1],
    // a COMPLETED read answers repeated notifications for statusCacheSeconds, then money after it is read
    ["webhook", record("COMPLETED"), 10, 0],
    ["webhook", record("COMPLETED"), 3600, 1],
    ["webhook", record("EXPIRED"), 0, 1],
    ["webhook", record("FAILED"), 0, 1],
    ["final", undefined, 0, 1],
    ["final", record("PENDING"), 0, 1],
    ["final", record("COMPLETED"), 86400, 0],
    ["final", record("EXPIRED"), 86400, 0],
    ["shared", undefined, 0, 1],
    ["shared", record("PENDING"), 29, 0],
    ["shared", record("PENDING"), 31, 1],
    ["shared", record("FAILED"), 86400, 0],
  ])("%s with %j held for %i s reads the service %i time(s)", async (freshness, held, ageSeconds, expected) => {
    const reads = setup([record("PENDING", "0.1")])
    if (held) reads.holds(held, ageSeconds * 1000)
    const read = await reads.status(freshness)
    expect(reads.reads).toHaveLength(expected)
    expect(read.record).toEqual(expected ? record("PENDING", "0.1") : held)
  })

  it("ignores a held read that is not a valid status record", async () => {
    for (const broken of [{ status: "PAID", paymentId: "pay_1" }, "garbage", null]) {
      const reads = setup([record("PENDING")])
      reads.holds(broken)
      await reads.status("final")
      expect(reads.reads).toHaveLength(1)
    }
  })

  it("100 concurrent shared callers wait on one read; later ones reuse it for cacheSeconds", async () => {
    const reads = setup([record("PENDING")], 30)
    await Promise.all(Array.from({ length: 100 }, () => reads.status("shared")))
    expect(reads.reads).toHaveLength(1)
    reads.tick(29_000)
    await Promise.all(Array.from({ length: 100 }, () => reads.status("shared")))
    expect(reads.reads).toHaveLength(1)
    reads.tick(1_000)
    await reads.status("shared")
    expect(reads.reads).toHaveLength(2)
  })

  it("a burst of 50 notifications for a pending payment costs one read; the job still reads on its own", async () => {
    const reads = setup([record("PENDING"), record("PENDING", "0.5")])
    await Promise.all(Array.from({ length: 50 }, () => reads.status("webhook")))
    expect(reads.reads).toHaveLength(1)
    // once that read is done, the next notification reads again: a webhook is never answered from an old pending read
    await reads.status("webhook")
    expect(reads.reads).toHaveLength(2)
    await Promise.all([reads.status("fresh"), reads.status("fresh")])
    expect(reads.reads).toHaveLength(4)
  })

  it("a read for the plugin's own reasons is what shared callers see next", async () => {
    const reads = setup([record("PENDING"), record("PENDING", "0.5")])
    await reads.status("shared")
    reads.tick(5_000)
    await reads.status("webhook")
    const shared = await reads.status("shared")
    expect(reads.reads).toHaveLength(2)
    expect(shared.record.currentBalance).toBe("0.5")
  })

  it("keeps every read in the ledger, the latest final one included (paid late after EXPIRED)", async () => {
    const reads = setup([record("PENDING"), record("EXPIRED"), record("COMPLETED", "1")])
    await reads.status("fresh")
    await reads.status("fresh")
    expect((await reads.status("final")).record.status).toBe("EXPIRED")
    await reads.status("fresh")
    expect(reads.kept).toEqual(["PENDING", "EXPIRED", "COMPLETED"])
    expect((await reads.status("final")).record).toEqual(record("COMPLETED", "1"))
    expect(reads.reads).toHaveLength(3)
  })

  it("answers the read when the ledger cannot keep it, and reports that", async () => {
    const reads = setup([record("COMPLETED")])
    reads.failKeeping()
    await expect(reads.status("fresh")).resolves.toMatchObject({ record: { status: "COMPLETED" } })
    expect(reads.failures).toEqual(["pay_1"])
  })

  it("keeps nothing from a failed read, and the next caller reads again", async () => {
    let calls = 0
    const statusReads = new StatusReads({
      read: async () => {
        if (++calls === 1) throw new Error("503")
        return record("PENDING")
      },
      keepRead: async () => undefined,
      onKeepFailed: () => undefined,
      cacheSeconds: 30,
    })
    const row = { payment_id: "pay_1", last_read: null } as unknown as LedgerRow
    await expect(statusReads.status(row, "shared")).rejects.toThrow("503")
    await expect(statusReads.status(row, "shared")).resolves.toMatchObject({ record: { status: "PENDING" } })
  })

  it("holds a shared read only while it is under way, also when it rejects", async () => {
    const failures: Array<(error: Error) => void> = []
    const statusReads = new StatusReads({
      read: () => new Promise((_, reject) => failures.push(reject)),
      keepRead: async () => undefined,
      onKeepFailed: () => undefined,
      cacheSeconds: 30,
    })
    const rows = Array.from(
      { length: 100 },
      (_, i) => ({ payment_id: `pay_${i}`, last_read: null }) as unknown as LedgerRow
    )
    const pending = rows.flatMap((row) => [statusReads.status(row, "shared"), statusReads.status(row, "webhook")])
    expect(statusReads.readsInFlight).toBe(100)
    failures.forEach((fail) => fail(new Error("timeout")))
    await Promise.allSettled(pending)
    expect(statusReads.readsInFlight).toBe(0)
  })
})
