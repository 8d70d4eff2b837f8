import { StatusReads } from "../status-reads"
import type { StatusRecord } from "../../../lib/crypto-api/schemas"
import type { LedgerRow } from "../../../modules/crypto-payment/types"
import type { Freshness } from "../../../lib/internal-request"

const record = (status: StatusRecord["status"], currentBalance = "0"): StatusRecord => ({ paymentId: "pay_1", status, currentBalance, confirmations: 0 })

/** A ledger row as far as status reads look at it. */
const row = (final?: StatusRecord | unknown): LedgerRow =>
  ({ payment_id: "pay_1", final_record: final === undefined ? null : { record: final, readAt: "2026-11-22T08:00:00.000Z" } }) as unknown as LedgerRow

function setup(answers: StatusRecord[], cacheSeconds = 30) {
  let clock = 1_000_000
  const reads: string[] = []
  const kept: Array<{ paymentId: string; status: string }> = []
  const failures: string[] = []
  let keepFails = false
  const statusReads = new StatusReads({
    read: async (paymentId) => {
      reads.push(paymentId)
      return answers[Math.min(reads.length - 1, answers.length - 1)]
    },
    keepFinal: async (paymentId, final) => {
      if (keepFails) throw new Error("database down")
      kept.push({ paymentId, status: final.record.status })
    },
    onKeepFailed: (paymentId) => failures.push(paymentId),
    cacheSeconds,
    now: () => clock,
  })
  return {
    statusReads,
    reads,
    kept,
    failures,
    tick: (ms: number) => (clock += ms),
    failKeeping: () => (keepFails = true),
  }
}

describe("status reads", () => {
  it.each<[Freshness, StatusRecord | undefined, number]>([
    // freshness, final record the ledger holds, service reads
    ["fresh", undefined, 1],
    ["fresh", record("COMPLETED"), 1],
    ["news", undefined, 1],
    ["news", record("COMPLETED"), 0],
    ["news", record("EXPIRED"), 1],
    ["news", record("FAILED"), 1],
    ["final", undefined, 1],
    ["final", record("COMPLETED"), 0],
    ["final", record("EXPIRED"), 0],
    ["shared", undefined, 1],
    ["shared", record("FAILED"), 0],
  ])("%s with %j kept reads the service %i time(s)", async (freshness, final, expected) => {
    const { statusReads, reads } = setup([record("PENDING")])
    const read = await statusReads.status(row(final), freshness)
    expect(reads).toHaveLength(expected)
    expect(read.record.status).toBe(expected ? "PENDING" : final!.status)
  })

  it("ignores a kept record that is not a valid final one", async () => {
    for (const broken of [{ status: "PENDING", paymentId: "pay_1" }, { status: "PAID" }, "garbage"]) {
      const { statusReads, reads } = setup([record("PENDING")])
      await statusReads.status(row(broken), "final")
      expect(reads).toHaveLength(1)
    }
  })

  it("shares a non-final read for cacheSeconds with shared callers only, and one read among concurrent ones", async () => {
    const { statusReads, reads, tick } = setup([record("PENDING")], 30)
    await Promise.all(Array.from({ length: 100 }, () => statusReads.status(row(), "shared")))
    expect(reads).toHaveLength(1)
    tick(29_000)
    await statusReads.status(row(), "shared")
    expect(reads).toHaveLength(1)
    await statusReads.status(row(), "final")
    expect(reads).toHaveLength(2)
    tick(29_000) // 58 s after the first read, 29 s after the "final" one, which refreshed it
    await statusReads.status(row(), "shared")
    expect(reads).toHaveLength(2)
    tick(1_001)
    await statusReads.status(row(), "shared")
    expect(reads).toHaveLength(3)
  })

  it("a webhook's read reaches shared callers at once", async () => {
    const { statusReads, reads } = setup([record("PENDING"), record("PENDING", "0.5")])
    await statusReads.status(row(), "shared")
    await statusReads.status(row(), "news")
    const shared = await statusReads.status(row(), "shared")
    expect(reads).toHaveLength(2)
    expect(shared.record.currentBalance).toBe("0.5")
  })

  it("keeps a final status in the ledger once, and again only when it changes", async () => {
    const { statusReads, kept } = setup([record("EXPIRED"), record("EXPIRED"), record("COMPLETED", "1")])
    const first = await statusReads.status(row(), "fresh")
    expect(kept).toEqual([{ paymentId: "pay_1", status: "EXPIRED" }])
    await statusReads.status(row(first.record), "fresh")
    expect(kept).toHaveLength(1)
    await statusReads.status(row(first.record), "fresh")
    expect(kept).toEqual([
      { paymentId: "pay_1", status: "EXPIRED" },
      { paymentId: "pay_1", status: "COMPLETED" },
    ])
  })

  it("keeps nothing for a non-final status", async () => {
    const { statusReads, kept } = setup([record("PENDING")])
    await statusReads.status(row(), "fresh")
    expect(kept).toEqual([])
  })

  it("answers the read when the ledger cannot keep it, and reports that", async () => {
    const { statusReads, failures, failKeeping } = setup([record("COMPLETED")])
    failKeeping()
    await expect(statusReads.status(row(), "fresh")).resolves.toMatchObject({ record: { status: "COMPLETED" } })
    expect(failures).toEqual(["pay_1"])
  })

  it("does not cache a failed read", async () => {
    let calls = 0
    const statusReads = new StatusReads({
      read: async () => {
        if (++calls === 1) throw new Error("503")
        return record("PENDING")
      },
      keepFinal: async () => undefined,
      onKeepFailed: () => undefined,
      cacheSeconds: 30,
    })
    await expect(statusReads.status(row(), "shared")).rejects.toThrow("503")
    await expect(statusReads.status(row(), "shared")).resolves.toMatchObject({ record: { status: "PENDING" } })
  })
})
