import { StatusReads } from "../status-reads"
import type { StatusRecord } from "../../../../lib/crypto-api/schemas"
import type { LedgerRow } from "../../ledger"
import type { Freshness } from "../types"
import { CHOOSING_EARLY_READS_PER_MINUTE, CHOOSING_SHARE_SECONDS } from "../../../../lib/domain/read-schedule"

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

describe("status reads of an invoice whose customer may be choosing a coin", () => {
  const start = Date.parse("2026-11-22T08:00:00.000Z")
  const expiresAt = "2026-11-22T09:00:00.000Z"
  const noCoin: StatusRecord = { ...record("PENDING"), expiresAt }
  const chosen: StatusRecord = { ...noCoin, currency: "ETH", address: "0x52908400098527886e0f7030069857d2e4169ee7" }

  /** Invoices (or payments) whose ledger holds `held`, `ageMs` old, polled by storefronts through one StatusReads. */
  function polled(held: StatusRecord, { answer = held, cacheSeconds = 30 } = {}) {
    let clock = start
    const reads: string[] = []
    const lastReads = new Map<string, Record<string, unknown>>()
    const statusReads = new StatusReads({
      read: async (paymentId) => {
        reads.push(paymentId)
        return { ...answer, paymentId }
      },
      keepRead: async (paymentId, read) => void lastReads.set(paymentId, read),
      onKeepFailed: () => undefined,
      cacheSeconds,
      now: () => clock,
    })
    const row = (paymentId: string, kind: "invoice" | "payment" = "invoice") =>
      ({
        payment_id: paymentId,
        kind,
        expires_at: new Date(expiresAt),
        last_read: lastReads.get(paymentId) ?? {
          record: { ...held, paymentId },
          readAt: new Date(start).toISOString(),
        },
      }) as unknown as LedgerRow
    return {
      poll: (paymentId = "pay_1", kind: "invoice" | "payment" = "invoice") =>
        statusReads.status(row(paymentId, kind), "shared"),
      status: (paymentId: string, freshness: Freshness) => statusReads.status(row(paymentId), freshness),
      reads,
      at: (ms: number) => (clock = start + ms),
    }
  }

  it("reads it again once its read is CHOOSING_SHARE_SECONDS old, and shows the coin chosen meanwhile", async () => {
    const invoice = polled(noCoin, { answer: chosen })
    invoice.at(CHOOSING_SHARE_SECONDS * 1000 - 1)
    expect((await invoice.poll()).record.currency).toBeUndefined()
    expect(invoice.reads).toHaveLength(0)
    invoice.at(CHOOSING_SHARE_SECONDS * 1000)
    expect((await invoice.poll()).record.currency).toBe("ETH")
    expect(invoice.reads).toHaveLength(1)
  })

  it("shares it for statusCacheSeconds again once a coin is chosen, as every other open payment", async () => {
    const invoice = polled(noCoin, { answer: chosen })
    invoice.at(CHOOSING_SHARE_SECONDS * 1000)
    await invoice.poll()
    for (const seconds of [10, 20, CHOOSING_SHARE_SECONDS + 29]) {
      invoice.at(seconds * 1000)
      await invoice.poll()
    }
    expect(invoice.reads).toHaveLength(1)
    invoice.at((CHOOSING_SHARE_SECONDS + 30) * 1000)
    await invoice.poll()
    expect(invoice.reads).toHaveLength(2)
  })

  it.each<[string, StatusRecord, "invoice" | "payment"]>([
    ["a payment without a coin in its read", noCoin, "payment"],
    ["an invoice whose coin is chosen", chosen, "invoice"],
    ["an invoice past its expiry", { ...noCoin, expiresAt: "2026-11-22T08:00:05.000Z" }, "invoice"],
  ])("shares %s for statusCacheSeconds", async (_what, held, kind) => {
    const polls = polled(held)
    for (const seconds of [6, 15, 29.999]) {
      polls.at(seconds * 1000)
      await polls.poll("pay_1", kind)
    }
    expect(polls.reads).toHaveLength(0)
    polls.at(30_000)
    await polls.poll("pay_1", kind)
    expect(polls.reads).toHaveLength(1)
  })

  it("never shortens what a webhook or the job reads: they follow their own rules", async () => {
    const invoice = polled(noCoin)
    invoice.at(1_000)
    await invoice.status("pay_1", "webhook")
    await invoice.status("pay_1", "fresh")
    expect(invoice.reads).toHaveLength(2)
    await invoice.status("pay_1", "final")
    expect(invoice.reads).toHaveLength(3)
  })

  it("makes at most CHOOSING_EARLY_READS_PER_MINUTE early reads a minute, however many such invoices are polled", async () => {
    const invoices = polled(noCoin)
    const ids = Array.from({ length: CHOOSING_EARLY_READS_PER_MINUTE + 80 }, (_, i) => `pay_${i}`)
    invoices.at(6_000)
    await Promise.all(ids.map((id) => Promise.all([invoices.poll(id), invoices.poll(id)])))
    expect(invoices.reads).toHaveLength(CHOOSING_EARLY_READS_PER_MINUTE)
    // the rest are read as any payment, once their read is statusCacheSeconds old
    invoices.at(30_000)
    await Promise.all(ids.map((id) => invoices.poll(id)))
    expect(invoices.reads).toHaveLength(ids.length)
    // read at 30 s: 6 s old is early, and this minute's early reads are spent
    invoices.at(36_000)
    await invoices.poll(`pay_${ids.length - 1}`)
    expect(invoices.reads).toHaveLength(ids.length)
    // read again at 62 s (30 s old); 5 s later, a minute after the first early read, the next minute's
    invoices.at(62_000)
    await invoices.poll(`pay_${ids.length - 1}`)
    invoices.at(67_000)
    await invoices.poll(`pay_${ids.length - 1}`)
    expect(invoices.reads).toHaveLength(ids.length + 2)
  })
})
