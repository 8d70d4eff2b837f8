import { generateEntityId, MedusaError, MedusaService } from "@medusajs/framework/utils"
import type { IEventBusModuleService, InferTypeOf, Logger } from "@medusajs/framework/types"
import type { Knex } from "knex"
import CryptoPayment from "./models/crypto-payment"
import CryptoOwedAmount from "./models/crypto-owed-amount"
import CryptoSetting from "./models/crypto-setting"
import CryptoSettingChange from "./models/crypto-setting-change"
import CryptoProcess from "./models/crypto-process"
import CryptoExchangeRate from "./models/crypto-exchange-rate"
import CryptoPaymentEvent from "./models/crypto-payment-event"
import CryptoPaymentEmail from "./models/crypto-payment-email"
import CryptoRefundAddressChange from "./models/crypto-refund-address-change"
import CryptoSecret from "./models/crypto-secret"
import { RefundAddresses } from "./refund-addresses"
import { LedgerCheckout, readCheckoutPayment, underRefundLock } from "./checkout-payments"
import { payoutUnderway } from "../../lib/domain/checkout-payment"
import { PaymentExport } from "./payment-export"
import { ExpiredLocks } from "./expired-locks"
import { PaymentList } from "./payment-list"
import { outboxEvents, outboxInsertSql, PaymentOutbox } from "./payment-outbox"
import { PaymentEmails } from "./payment-emails"
import {
  channelServed,
  CustomerEmails,
  customerEmailsLine,
  NotificationOptions,
  parsePluginOptions,
} from "./plugin-options"
import { onOutboxRing, ringOutbox } from "../../lib/runtime/outbox-bell"
import { attentionKey, owedKey, PaymentEvent } from "../../lib/domain/payment-events"
import { ProcessRegistry } from "./process-registry"
import { bootCheck } from "./boot-check"
import { forgetCores } from "./core"
import { isOneShotCommand } from "./one-shot-command"
import { deploymentChecks } from "./setup-health"
import { ConfigLike, lockingOf, workerModeOf } from "../../lib/setup-health/configuration"
import { pluginLog } from "../../lib/runtime/log"
import type { LedgerFlag } from "./types"
import { FAILURES_BEFORE_ATTENTION, nextReadDelaySeconds } from "../../lib/domain/read-schedule"
import { baseFor, coinsBeyond, isZero, PaymentRate, sumCoins } from "../../lib/domain/owed"
import type { OwedByRead } from "../../lib/domain/decision-terms"
import { RECORD_FLAGS } from "../../lib/domain/payment-record"
import { entityId } from "../../lib/domain/entity-id"

export type OwedRecord = InferTypeOf<typeof CryptoOwedAmount>
export type CryptoPaymentRow = InferTypeOf<typeof CryptoPayment>

/** The key prefix of the claim a capture that made no order owes: a remainder's completion never withdraws it. */
const NO_ORDER_KEY = "no_order"

/** A record named to be marked sent was sent or withdrawn meanwhile: nothing is marked. */
class OwedChanged extends Error {}

/** Rows per retention delete, and deletes per table per call: a tick stays short whatever the backlog. */
const PRUNE_BATCH = 1000
const PRUNE_STATEMENTS = 5

/** Runs `deleteUpTo` until a batch comes back short or PRUNE_STATEMENTS ran; how many rows it deleted. */
async function inBatches(deleteUpTo: (limit: number) => Promise<number>): Promise<number> {
  let deleted = 0
  for (let i = 0; i < PRUNE_STATEMENTS; i++) {
    const batch = await deleteUpTo(PRUNE_BATCH)
    deleted += batch
    if (batch < PRUNE_BATCH) break
  }
  return deleted
}

/** The columns a read's record writes (saveRecord), and those among them that hold json. */
type RecordColumn = Exclude<keyof CryptoPaymentRow, "id" | "created_at" | "updated_at" | "deleted_at">
const JSON_COLUMNS = new Set<RecordColumn>(["quotes", "last_read", "drift", "warned", "timeline"])
const RECORD_COLUMNS = new Set<RecordColumn>([
  ...JSON_COLUMNS,
  "status",
  "outcome",
  "coin",
  "address",
  "received_amount",
  "required_amount",
  "confirmations",
  "required_confirmations",
  ...RECORD_FLAGS,
  "needs_attention",
  "attention",
  "order_id",
  "applied",
  "settled",
  "settled_at",
  "settled_by",
  "last_webhook_at",
  "last_checked_at",
  "next_check_at",
  "check_failures",
  "refund_owed",
  "captured_no_order",
])

type Page = { take?: number; skip?: number }

/**
 * The ledger of crypto payments: one row per invoice or payment the shop created at the service,
 * its latest status, its flags, what was applied in Medusa and when to read it again.
 */
/** Fields of a saved setting to change; null: back to the provider's option. */
export type SettingsChange = { underpayment_tolerance_bp?: number | null; late_payments?: string | null }

type ModuleDependencies = {
  logger: Logger
  __pg_connection__?: Knex
  configModule?: ConfigLike
  event_bus?: IEventBusModuleService
}

export type { CustomerEmails }

class CryptoPaymentModuleService extends MedusaService({
  CryptoPayment,
  CryptoOwedAmount,
  CryptoSetting,
  CryptoSettingChange,
  CryptoProcess,
  CryptoExchangeRate,
  CryptoPaymentEvent,
  CryptoPaymentEmail,
  CryptoRefundAddressChange,
  CryptoSecret,
}) {
  protected readonly deps_: ModuleDependencies
  protected readonly processes_: ProcessRegistry
  protected readonly outbox_: PaymentOutbox
  protected readonly emails_: PaymentEmails
  protected readonly refundAddresses_: RefundAddresses
  protected readonly paymentList_: PaymentList
  protected readonly paymentExport_: PaymentExport
  protected readonly expiredLocks_: ExpiredLocks
  protected readonly notifications_: NotificationOptions | undefined
  protected readonly retentionDays_: number
  protected readonly trustedProxyHops_: number
  protected stopListening_: (() => void) | undefined

  /** `options`: the plugin's options (Medusa hands them to the plugin's modules); a bad one stops the boot. */
  constructor(container: ModuleDependencies, options?: unknown) {
    // eslint-disable-next-line prefer-rest-params
    super(...(arguments as unknown as [ModuleDependencies]))
    this.deps_ = container
    const { notifications, retentionDays, trustedProxyHops } = parsePluginOptions(options)
    this.notifications_ = notifications
    this.retentionDays_ = retentionDays
    this.trustedProxyHops_ = trustedProxyHops
    this.outbox_ = new PaymentOutbox(
      () => this.db(),
      () => this.dependency("event_bus"),
      pluginLog(container.logger)
    )
    this.emails_ = new PaymentEmails(() => this.db())
    this.refundAddresses_ = new RefundAddresses(() => this.db())
    this.paymentList_ = new PaymentList(() => this.db())
    this.paymentExport_ = new PaymentExport(() => this.db())
    this.expiredLocks_ = new ExpiredLocks(() => this.db())
    this.processes_ = new ProcessRegistry(
      () => this.db(),
      () => ({ workerMode: workerModeOf(this.config()), locking: lockingOf(this.config()).provider })
    )
  }

  /**
   * At the start of every process that serves or works (never in migrations, nor in one-shot commands
   * such as `medusa db:migrate` or `medusa user`): register it for setup health, and run the setup
   * check, logging each red line once.
   */
  __hooks = {
    onApplicationStart: async () => {
      if (isOneShotCommand()) return
      const log = pluginLog(this.deps_.logger)
      // events recorded by this process go out as soon as they are committed; the job delivers the rest
      this.stopListening_ = onOutboxRing(() => void this.outbox_.deliver())
      log.info(customerEmailsLine(this.customerEmails()))
      await this.processes_
        .start()
        .catch((error) => log.warn(`could not register this process for setup health: ${(error as Error)?.message}`))
      // awaited (bounded by one short read per provider), so its read of the service is done before the
      // process serves its first request and never mixes with the reads an order causes
      await bootCheck(this.db(), this.config(), log, this.processes_.id).catch(() => undefined)
    },
    onApplicationShutdown: async () => {
      this.stopListening_?.()
      forgetCores()
      if (isOneShotCommand()) return
      await this.processes_.stop()
    },
  }

  /**
   * The customer emails, when the plugin's `notifications` option is set: its options, and whether
   * a notification provider serves its channel (undefined: the configuration cannot say; sending is tried).
   */
  customerEmails(): CustomerEmails | undefined {
    if (!this.notifications_) return undefined
    const modules = (this.config() as { modules?: Record<string, unknown> }).modules
    return { options: this.notifications_, ...channelServed(modules, this.notifications_.channel) }
  }

  /** The plugin's `retentionDays` option: how long delivered events and finished customer emails are kept. */
  retentionDays(): number {
    return this.retentionDays_
  }

  /** The shop's own proxies in front of the backend (plugin option `trustedProxyHops`, default 1). */
  trustedProxyHops(): number {
    return this.trustedProxyHops_
  }

  /**
   * Deletes delivered events and finished customer emails older than retentionDays, at most
   * PRUNE_STATEMENTS batches of PRUNE_BATCH rows per table (the job calls it every tick). How many of each.
   */
  async pruneOld(): Promise<{ outbox: number; emails: number; days: number }> {
    const days = this.retentionDays_
    const outbox = await inBatches((limit) => this.outbox_.deleteDelivered(days, limit))
    const emails = await inBatches((limit) => this.emails_.deleteFinished(days, limit))
    return { outbox, emails, days }
  }

  /** The sent-record of customer emails. */
  get emails(): PaymentEmails {
    return this.emails_
  }

  /** Where owed coins go back: the customer's refund addresses, the payout, the link's expiry, the basis. */
  get refundAddresses(): RefundAddresses {
    return this.refundAddresses_
  }

  /** The admin's list of the ledger: keyset pages with their filters, and the deprecated offset pages. */
  get paymentList(): PaymentList {
    return this.paymentList_
  }

  /**
   * Deletes the locks among `keys` (all, when none are named) whose expiration has passed, in Postgres
   * locking's table: a killed process's locks would otherwise hold for ever (expired-locks.ts). How many.
   */
  async clearExpiredLocks(keys?: string[]): Promise<number> {
    return this.expiredLocks_.clear(keys)
  }

  /** The accounting export's reads: keyset batches of payments or owed records of a period. */
  get paymentExport(): PaymentExport {
    return this.paymentExport_
  }

  /**
   * Copies their order's display id onto up to `limit` rows that have an order but no display id yet
   * (the admin lists and filters by it); the job calls it every tick. Returns how many were written.
   */
  async backfillOrderDisplayIds(limit = 200): Promise<number> {
    return this.paymentList_.backfillOrderDisplayIds(limit)
  }

  /** Delivers the event outbox now (the job calls it every tick: what a process's own delivery missed). */
  async deliverEvents(): Promise<number> {
    return this.outbox_.deliver()
  }

  /** The events recorded for payments, oldest first. */
  async eventsOf(paymentIds: string[]) {
    if (!paymentIds.length) return []
    return this.listCryptoPaymentEvents(
      { payment_id: paymentIds },
      {
        order: { created_at: "ASC" },
        take: 200,
        select: ["id", "name", "event_key", "payment_id", "order_id", "created_at", "delivered_at"],
      }
    )
  }

  /** The policies saved from the admin, one per provider (none saved: the provider's options apply). */
  async savedSettings(providerIds: string[]) {
    if (!providerIds.length) return []
    return this.listCryptoSettings({ provider_id: providerIds }, { take: providerIds.length })
  }

  /** The newest changes of saved settings, newest first. */
  async settingChanges(providerIds: string[], take = 50) {
    if (!providerIds.length) return []
    return this.listCryptoSettingChanges({ provider_id: providerIds }, { order: { created_at: "DESC" }, take })
  }

  /**
   * Saves a provider's policy (a field given as null goes back to the option) and logs each field
   * that changed with who changed it, in one transaction: concurrent saves each log what they changed.
   */
  async saveSettings(providerId: string, changes: SettingsChange, actorId: string | null) {
    const shown: Record<keyof SettingsChange, (value: number | string | null) => string | null> = {
      underpayment_tolerance_bp: (bp) => (bp === null ? null : String(Number(bp) / 100)),
      late_payments: (value) => (value === null ? null : String(value)),
    }
    const apiName: Record<keyof SettingsChange, string> = {
      underpayment_tolerance_bp: "underpayment_tolerance_percent",
      late_payments: "late_payments",
    }
    const made: Array<{ field: string; from: string | null; to: string | null }> = []
    await this.db().transaction(async (trx) => {
      await trx.raw(
        `insert into "crypto_setting" ("id", "provider_id") values (?, ?) on conflict ("provider_id") where "deleted_at" is null do nothing`,
        [generateEntityId(undefined, "cryptoset"), providerId]
      )
      const [current] = (
        await trx.raw(`select * from "crypto_setting" where "provider_id" = ? and "deleted_at" is null for update`, [
          providerId,
        ])
      ).rows as Array<Record<keyof SettingsChange, number | string | null>>
      const fields = (Object.keys(changes) as Array<keyof SettingsChange>).filter(
        (field) => changes[field] !== undefined && (current[field] ?? null) !== changes[field]
      )
      if (!fields.length) return
      await trx.raw(
        `update "crypto_setting" set ${fields.map((f) => `"${f}" = ?`).join(", ")}, "updated_by" = ?, "updated_at" = now()
         where "provider_id" = ? and "deleted_at" is null`,
        [...fields.map((f) => changes[f] as number | string | null), actorId, providerId]
      )
      for (const field of fields) {
        const change = {
          field: apiName[field],
          from: shown[field](current[field] ?? null),
          to: shown[field](changes[field] ?? null),
        }
        made.push(change)
        await trx.raw(
          `insert into "crypto_setting_change" ("id", "provider_id", "field", "from_value", "to_value", "actor_id") values (?, ?, ?, ?, ?, ?)`,
          [generateEntityId(undefined, "cryptosetchg"), providerId, change.field, change.from, change.to, actorId]
        )
      }
    })
    return made
  }

  /**
   * An admin takes the publication held back for a jump (the move is real): it replaces the stored
   * one unless that is newer, and the change log says who took it. Returns the change, or undefined
   * when nothing was held (or a newer publication was stored meanwhile: the held one is dropped).
   */
  async acceptHeldRates(providerId: string, source: string, url: string, actorId: string | null) {
    return this.db().transaction(async (trx) => {
      const [row] = (
        await trx.raw(
          `select "id", "published_on", "held" from "crypto_exchange_rate" where "source" = ? and "url" = ? and "deleted_at" is null for update`,
          [source, url]
        )
      ).rows as Array<{
        id: string
        published_on: string | null
        held: { publishedOn: string; rates: Record<string, string> } | null
      }>
      if (!row?.held) return undefined
      const { publishedOn, rates } = row.held
      const taken = await trx.raw(
        `update "crypto_exchange_rate" set "published_on" = ?, "rates" = ?::jsonb, "fetched_at" = now(), "held" = null, "updated_at" = now()
         where "id" = ? and ("published_on" is null or "published_on" <= ?) returning "id"`,
        [publishedOn, JSON.stringify(rates), row.id, publishedOn]
      )
      if (!(taken as { rows: unknown[] }).rows.length) {
        // a newer publication was stored meanwhile: the held one is moot
        await trx.raw(`update "crypto_exchange_rate" set "held" = null, "updated_at" = now() where "id" = ?`, [row.id])
        return undefined
      }
      const change = { field: "exchange_rates", from: row.published_on, to: publishedOn }
      await trx.raw(
        `insert into "crypto_setting_change" ("id", "provider_id", "field", "from_value", "to_value", "actor_id") values (?, ?, ?, ?, ?, ?)`,
        [generateEntityId(undefined, "cryptosetchg"), providerId, change.field, change.from, change.to, actorId]
      )
      return change
    })
  }

  /** The deployment's setup checks (migrations, locking, worker mode, webhooks, clock). */
  async deploymentHealth() {
    return deploymentChecks(this.db(), this.config(), this.processes_.id)
  }

  protected config(): ConfigLike {
    return this.dependency("configModule") ?? {}
  }

  protected db(): Knex {
    const db = this.dependency("__pg_connection__")
    if (!db) throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "medusa-payment-crypto: no database connection.")
    return db
  }

  /** A dependency Medusa may not register (its container throws on unknown keys). */
  protected dependency<K extends keyof ModuleDependencies>(key: K): ModuleDependencies[K] | undefined {
    try {
      return this.deps_[key]
    } catch {
      return undefined
    }
  }

  /** Reconciliation is paused until then (the service answered 429 with Retry-After). */
  protected pausedUntil_ = 0

  /**
   * A ledger row by the service's payment id: one indexed read on the shared connection (the
   * capture path reads the row several times under its lock, and the ORM's entity building cost
   * more than the query). Undefined at run time when the ledger has no such payment.
   */
  async retrieveByPaymentId(paymentId: string): Promise<CryptoPaymentRow> {
    const { rows } = await this.db().raw(
      `select * from "crypto_payment" where "payment_id" = ? and "deleted_at" is null limit 1`,
      [paymentId]
    )
    return rows[0]
  }

  /** The checkout's payment a payment belongs to: its first payment, every remainder and their owed records. */
  async checkoutOf(paymentId: string): Promise<LedgerCheckout | undefined> {
    return readCheckoutPayment(this.db(), paymentId)
  }

  /**
   * Runs `work` holding the checkout's refund lock (the one a Medusa refund takes: checkout-payments.ts),
   * with the checkout read under it: whatever sets an owed record's coins is capped one after the other.
   */
  async underRefundLock<T>(paymentId: string, work: (checkout: LedgerCheckout | undefined) => Promise<T>): Promise<T> {
    return underRefundLock(this.db(), paymentId, (_trx, checkout) => work(checkout))
  }

  /**
   * What a capture or cancel of the payment must lock, in one read: its payment collection and the
   * order that collection belongs to (Medusa's link table), if any.
   */
  async lockScopeOf(paymentId: string): Promise<{ collectionId: string | null; orderId: string | null } | undefined> {
    const { rows } = await this.db().raw(
      `select p."payment_collection_id" as "collectionId",
         (select l."order_id" from "order_payment_collection" l
           where l."payment_collection_id" = p."payment_collection_id" and l."deleted_at" is null limit 1) as "orderId"
       from "crypto_payment" p where p."payment_id" = ? and p."deleted_at" is null limit 1`,
      [paymentId]
    )
    return rows[0]
  }

  /**
   * How many payments the shop created for a payment collection since `since` (every session and
   * every new amount makes one), and when the oldest of them was created: bounds a cart's churn.
   */
  async createdForCollectionSince(collectionId: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
    const { rows } = await this.db().raw(
      `select count(*)::int as "count", min("created_at") as "oldest" from "crypto_payment"
       where "payment_collection_id" = ? and "created_at" > ? and "deleted_at" is null`,
      [collectionId, since]
    )
    return { count: rows[0]?.count ?? 0, oldest: rows[0]?.oldest ? new Date(rows[0].oldest) : null }
  }

  /** Writes down which session a payment pays (the unique index refuses a second payment for one session). */
  async claimSession(paymentId: string, sessionId: string): Promise<void> {
    await this.db().raw(
      `update "crypto_payment" set "capture_session_id" = ?, "updated_at" = now() where "payment_id" = ? and "deleted_at" is null`,
      [sessionId, paymentId]
    )
  }

  /**
   * Writes a read's record onto a row in one statement and returns the row as saved. Only the
   * ledger's own columns are accepted; json columns are written as jsonb. `events`: the transitions
   * the record makes, written to the outbox by the same statement (and delivered once it committed).
   */
  async saveRecord(
    id: string,
    fields: Partial<Record<RecordColumn, unknown>>,
    events: PaymentEvent[] = []
  ): Promise<CryptoPaymentRow> {
    const columns = Object.keys(fields).filter((column) => fields[column as RecordColumn] !== undefined)
    for (const column of columns) {
      if (!RECORD_COLUMNS.has(column as RecordColumn))
        throw new MedusaError(MedusaError.Types.INVALID_DATA, `Not a column of the crypto payment ledger: ${column}`)
    }
    const values = columns.map((column) => {
      const value = fields[column as RecordColumn]
      return JSON_COLUMNS.has(column as RecordColumn) && value !== null ? JSON.stringify(value) : value
    })
    // the order's display id follows order_id (the admin lists and filters by it), read from Medusa's
    // order table only when the row's order changes or its display id is not known yet
    const orderId = columns.includes("order_id") ? ((fields.order_id as string | null) ?? null) : undefined
    const displayId =
      orderId === undefined
        ? ""
        : `, "order_display_id" = case when "order_id" is not distinct from ?::text and "order_display_id" is not null
            then "order_display_id" else (select o."display_id" from "order" o where o."id" = ?::text) end`
    const bindings = [...(values as Knex.Value[]), ...(orderId === undefined ? [] : [orderId, orderId])]
    const update = `update "crypto_payment" set ${columns
      .map((column) => `"${column}" = ?${JSON_COLUMNS.has(column as RecordColumn) ? "::jsonb" : ""}`)
      .join(", ")}${displayId}, "updated_at" = now() where "id" = ? returning *`
    const { rows } = events.length
      ? await this.db().raw(
          `with "saved" as (${update}), "events" as (${outboxInsertSql("saved")}) select * from "saved"`,
          [...bindings, id, outboxEvents(events)]
        )
      : await this.db().raw(update, [...bindings, id])
    if (!rows[0]) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Crypto payment ${id} is no longer in the ledger.`)
    if (events.length) ringOutbox()
    return rows[0]
  }

  /** The ledger rows of an order: what paid it, and what arrived late, short or twice for it. */
  async listForOrder(orderId: string, page: Page = {}) {
    return this.listCryptoPayments(
      { order_id: orderId },
      { order: { created_at: "DESC" }, take: page.take ?? 50, skip: page.skip }
    )
  }

  /** Rows carrying a flag, newest first. */
  async listByFlag(flag: LedgerFlag, page: Page = {}) {
    return this.listAndCountCryptoPayments(
      { [flag]: true },
      { order: { created_at: "DESC" }, take: page.take ?? 50, skip: page.skip }
    )
  }

  /**
   * The payments due for a status read, oldest due first, at most `limit`: a range scan of the
   * (settled, next_check_at) index, whatever the size of the ledger.
   */
  async listDue(now: Date, limit: number) {
    return this.listCryptoPayments(
      { settled: false, next_check_at: { $lte: now } },
      { select: ["id", "payment_id", "provider_id", "check_failures"], order: { next_check_at: "ASC" }, take: limit }
    )
  }

  /**
   * Settled payments whose watch is due (money after capture, a second payment, a late one): the
   * same index, the lowest priority; the job gives them a small share of each tick.
   */
  async listDueSettled(now: Date, limit: number) {
    return this.listCryptoPayments(
      { settled: true, next_check_at: { $lte: now } },
      { select: ["id", "payment_id", "provider_id", "check_failures"], order: { next_check_at: "ASC" }, take: limit }
    )
  }

  /** Moves a payment's next read to `at`, counting no failure (its lock was busy: nothing was read). */
  async readAgainAt(paymentId: string, at: Date): Promise<void> {
    await this.db().raw(
      `update "crypto_payment" set "next_check_at" = ?, "updated_at" = now() where "payment_id" = ? and "deleted_at" is null`,
      [at, paymentId]
    )
  }

  /**
   * A run (job or webhook) of a payment failed: counted, and after FAILURES_BEFORE_ATTENTION in a
   * row the payment needs attention with the error's message, until a run succeeds (the record
   * step clears both). Past its watch window it is no longer read.
   */
  async recordFailure(paymentId: string, message: string, next: { nextCheckAt?: Date } = {}, now = new Date()) {
    const row = await this.retrieveByPaymentId(paymentId)
    if (!row) return undefined
    const failures = row.check_failures + 1
    const failing = failures >= FAILURES_BEFORE_ATTENTION
    // past its watch window too: an unsettled payment (an order held for the window's end, say) is
    // read again with backoff until a read succeeds and decides it; a settled one stops being watched
    const pastWatch = !!row.watch_until && now > new Date(row.watch_until)
    const stop = pastWatch && row.settled
    const attention = `The last ${failures} attempts to apply this payment's status failed: ${message}`
    await this.saveRecord(
      row.id,
      {
        check_failures: failures,
        ...(next.nextCheckAt || stop ? { next_check_at: stop ? null : next.nextCheckAt } : {}),
        ...(failing ? { needs_attention: true, attention } : {}),
      },
      failing ? this.attentionRaised(row, attention) : []
    )
    return { failures, firstFlag: failures === FAILURES_BEFORE_ATTENTION }
  }

  /**
   * A short payment whose remainder completed its session: no attention, nothing left to do, its
   * coins owed back as late withdrawn (they paid the order), and a line in its timeline saying which
   * payment finished it.
   */
  async recordCompletedByRemainder(paymentId: string, remainderId?: string, now = new Date()) {
    await this.withdrawOwed(
      paymentId,
      `Completed by its remainder${remainderId ? ` ${remainderId}` : ""}: the session was captured in full with both payments.`,
      { needs_attention: false, attention: null, settled: true },
      now
    )
  }

  /**
   * Coins that were owed back as late pay an order after all (a remainder completes them): their open
   * late records are withdrawn (soft-deleted: the database keeps them) and the payment's timeline says
   * why; `refund_owed` stays only while something else is owed. Also writes `fields` on the row.
   */
  async withdrawOwed(
    paymentId: string,
    why: string,
    fields: Partial<Pick<CryptoPaymentRow, "needs_attention" | "attention" | "settled">> = {},
    now = new Date()
  ) {
    const row = await this.retrieveByPaymentId(paymentId)
    if (!row) return []
    const owed = await this.listOwed([paymentId])
    // never coins whose payout started (they are leaving), nor the claim of a capture that made no order
    const withdrawn = owed.filter((r) => r.kind === "late" && !payoutUnderway(r) && !r.key.startsWith(NO_ORDER_KEY))
    // said once: a later read of the same state withdraws nothing and writes nothing
    const unchanged = (Object.keys(fields) as Array<keyof typeof fields>).every((key) => row[key] === fields[key])
    if (!withdrawn.length && unchanged) return []
    if (withdrawn.length) await this.softDeleteCryptoOwedAmounts(withdrawn.map((r) => r.id))
    const entries = [...((row.timeline as { entries?: unknown[] } | null)?.entries ?? [])]
    const parts = withdrawn.map((r) => `${r.coin_amount ?? "?"} ${r.coin ?? ""}`.trim())
    entries.push({
      at: now.toISOString(),
      source: "ledger",
      status: row.status,
      outcome: row.outcome,
      confirmations: row.confirmations,
      received: row.received_amount ?? "0",
      note: parts.length ? `${why} No longer owed back: ${parts.join(", ")} (withdrawn).` : why,
    })
    const stillOwed = owed.some((r) => !r.sent_at && !withdrawn.includes(r))
    await this.updateCryptoPayments({ id: row.id, ...fields, refund_owed: stillOwed, timeline: { entries } })
    return withdrawn
  }

  /** A payment's owed records, oldest first. */
  async listOwed(paymentIds: string[]) {
    if (!paymentIds.length) return []
    return this.listCryptoOwedAmounts({ payment_id: paymentIds }, { order: { created_at: "ASC" }, take: 1000 })
  }

  /**
   * Writes what a read shows is owed (excess or late) as a record for the part not recorded yet:
   * keyed by the amount received, so a repeated read adds nothing and more money adds the rest. The
   * payment is then flagged as owing (whichever payment's read wrote it: a remainder's owes on its first).
   * Runs under the payment's lock (the reconcile workflow), so the sum it builds on is stable.
   */
  async recordOwedByRead(paymentId: string, owed: OwedByRead, rate: PaymentRate, received: string) {
    // beside a Medusa refund being recorded, never both on the same coins: one after the other
    return this.underRefundLock(paymentId, () => this.writeOwedByRead(paymentId, owed, rate, received))
  }

  private async writeOwedByRead(paymentId: string, owed: OwedByRead, rate: PaymentRate, received: string) {
    const existing = (await this.listOwed([paymentId])).filter((r) => r.kind === owed.kind)
    const recorded = sumCoins(
      rate.coin,
      existing.map((r) => r.coin_amount)
    )
    const part = coinsBeyond(rate.coin, owed.coins, recorded)
    const key = `${owed.noOrder ? NO_ORDER_KEY : owed.kind}@${received}`
    if (isZero(part) || existing.some((r) => r.key === key)) return undefined
    // the record, the payment's flag and the refund_owed event in one statement: all or none
    const event: PaymentEvent = { name: "crypto_payment.refund_owed", key: owedKey(paymentId, key) }
    const { rows } = await this.db().raw(
      `with "owed" as (insert into "crypto_owed_amount" ("id", "payment_id", "kind", "key", "coin", "coin_amount", "recorded_coin_amount", "base_amount", "base_currency")
         values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing returning *),
       "flagged" as (update "crypto_payment" set "refund_owed" = true, "updated_at" = now()
         where "payment_id" = ? and "deleted_at" is null and exists (select 1 from "owed") returning *),
       "events" as (${outboxInsertSql("flagged")})
       select * from "owed"`,
      [
        entityId("cryptoowed"),
        paymentId,
        owed.kind,
        key,
        rate.coin,
        part,
        part,
        baseFor(rate, part),
        rate.baseCurrency,
        paymentId,
        outboxEvents([event]),
      ]
    )
    if (rows[0]) ringOutbox()
    return rows[0] as OwedRecord | undefined
  }

  /**
   * Marks the named owed records sent, with one reference, and says so on the payment (it owes only while
   * another record is open; its timeline gets `note`), in one transaction: all of them, or, when one was
   * sent or withdrawn meanwhile, none (undefined). The timeline is appended in the statement itself, so
   * an entry a refund appends meanwhile is kept.
   */
  async markOwedSent(
    paymentId: string,
    owedIds: string[],
    reference: string | null,
    note: string,
    now = new Date()
  ): Promise<OwedRecord[] | undefined> {
    const ids = [...new Set(owedIds)]
    if (!ids.length) return []
    return this.db()
      .transaction(async (trx) => {
        const { rows } = await trx.raw(
          `update "crypto_owed_amount" set "sent_at" = ?, "reference" = ?, "updated_at" = now()
           where "id" = any(?) and "payment_id" = ? and "sent_at" is null and "deleted_at" is null returning *`,
          [now, reference, ids, paymentId]
        )
        if (rows.length !== ids.length) throw new OwedChanged()
        await trx.raw(
          `update "crypto_payment" p set
             "refund_owed" = exists (select 1 from "crypto_owed_amount" o
               where o."payment_id" = p."payment_id" and o."sent_at" is null and o."deleted_at" is null),
             "timeline" = jsonb_build_object('entries', coalesce(p."timeline"->'entries', '[]'::jsonb) || jsonb_build_array(
               jsonb_build_object('at', ?::text, 'source', 'admin', 'status', p."status", 'outcome', 'refund_sent',
                 'confirmations', p."confirmations", 'received', coalesce(p."received_amount", '0'), 'note', ?::text))),
             "updated_at" = now()
           where p."payment_id" = ? and p."deleted_at" is null`,
          [now.toISOString(), note, paymentId]
        )
        return rows as OwedRecord[]
      })
      .catch((error) => {
        if (error instanceof OwedChanged) return undefined
        throw error
      })
  }

  /**
   * The service answered 404 for a payment the shop created: flagged for attention (logged once),
   * read again with a growing interval, and no more after its late-payment window.
   */
  async recordMissing(paymentId: string, intervalSeconds: number, now = new Date()) {
    const row = await this.retrieveByPaymentId(paymentId)
    const warned = { ...((row.warned as Record<string, string> | null) ?? {}) }
    const firstTime = !warned.missing
    warned.missing ??= now.toISOString()
    const settled = !!row.watch_until && now > new Date(row.watch_until)
    const delay = nextReadDelaySeconds({
      now,
      expiresAt: row.expires_at,
      createdAt: row.created_at,
      outcome: "mismatch",
      watchLate: false,
      intervalSeconds,
    })
    const attention = "The payment service does not know this payment (404). Check it on the service's dashboard."
    await this.saveRecord(
      row.id,
      {
        needs_attention: true,
        attention,
        warned,
        settled,
        last_checked_at: now,
        next_check_at: settled ? null : new Date(now.getTime() + delay * 1000),
        check_failures: 0,
      },
      this.attentionRaised(row, attention)
    )
    return { row, firstTime }
  }

  /** The event of a need for attention raised on a row that had none. */
  protected attentionRaised(row: CryptoPaymentRow, attention: string): PaymentEvent[] {
    return row.needs_attention
      ? []
      : [{ name: "crypto_payment.needs_attention", key: attentionKey(row.payment_id, attention) }]
  }

  pauseReconciliation(until: number): void {
    this.pausedUntil_ = Math.max(this.pausedUntil_, until)
  }

  reconciliationPausedUntil(): number {
    return this.pausedUntil_
  }
}

export default CryptoPaymentModuleService
