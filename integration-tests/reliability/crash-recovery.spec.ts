import { Client } from "pg"
import { databaseFromEnv, RunningStore, startDemoStore } from "../../scripts/demo/store"
import { waitFor } from "../helpers/wait"
import { placeOrderAwaitingPayment } from "../../scripts/demo/checkout"
import { keepAnswers, keepLogFiles } from "./seen"
import { FULL, recordFigure } from "./figures"

/**
 * R5 crash recovery: `kill -9` of the Medusa process (a) after the service turned COMPLETED and before
 * the webhook arrives, (b) while a workflow runs between the decision and the capture, (c) during a
 * reconciliation tick. After each restart the order must be captured within one reconciliation
 * interval, and never twice. (d) a kill between a transition's commit and its event's delivery: the
 * restarted process delivers it. A real `medusa develop` on the run's PostgreSQL, the sandbox in-process.
 */
const INTERVAL_SECONDS = 5
/** One interval, plus the job's 5 s tick, plus a boot's first tick: the bound each recovery must meet. */
const RECOVERY_BOUND_MS = (INTERVAL_SECONDS + 5 + 5) * 1000
const ROUNDS = FULL ? 3 : 1

jest.setTimeout(900_000)

type Order = {
  id: string
  payment_status: string
  payment_collections: Array<{ payments: Array<{ captures: unknown[] }> }>
}

describe("R5 crash recovery", () => {
  let store: RunningStore
  let stop: (() => Promise<void>) | undefined
  const say = (line: string) => process.env.RELIABILITY_VERBOSE && process.stdout.write(`${line}\n`)

  beforeAll(async () => {
    store = await startDemoStore({
      adminDashboard: false,
      say,
      onStop: (s) => (stop = s),
      env: { CRYPTO_RECONCILE_INTERVAL_SECONDS: String(INTERVAL_SECONDS), CRYPTO_REQUEST_TIMEOUT_MS: "20000" },
      ...databaseFromEnv(),
    })
    keepAnswers("crash-recovery", store.admin)
    await store.control.setWebhooks({ enabled: false })
  })

  afterAll(async () => {
    await stop?.()
    // for R7's scan of the whole run: everything the Medusa processes logged
    if (store) keepLogFiles("crash-recovery", store.logDir)
  })

  const order = async (id: string): Promise<Order> =>
    (
      await store.admin.get(`/admin/orders/${id}`, {
        params: {
          fields:
            "id,payment_status,*payment_collections,*payment_collections.payments,*payment_collections.payments.captures",
        },
      })
    ).data.order

  /** An order placed awaiting its BTC payment, paid and confirmed at the service (no webhook yet). */
  const paidAwaitingOrder = async () => {
    const placed = await placeOrderAwaitingPayment(store.backendUrl, store.store, say)
    await store.control.select(placed.paymentId, "BTC")
    await store.control.pay(placed.paymentId)
    await store.control.confirm(placed.paymentId)
    return placed
  }

  const statusReads = async (paymentId: string) =>
    (await store.control.requests(`/v1/invoice/${paymentId}/status`)).length

  /** Restarts after a crash and measures how long until the order is captured; checks it is captured once. */
  async function recoverAndMeasure(orderId: string) {
    await store.restart()
    const ready = Date.now()
    // the first requests after a restart may still be refused: they count as "not yet"
    const paid = (await waitFor(
      () => order(orderId).catch(() => undefined),
      (o) => o?.payment_status === "captured",
      { timeoutMs: 120_000, what: "the order to be captured after the restart" }
    ))!
    const ms = Date.now() - ready
    const captures = paid.payment_collections[0].payments.reduce((n, p) => n + p.captures.length, 0)
    return { ms, captures }
  }

  const results: Array<{ scenario: string; ms: number; captures: number }> = []

  it("(a) recovers a payment completed while Medusa was down, before its webhook", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { order: placed, paymentId } = await placeOrderAwaitingPayment(store.backendUrl, store.store, say)
      await store.crash()
      await store.control.select(paymentId, "BTC")
      await store.control.pay(paymentId)
      await store.control.confirm(paymentId)
      const measured = await recoverAndMeasure(placed.id)
      results.push({ scenario: "a", ...measured })
      expect(measured.captures).toBe(1)
      expect(measured.ms).toBeLessThanOrEqual(RECOVERY_BOUND_MS)
    }
  })

  it("(b) recovers when the process dies between the decision and the capture", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { order: placed, paymentId } = await paidAwaitingOrder()
      // Authorize and capture reuse the read the decision was made on, kept in the ledger: here the
      // ledger forgets it (a trigger drops the write, as when keeping it fails), so they read again,
      // and that read hangs; Medusa is killed while it does.
      const db = new Client({ connectionString: store.databaseUrl })
      await db.connect()
      try {
        await db.query(
          `create or replace function r5_forget_last_read() returns trigger as $$ begin new.last_read := old.last_read; return new; end $$ language plpgsql`
        )
        await db.query(
          `create trigger r5_forget_last_read before update on crypto_payment for each row execute function r5_forget_last_read()`
        )
        const before = await statusReads(paymentId)
        // the first read (the one the decision is made on) passes; the next one, authorize's, hangs
        await store.control.addFault({ kind: "hang", path: `/v1/invoice/${paymentId}/status`, skip: 1, times: 10 })
        const { webhookUrl } = await store.control.payment(paymentId)
        void fetch(webhookUrl!, { method: "POST", body: "{}", headers: { "content-type": "application/json" } }).catch(
          () => undefined
        )
        await waitFor(
          () => statusReads(paymentId),
          (n) => n >= before + 2,
          { what: "authorize's status read to start" }
        )
        await store.crash()
        await store.control.clearFaults()
      } finally {
        await db.query(`drop trigger if exists r5_forget_last_read on crypto_payment`)
        await db.query(`drop function if exists r5_forget_last_read()`)
        await db.end()
      }
      const measured = await recoverAndMeasure(placed.id)
      results.push({ scenario: "b", ...measured })
      expect(measured.captures).toBe(1)
      expect(measured.ms).toBeLessThanOrEqual(RECOVERY_BOUND_MS)
    }
  })

  it("(c) recovers when the process dies during a reconciliation tick", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { order: placed, paymentId } = await placeOrderAwaitingPayment(store.backendUrl, store.store, say)
      await store.control.select(paymentId, "BTC")
      await store.control.addFault({ kind: "hang", path: `/v1/invoice/${paymentId}/status`, times: 10 })
      await store.control.pay(paymentId)
      await store.control.confirm(paymentId)
      const before = await statusReads(paymentId)
      await waitFor(
        () => statusReads(paymentId),
        (n) => n > before,
        { what: "the tick's status read to start" }
      )
      await store.crash()
      await store.control.clearFaults()
      const measured = await recoverAndMeasure(placed.id)
      results.push({ scenario: "c", ...measured })
      expect(measured.captures).toBe(1)
      expect(measured.ms).toBeLessThanOrEqual(RECOVERY_BOUND_MS)
    }
  })

  it("(d) delivers a payment's events after the process dies between recording them and delivering them", async () => {
    const { order: placed, paymentId } = await paidAwaitingOrder()
    const db = new Client({ connectionString: store.databaseUrl })
    await db.connect()
    const paidEvent = async () =>
      (
        await db.query(`select "delivered_at" from "crypto_payment_event" where "event_key" = $1`, [
          `${paymentId}:paid`,
        ])
      ).rows[0] as { delivered_at: Date | null } | undefined
    try {
      // the outbox's delivery hangs (a trigger on its claim): the transition is committed, never delivered
      await db.query(
        `create or replace function r5_hold_outbox() returns trigger as $$ begin perform pg_sleep(600); return new; end $$ language plpgsql`
      )
      await db.query(
        `create trigger r5_hold_outbox before update on crypto_payment_event for each row execute function r5_hold_outbox()`
      )
      const { webhookUrl } = await store.control.payment(paymentId)
      const answer = await fetch(webhookUrl!, {
        method: "POST",
        body: "{}",
        headers: { "content-type": "application/json" },
      })
      expect(answer.status).toBe(200)
      expect((await order(placed.id)).payment_status).toBe("captured")
      await waitFor(paidEvent, (row) => !!row, { what: "the paid event in the outbox" })
      expect((await paidEvent())?.delivered_at).toBeNull()
      await store.crash()
      // the database notices the dead client (a hung statement would otherwise hold its rows for the sleep)
      await db.query(
        `select pg_terminate_backend("pid") from pg_stat_activity where "query" like '%crypto_payment_event%' and "pid" <> pg_backend_pid()`
      )
      await db.query(`drop trigger if exists r5_hold_outbox on crypto_payment_event`)
      expect((await paidEvent())?.delivered_at).toBeNull()
      await store.restart()
      await waitFor(paidEvent, (row) => !!row?.delivered_at, {
        what: "the paid event delivered after the restart",
        timeoutMs: 60_000,
      })
      // a subscriber received it: the customer's paid email went out once
      const emails = await waitFor(
        async () =>
          (
            await db.query(`select "status" from "crypto_payment_email" where "payment_id" = $1 and "kind" = 'paid'`, [
              paymentId,
            ])
          ).rows,
        (rows) => rows.length === 1 && rows[0].status === "sent",
        { what: "the paid email after the restart", timeoutMs: 30_000 }
      )
      expect(emails).toEqual([{ status: "sent" }])
    } finally {
      await db.query(`drop trigger if exists r5_hold_outbox on crypto_payment_event`).catch(() => undefined)
      await db.query(`drop function if exists r5_hold_outbox()`).catch(() => undefined)
      await db.end()
    }
  })

  afterAll(() => {
    if (!results.length) return
    const worst = Math.max(...results.map((r) => r.ms))
    const twice = results.filter((r) => r.captures !== 1).length
    const by = (s: string) =>
      results
        .filter((r) => r.scenario === s)
        .map((r) => `${(r.ms / 1000).toFixed(1)} s`)
        .join(", ")
    recordFigure({
      id: "R5",
      title: "crash recovery (kill -9)",
      count: results.length,
      result: `${results.length} crashes: (a) completed while down ${by("a")}; (b) between decision and capture ${by("b")}; (c) during a tick ${by("c")} from restart to captured (bound ${RECOVERY_BOUND_MS / 1000} s: one ${INTERVAL_SECONDS} s interval + the 5 s tick + the first tick); worst ${(worst / 1000).toFixed(1)} s; ${twice} captured other than once`,
      ms: results.reduce((n, r) => n + r.ms, 0),
    })
  })
})
