import path from "node:path"
import { randomBytes } from "node:crypto"
import { moduleIntegrationTestRunner } from "@medusajs/test-utils"
import knex, { type Knex } from "knex"
import { CRYPTO_PAYMENT_MODULE } from "../../src/modules/crypto-payment"
import type CryptoPaymentModuleService from "../../src/modules/crypto-payment/service"
import type { OpenedPayment } from "../../src/modules/crypto-payment/ledger"
import { FAILURES_BEFORE_ATTENTION } from "../../src/lib/domain/read-schedule"
import { cloneTemplate, TEMPLATE } from "../helpers/runner"
import { recordAcknowledgement } from "../../src/modules/crypto-payment/acknowledgements"
import { RateStore } from "../../src/modules/crypto-payment/rate-store"
import { ExchangeRates } from "../../src/modules/crypto-payment/core/exchange-rates"
import { ECB_DAILY_URL } from "../../src/modules/crypto-payment/core/exchange-rate-options"

/**
 * The ledger's statements against PostgreSQL, through the plugin's module alone (Medusa's module runner, no
 * app): a copy of the run's migrated database, so every table the statements touch, Medusa's included, has
 * the schema a shop's migrations give it. Each test works on payments, sessions and orders of its own.
 */

const dbName = `crypto-ledger-${randomBytes(6).toString("hex")}`

beforeAll(async () => {
  if (!TEMPLATE)
    throw new Error(
      "the ledger's spec needs the run's migrated template database: run it with `npm test -- integration`"
    )
  await cloneTemplate(TEMPLATE, dbName)
})

const id = (prefix: string) => `${prefix}_${randomBytes(8).toString("hex")}`
const HOUR = 3_600_000

moduleIntegrationTestRunner<CryptoPaymentModuleService>({
  moduleName: CRYPTO_PAYMENT_MODULE,
  resolve: path.join(__dirname, "../../src/modules/crypto-payment"),
  // the copy holds every table, migrated as a shop migrates them: nothing for the runner to create
  moduleModels: [],
  dbName,
  testSuite: ({ service, dbConfig }) => {
    let connection: Knex
    beforeAll(() => {
      connection = knex({ client: "pg", connection: dbConfig.clientUrl, pool: { min: 0, max: 2 } })
    })
    afterAll(() => connection.destroy())
    const db = () => connection
    const ledger = () => service.ledger

    /** A payment collection with a session of the crypto provider, as Medusa writes them. */
    async function session(orderDisplayId?: number) {
      const collectionId = id("pay_col")
      const sessionId = id("payses")
      await db().raw(
        `insert into "payment_collection" ("id", "currency_code", "amount", "raw_amount") values (?, 'usd', 25, '{"value":"25","precision":20}')`,
        [collectionId]
      )
      await db().raw(
        `insert into "payment_session" ("id", "currency_code", "amount", "raw_amount", "provider_id", "payment_collection_id")
         values (?, 'usd', 25, '{"value":"25","precision":20}', 'pp_crypto_crypto', ?)`,
        [sessionId, collectionId]
      )
      let orderId: string | undefined
      if (orderDisplayId !== undefined) {
        orderId = id("order")
        await db().raw(`insert into "order" ("id", "currency_code", "display_id") values (?, 'usd', ?)`, [
          orderId,
          orderDisplayId,
        ])
        await db().raw(
          `insert into "order_payment_collection" ("id", "order_id", "payment_collection_id") values (?, ?, ?)`,
          [id("ordpay"), orderId, collectionId]
        )
      }
      return { collectionId, sessionId, orderId }
    }

    function opened(sessionId: string, fields: Partial<OpenedPayment> = {}): OpenedPayment {
      const now = Date.now()
      return {
        payment_id: id("pay"),
        session_id: sessionId,
        kind: "payment",
        base_amount: "25.00",
        base_currency: "USD",
        crypto_amount: "0.00038462",
        coin: "BTC",
        address: "bc1qexample",
        invoice_url: "https://pay.example/p",
        expires_at: new Date(now + HOUR).toISOString(),
        watch_until: new Date(now + 25 * HOUR),
        next_check_at: new Date(now + 60_000),
        ...fields,
      }
    }

    async function open(fields: Partial<OpenedPayment> = {}, orderDisplayId?: number) {
      const s = await session(orderDisplayId)
      const payment = opened(s.sessionId, fields)
      await ledger().open(payment)
      return { ...s, payment, row: (await ledger().byPaymentId(payment.payment_id))! }
    }

    const eventsOf = async (paymentId: string) => (await service.outbox.of([paymentId])).map((e) => e.name)

    describe("opening a payment", () => {
      it("writes the row with its session's collection and provider, a first timeline entry and its created event", async () => {
        const { payment, collectionId, row } = await open()
        expect(row).toMatchObject({
          payment_id: payment.payment_id,
          payment_collection_id: collectionId,
          provider_id: "pp_crypto_crypto",
          status: "PENDING",
          outcome: "pending",
          order_id: null,
          settled: false,
        })
        expect((row.timeline as { entries: unknown[] }).entries).toEqual([
          expect.objectContaining({ source: "checkout", status: "PENDING", received: "0" }),
        ])
        expect(await eventsOf(payment.payment_id)).toEqual(["crypto_payment.created"])
      })

      it("writes the session's data in the same statement, and a second open of the same payment adds nothing", async () => {
        const s = await session()
        const payment = opened(s.sessionId)
        const data = { paymentId: payment.payment_id, status: "pending" }
        await ledger().open(payment, data)
        await ledger().open(payment, data)
        const [written] = (await db().raw(`select "data" from "payment_session" where "id" = ?`, [s.sessionId])).rows
        expect(written.data).toEqual(data)
        expect((await service.listCryptoPayments({ payment_id: payment.payment_id })).length).toBe(1)
        expect(await eventsOf(payment.payment_id)).toEqual(["crypto_payment.created"])
      })

      it("gives a payment made on an order's collection that order and its display id from the start", async () => {
        const { row, orderId } = await open({}, 4242)
        expect(row).toMatchObject({ order_id: orderId, order_display_id: 4242 })
        expect(await ledger().lockScopeOf(row.payment_id)).toEqual({ collectionId: row.payment_collection_id, orderId })
      })

      it("keeps a converted currency's rate on the row", async () => {
        const exchange = {
          usd_amount: "27.11",
          exchange_rate: "1.0842",
          rate_source: "ecb",
          rate_url: "https://rates.example/eurofxref-daily.xml",
          rate_published_on: "2026-11-27",
          rate_markup_percent: "0",
        }
        const { row } = await open({ base_currency: "EUR", exchange })
        expect(row).toMatchObject({ base_currency: "EUR", ...exchange })
      })
    })

    describe("finding a session's payment", () => {
      it("prefers the payment claimed for a session over the newest one created for it", async () => {
        const first = await open()
        const newer = opened(first.sessionId)
        await ledger().open(newer)
        expect((await ledger().latestOfSession(first.sessionId))?.payment_id).toBe(newer.payment_id)
        expect((await ledger().forSession(first.sessionId))?.payment_id).toBe(newer.payment_id)

        const other = await open()
        await ledger().claimSession(other.payment.payment_id, first.sessionId)
        expect((await ledger().forSession(first.sessionId))?.payment_id).toBe(other.payment.payment_id)
        expect(await ledger().openOfSession(first.sessionId, newer.payment_id)).toEqual([first.payment.payment_id])
      })

      it("walks a remainder chain to its first payment and back down, with every owed record", async () => {
        const first = await open()
        const remainder = opened(first.sessionId, { remainder_of: first.payment.payment_id })
        await ledger().open(remainder)
        const rest = opened(first.sessionId, { remainder_of: remainder.payment_id })
        await ledger().open(rest)
        expect((await ledger().remainderOf(first.payment.payment_id))?.payment_id).toBe(remainder.payment_id)

        const checkout = await ledger().checkoutOf(rest.payment_id)
        expect(checkout?.first.payment_id).toBe(first.payment.payment_id)
        expect(checkout?.remainders.map((r) => r.payment_id)).toEqual([remainder.payment_id, rest.payment_id])
        expect(await ledger().checkoutOf("pay_unknown")).toBeUndefined()
      })

      it("counts the payments created for a collection in a window", async () => {
        const first = await open()
        await ledger().open(opened(first.sessionId))
        const counted = await ledger().createdForCollectionSince(first.collectionId, new Date(Date.now() - 60_000))
        expect(counted.count).toBe(2)
        expect(counted.oldest).toBeInstanceOf(Date)
        expect(
          (await ledger().createdForCollectionSince(first.collectionId, new Date(Date.now() + 60_000))).count
        ).toBe(0)
      })
    })

    describe("recording reads", () => {
      it("saves a record's columns, json as jsonb, and refuses a column that is not the ledger's", async () => {
        const { row } = await open()
        const saved = await ledger().saveRecord(row.id, {
          status: "COMPLETED",
          outcome: "paid",
          received_amount: "0.00038462",
          warned: { paid_late: "2026-11-29T00:00:00.000Z" },
          settled: true,
        })
        expect(saved).toMatchObject({ status: "COMPLETED", outcome: "paid", settled: true })
        expect(saved.warned).toEqual({ paid_late: "2026-11-29T00:00:00.000Z" })
        await expect(ledger().saveRecord(row.id, { payment_id: "changed" } as never)).rejects.toThrow(
          "Not a column of the crypto payment ledger: payment_id"
        )
        await expect(ledger().saveRecord("cryptopay_gone", { status: "FAILED" })).rejects.toThrow(
          "no longer in the ledger"
        )
      })

      it("copies the order's display id when the record names the order, and writes the record's events with it", async () => {
        const { row } = await open()
        const orderId = id("order")
        await db().raw(`insert into "order" ("id", "currency_code", "display_id") values (?, 'usd', 77)`, [orderId])
        const saved = await ledger().saveRecord(row.id, { order_id: orderId, outcome: "paid" }, [
          { name: "crypto_payment.paid", key: `${row.payment_id}:paid` },
        ])
        expect(saved).toMatchObject({ order_id: orderId, order_display_id: 77 })
        expect(await eventsOf(row.payment_id)).toEqual(["crypto_payment.created", "crypto_payment.paid"])
        // the same transition recorded again is one event
        await ledger().saveRecord(row.id, { outcome: "paid" }, [
          { name: "crypto_payment.paid", key: `${row.payment_id}:paid` },
        ])
        expect(await eventsOf(row.payment_id)).toEqual(["crypto_payment.created", "crypto_payment.paid"])
      })

      it("keeps only a newer status read", async () => {
        const { row } = await open()
        const read = (readAt: string) => ({ record: { status: "PENDING", readAt }, readAt })
        await ledger().keepRead(row.payment_id, read("2026-11-29T10:00:00.000Z"))
        await ledger().keepRead(row.payment_id, read("2026-11-29T09:00:00.000Z"))
        expect((await ledger().byPaymentId(row.payment_id))?.last_read).toMatchObject({
          readAt: "2026-11-29T10:00:00.000Z",
        })
        await ledger().keepRead(row.payment_id, read("2026-11-29T11:00:00.000Z"))
        expect((await ledger().byPaymentId(row.payment_id))?.last_read).toMatchObject({
          readAt: "2026-11-29T11:00:00.000Z",
        })
      })

      it("brings a read forward to no sooner than the floor after the last one, and leaves an unwatched payment unwatched", async () => {
        const { row } = await open({ next_check_at: new Date(Date.now() + HOUR) })
        await ledger().saveRecord(row.id, { last_checked_at: new Date() })
        await ledger().readSoon([row.payment_id], 30)
        const next = (await ledger().byPaymentId(row.payment_id))!.next_check_at!
        expect(next.getTime()).toBeGreaterThan(Date.now() + 20_000)
        expect(next.getTime()).toBeLessThan(Date.now() + 40_000)

        const unwatched = await open()
        await ledger().saveRecord(unwatched.row.id, { next_check_at: null })
        await ledger().readSoon([unwatched.row.payment_id], 0)
        expect((await ledger().byPaymentId(unwatched.row.payment_id))?.next_check_at).toBeNull()
      })

      it("lists unsettled and settled payments due, oldest due first, within the limit", async () => {
        const past = (minutes: number) => new Date(Date.now() - minutes * 60_000)
        const older = await open({ next_check_at: past(30) })
        const newer = await open({ next_check_at: past(10) })
        const settled = await open({ next_check_at: past(20) })
        await ledger().saveRecord(settled.row.id, { settled: true })
        const ours = (rows: Array<{ payment_id: string }>) =>
          rows.map((r) => r.payment_id).filter((p) => [older, newer, settled].some((o) => o.payment.payment_id === p))
        const due = await ledger().listDue(new Date(), 1000)
        expect(ours(due)).toEqual([older.payment.payment_id, newer.payment.payment_id])
        expect(Object.keys(due[0]).sort()).toEqual(["check_failures", "id", "payment_id", "provider_id"])
        expect(ours(await ledger().listDueSettled(new Date(), 1000))).toEqual([settled.payment.payment_id])
        expect(await ledger().listDue(past(60), 1000)).not.toContainEqual(
          expect.objectContaining({ payment_id: older.payment.payment_id })
        )
      })

      it("counts failures and raises attention once, at the threshold", async () => {
        const { row } = await open()
        for (let run = 1; run < FAILURES_BEFORE_ATTENTION; run++) {
          expect(await ledger().recordFailure(row.payment_id, "boom")).toEqual({ failures: run, firstFlag: false })
        }
        expect(await ledger().recordFailure(row.payment_id, "boom")).toEqual({
          failures: FAILURES_BEFORE_ATTENTION,
          firstFlag: true,
        })
        await ledger().recordFailure(row.payment_id, "boom")
        const failed = await ledger().byPaymentId(row.payment_id)
        expect(failed).toMatchObject({ needs_attention: true, check_failures: FAILURES_BEFORE_ATTENTION + 1 })
        expect(failed?.attention).toMatch(/^The last \d+ attempts to apply this payment's status failed: boom$/)
        expect((await eventsOf(row.payment_id)).filter((e) => e === "crypto_payment.needs_attention")).toHaveLength(1)
        expect(await ledger().recordFailure("pay_unknown", "boom")).toBeUndefined()
      })

      it("flags a payment the service does not know, says so once, and reads it again later", async () => {
        const { row } = await open()
        const first = await ledger().recordMissing(row.payment_id, 60)
        const second = await ledger().recordMissing(row.payment_id, 60)
        expect([first?.firstTime, second?.firstTime]).toEqual([true, false])
        const missing = await ledger().byPaymentId(row.payment_id)
        expect(missing).toMatchObject({ needs_attention: true, settled: false, check_failures: 0 })
        expect(missing?.next_check_at?.getTime()).toBeGreaterThan(Date.now())
        expect(await ledger().recordMissing("pay_unknown", 60)).toBeUndefined()
      })
    })

    describe("owed records", () => {
      const rate = { coin: "BTC" as const, required: "0.00038462", baseAmount: "25.00", baseCurrency: "USD" }

      it("records what a read owes once per amount received, flags the payment and says so once", async () => {
        const { row } = await open()
        const excess = { kind: "excess" as const, coins: "0.00001000" }
        const record = await ledger().recordOwedByRead(row.payment_id, excess, rate, "0.00039462")
        expect(record).toMatchObject({
          kind: "excess",
          coin: "BTC",
          coin_amount: "0.00001000",
          key: "excess@0.00039462",
        })
        expect(await ledger().recordOwedByRead(row.payment_id, excess, rate, "0.00039462")).toBeUndefined()
        // more money arrives: only the part not recorded yet
        const more = await ledger().recordOwedByRead(
          row.payment_id,
          { kind: "excess", coins: "0.00002000" },
          rate,
          "0.00040462"
        )
        expect(more?.coin_amount).toBe("0.00001000")
        expect((await ledger().byPaymentId(row.payment_id))?.refund_owed).toBe(true)
        expect((await eventsOf(row.payment_id)).filter((e) => e === "crypto_payment.refund_owed")).toHaveLength(2)
      })

      it("marks records sent all together or not at all, and the payment owes only while one is open", async () => {
        const { row } = await open()
        const a = await ledger().recordOwedByRead(row.payment_id, { kind: "excess", coins: "0.00001" }, rate, "r1")
        const b = await ledger().recordOwedByRead(row.payment_id, { kind: "late", coins: "0.0004" }, rate, "r2")
        expect(
          await ledger().markOwedSent(row.payment_id, [a!.id, "cryptoowed_unknown"], "tx1", "sent")
        ).toBeUndefined()
        expect((await ledger().listOwed([row.payment_id])).every((r) => !r.sent_at)).toBe(true)

        const sent = await ledger().markOwedSent(row.payment_id, [a!.id], "tx1", "Sent back.")
        expect(sent?.map((r) => r.reference)).toEqual(["tx1"])
        expect((await ledger().byPaymentId(row.payment_id))?.refund_owed).toBe(true)
        await ledger().markOwedSent(row.payment_id, [b!.id], "tx2", "Sent back.")
        const paid = await ledger().byPaymentId(row.payment_id)
        expect(paid?.refund_owed).toBe(false)
        expect(
          (paid?.timeline as { entries: Array<{ outcome: string }> }).entries.filter((e) => e.outcome === "refund_sent")
        ).toHaveLength(2)
      })

      it("withdraws late records a remainder completed, never a payout underway nor a capture's claim that made no order", async () => {
        const { row } = await open()
        const late = await ledger().recordOwedByRead(row.payment_id, { kind: "late", coins: "0.0002" }, rate, "l1")
        const claim = await ledger().recordOwedByRead(
          row.payment_id,
          { kind: "late", coins: "0.0003", noOrder: true },
          rate,
          "l2"
        )
        const leaving = await ledger().recordOwedByRead(row.payment_id, { kind: "late", coins: "0.0004" }, rate, "l3")
        await db().raw(`update "crypto_owed_amount" set "payout_started_at" = now() where "id" = ?`, [leaving!.id])

        await ledger().recordCompletedByRemainder(row.payment_id, "pay_rest")
        const left = await ledger().listOwed([row.payment_id])
        expect(left.map((r) => r.id).sort()).toEqual([claim!.id, leaving!.id].sort())
        expect(left.map((r) => r.id)).not.toContain(late!.id)
        const completed = await ledger().byPaymentId(row.payment_id)
        expect(completed).toMatchObject({ settled: true, needs_attention: false, refund_owed: true })
        const entries = (completed?.timeline as { entries: Array<{ note?: string }> }).entries
        expect(entries[entries.length - 1].note).toMatch(
          /^Completed by its remainder pay_rest: .* No longer owed back: 0\.00020000 BTC \(withdrawn\)\.$/
        )
        // said once
        await ledger().recordCompletedByRemainder(row.payment_id, "pay_rest")
        expect(((await ledger().byPaymentId(row.payment_id))?.timeline as { entries: unknown[] }).entries).toHaveLength(
          entries.length
        )
      })

      it("a read's record is one transaction: cut inside it, no withdrawal, claim or row stands; uncut, all of them", async () => {
        const { row: first, sessionId } = await open()
        await ledger().open(opened(sessionId, { payment_id: id("pay"), remainder_of: first.payment_id }))
        const remainder = (await ledger().remainderOf(first.payment_id))!
        const late = await ledger().recordOwedByRead(first.payment_id, { kind: "late", coins: "0.0002" }, rate, "l1")
        const changes = {
          completed: { paymentIds: [first.payment_id], remainderId: remainder.payment_id },
          owed: () => ({
            paymentId: first.payment_id,
            owed: { kind: "late" as const, coins: "0.0004", noOrder: true as const, pair: true as const },
            rate,
            received: "0.0004",
          }),
        }
        const before = await ledger().byPaymentId(remainder.payment_id)
        await expect(
          ledger().recordRead(remainder.payment_id, changes, async () => {
            throw new Error("Connection terminated unexpectedly")
          })
        ).rejects.toThrow("Connection terminated")
        // the late record is still owed, no claim was written, the rows are as they were
        expect((await ledger().listOwed([first.payment_id])).map((r) => r.id)).toEqual([late!.id])
        expect((await ledger().byPaymentId(first.payment_id))?.settled).toBe(false)
        expect((await ledger().byPaymentId(remainder.payment_id))?.timeline).toEqual(before?.timeline)

        const saved = await ledger().recordRead(remainder.payment_id, changes, (owedRecord, trx) =>
          ledger().saveRecord(remainder.id, { settled: true, captured_no_order: !!owedRecord }, [], trx)
        )
        expect(saved).toMatchObject({ settled: true, captured_no_order: true })
        const owed = await ledger().listOwed([first.payment_id])
        expect(owed.map((r) => [r.key, r.coin_amount])).toEqual([["no_order@0.0004", "0.00040000"]])
        expect((await ledger().byPaymentId(first.payment_id))?.settled).toBe(true)
      })

      it("records a Medusa refund once per refund id, priced from the checkout under its lock", async () => {
        const { row, sessionId } = await open()
        const price = (refundId: string) => (checkout: { first: { payment_id: string } }) => ({
          payment_id: checkout.first.payment_id,
          key: refundId,
          refund_id: refundId,
          coin: "BTC",
          coin_amount: "0.0001",
          base_amount: "6.50",
          base_currency: "USD",
        })
        expect(await ledger().recordRefund(sessionId, price("ref_1"))).toMatchObject({ key: "ref_1" })
        await ledger().recordRefund(sessionId, price("ref_1"))
        await ledger().recordRefund(sessionId, price("ref_2"))
        const refunds = (await ledger().listOwed([row.payment_id])).filter((r) => r.kind === "refund")
        expect(refunds.map((r) => r.refund_id).sort()).toEqual(["ref_1", "ref_2"])
        const refunded = await ledger().byPaymentId(row.payment_id)
        expect(refunded?.refund_owed).toBe(true)
        expect(
          (refunded?.timeline as { entries: Array<{ source: string }> }).entries.filter((e) => e.source === "refund")
        ).toHaveLength(2)
        expect(await ledger().recordRefund("payses_unknown", price("ref_3"))).toBeUndefined()
      })
    })

    describe("the merchant's settings", () => {
      it("saves a policy, logs each field that changed, and reads it back for the core", async () => {
        const providerId = id("pp_crypto")
        expect(await service.settings.savedPolicy(providerId)).toBeUndefined()
        const made = await service.settings.save(
          providerId,
          { underpayment_tolerance_bp: 50, late_payments: "fulfil" },
          "user_1"
        )
        expect(made).toEqual([
          { field: "underpayment_tolerance_percent", from: null, to: "0.5" },
          { field: "late_payments", from: null, to: "fulfil" },
        ])
        expect(await service.settings.save(providerId, { late_payments: "fulfil" }, "user_2")).toEqual([])
        expect(await service.settings.savedPolicy(providerId)).toEqual({
          underpayment_tolerance_bp: 50,
          late_payments: "fulfil",
        })
        await service.settings.save(providerId, { underpayment_tolerance_bp: null }, "user_2")
        const changes = await service.settings.changes([providerId])
        // newest first: the reset, then the first save's two fields (one transaction, one time)
        expect(changes[0]).toMatchObject({
          field: "underpayment_tolerance_percent",
          to_value: null,
          actor_id: "user_2",
        })
        expect(changes.slice(1).map((c) => [c.field, c.to_value, c.actor_id])).toEqual(
          expect.arrayContaining([
            ["underpayment_tolerance_percent", "0.5", "user_1"],
            ["late_payments", "fulfil", "user_1"],
          ])
        )
        expect(changes).toHaveLength(3)
      })
    })

    describe("acknowledgements", () => {
      const state = (value: string) => ({ value, facts: { source: "option", in_use: "…1111", config: "…1111" } })

      it("records the state first seen once, and answers the newest per provider and subject with who and when", async () => {
        const [one, two] = [id("pp_crypto"), id("pp_crypto")]
        const acks = service.acknowledgements
        const first = {
          providerId: one,
          subject: "api_key" as const,
          ...state("a"),
          how: "first_sight" as const,
          actorId: null,
        }
        expect(await acks.record(first, { onlyIfNone: true })).toMatchObject({
          provider_id: one,
          value: "a",
          how: "first_sight",
        })
        expect(await acks.record({ ...first, ...state("b") }, { onlyIfNone: true })).toBeUndefined()
        expect(await acks.newest([one, two], "api_key")).toEqual([
          {
            provider_id: one,
            subject: "api_key",
            ...state("a"),
            how: "first_sight",
            actor_id: null,
            created_at: expect.any(String),
          },
        ])

        // two in one transaction (the state a save replaces, then the save's): the later one is the newest
        await db().transaction(async (trx) => {
          await recordAcknowledgement(trx, { ...first, providerId: two, ...state("before") }, { onlyIfNone: true })
          await recordAcknowledgement(trx, {
            ...first,
            providerId: two,
            ...state("saved"),
            how: "saved",
            actorId: "user_1",
          })
        })
        const acknowledged = await acks.record({ ...first, ...state("c"), how: "acknowledged", actorId: "user_2" })
        const newest = await acks.newest([one, two], "api_key")
        expect(newest.map((a) => [a.provider_id, a.value, a.how, a.actor_id])).toEqual(
          expect.arrayContaining([
            [one, "c", "acknowledged", "user_2"],
            [two, "saved", "saved", "user_1"],
          ])
        )
        expect(newest).toHaveLength(2)
        expect(newest.find((a) => a.provider_id === one)).toEqual(acknowledged)
      })
    })

    describe("stored exchange rates", () => {
      const rates = (url: string) =>
        new ExchangeRates({
          option: { source: "ecb", url, maxAgeHours: 144, markupPercent: 0, refreshMinutes: 60 },
          store: new RateStore(db),
          fetchFile: async () => {
            throw new Error("ENOTFOUND")
          },
          log: { warn: () => undefined, info: () => undefined } as never,
          checkoutWaitMs: 100,
        })

      it("keeps a publication across a change of url to the same source, never to another source", async () => {
        await db().raw(`delete from "crypto_exchange_rate"`)
        const today = new Date().toISOString().slice(0, 10)
        const store = new RateStore(db)
        const sandbox = "http://127.0.0.1:4010/ecb/eurofxref-daily.xml"
        const ecbOverHttp = "http://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"
        for (const url of [sandbox, ecbOverHttp]) {
          await store.claim("ecb", url, 0)
          await store.store("ecb", url, { publishedOn: today, rates: { USD: url === sandbox ? "1.0842" : "1.1650" } })
        }
        expect((await store.ofSource("ecb")).map((r) => r.url)).toEqual([sandbox, ecbOverHttp])

        const ecb = rates(ECB_DAILY_URL)
        expect(await ecb.rateFor("EUR")).toMatchObject({ rate: "1.165", publishedOn: today, url: ECB_DAILY_URL })
        await db().raw(`delete from "crypto_exchange_rate" where "url" = ?`, [ecbOverHttp])
        await expect(rates(ECB_DAILY_URL).rateFor("EUR")).rejects.toMatchObject({ code: "crypto.rate_stale" })
        expect(await rates(ECB_DAILY_URL).state()).toMatchObject({
          publishedOn: null,
          otherSources: [{ url: sandbox, publishedOn: today }],
        })
        // the sandbox's own url still finds its publication
        expect(await rates(sandbox).rateFor("EUR")).toMatchObject({ rate: "1.0842" })
        await db().raw(`delete from "crypto_exchange_rate"`)
      })
    })
  },
})
