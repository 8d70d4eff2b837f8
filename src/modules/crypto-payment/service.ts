import { MedusaError, MedusaService } from "@medusajs/framework/utils"
import type { IEventBusModuleService, Logger } from "@medusajs/framework/types"
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
import CryptoAcknowledgement from "./models/crypto-acknowledgement"
import { Ledger } from "./ledger"
import { MerchantSettings } from "./merchant-settings"
import { RateStore } from "./rate-store"
import { Acknowledgements } from "./acknowledgements"
import { RefundAddresses } from "./refund-addresses"
import { PaymentExport } from "./payment-export"
import { LockTable } from "./lock-table"
import { LockLeases } from "../../lib/runtime/lock-lease"
import { PaymentList } from "./payment-list"
import { PaymentOutbox } from "./payment-outbox"
import { PaymentEmails } from "./payment-emails"
import {
  channelServed,
  CustomerEmails,
  customerEmailsLine,
  NotificationOptions,
  parsePluginOptions,
} from "./plugin-options"
import { onOutboxRing } from "../../lib/runtime/outbox-bell"
import { ProcessRegistry } from "./process-registry"
import { bootCheck } from "./boot-check"
import { forgetCores } from "./core"
import { isOneShotCommand } from "./one-shot-command"
import { deploymentChecks } from "./setup-health"
import { ConfigLike, lockingOf, workerModeOf } from "../../lib/setup-health/configuration"
import { pluginLog } from "../../lib/runtime/log"

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

type ModuleDependencies = {
  logger: Logger
  __pg_connection__?: Knex
  configModule?: ConfigLike
  event_bus?: IEventBusModuleService
}

export type { CustomerEmails }

/** How long after an event is recorded its delivery starts (with whatever else was recorded meanwhile). */
const OUTBOX_BATCH_MS = 250

/** The locking module's acquire, which extends a lock its owner takes again. */
type SameOwnerAcquire = { acquire(keys: string[], args: { ownerId: string; expire: number }): Promise<void> }

/**
 * The plugin's module: its tables, the plugin's options, and what every serving process does at start
 * and shutdown. Each store below is one subject's SQL.
 */
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
  CryptoAcknowledgement,
}) {
  readonly ledger: Ledger
  /** The merchant policy saved from the admin, and its change log. */
  readonly settings: MerchantSettings
  readonly rates: RateStore
  /** What admins acknowledged on the setup health (a provider's API key state), with who and when. */
  readonly acknowledgements: Acknowledgements
  /** The events recorded with the ledger's transitions, and their delivery to Medusa's event bus. */
  readonly outbox: PaymentOutbox
  readonly emails: PaymentEmails
  /** Where owed coins go back: the customer's refund addresses, the payout, the link's expiry, the basis. */
  readonly refundAddresses: RefundAddresses
  /** The admin's list of the ledger: keyset pages with their filters, and the deprecated offset pages. */
  readonly paymentList: PaymentList
  /** The accounting export's reads: keyset batches of payments or owed records of a period. */
  readonly paymentExport: PaymentExport
  protected readonly deps_: ModuleDependencies
  protected readonly processes_: ProcessRegistry
  /** The plugin's locks this process holds, each renewed while its run lives (lib/runtime/lock-lease.ts). */
  readonly leases = new LockLeases()
  protected readonly lockTable_: LockTable
  protected readonly notifications_: NotificationOptions | undefined
  protected readonly retentionDays_: number
  protected readonly trustedProxyHops_: number
  protected stopListening_: (() => void) | undefined
  protected deliveryTimer_: NodeJS.Timeout | undefined
  /** Reconciliation is paused until then (the service answered 429 with Retry-After). */
  protected pausedUntil_ = 0

  /** `options`: the plugin's options (Medusa hands them to the plugin's modules); a bad one stops the boot. */
  constructor(container: ModuleDependencies, options?: unknown) {
    // eslint-disable-next-line prefer-rest-params
    super(...(arguments as unknown as [ModuleDependencies]))
    this.deps_ = container
    const { notifications, retentionDays, trustedProxyHops } = parsePluginOptions(options)
    this.notifications_ = notifications
    this.retentionDays_ = retentionDays
    this.trustedProxyHops_ = trustedProxyHops
    const db = () => this.db()
    this.ledger = new Ledger(db)
    this.settings = new MerchantSettings(db)
    this.rates = new RateStore(db)
    this.acknowledgements = new Acknowledgements(db)
    this.outbox = new PaymentOutbox(db, () => this.dependency("event_bus"), pluginLog(container.logger))
    this.emails = new PaymentEmails(db)
    this.refundAddresses = new RefundAddresses(db)
    this.paymentList = new PaymentList(db)
    this.paymentExport = new PaymentExport(db)
    this.lockTable_ = new LockTable(db)
    this.processes_ = new ProcessRegistry(db, () => ({
      workerMode: workerModeOf(this.config()),
      locking: lockingOf(this.config()).provider,
    }))
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
      // events recorded by this process go out shortly after they are committed; the job delivers the rest
      this.stopListening_ = onOutboxRing(() => this.deliverSoon())
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
      if (this.deliveryTimer_) clearTimeout(this.deliveryTimer_)
      this.leases.endAll()
      forgetCores()
      if (isOneShotCommand()) return
      await this.processes_.stop()
    },
  }

  /**
   * Delivers the outbox OUTBOX_BATCH_MS after the first ring: the request that recorded the events (a
   * checkout's session, a webhook's capture) answers first, and the events of concurrent ones go out in
   * one batch. A stop before then leaves them to the job: delivery is at least once either way.
   */
  protected deliverSoon(): void {
    if (this.deliveryTimer_) return
    this.deliveryTimer_ = setTimeout(() => {
      this.deliveryTimer_ = undefined
      void this.outbox.deliver()
    }, OUTBOX_BATCH_MS)
    this.deliveryTimer_.unref?.()
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

  retentionDays(): number {
    return this.retentionDays_
  }

  trustedProxyHops(): number {
    return this.trustedProxyHops_
  }

  /** Deletes delivered events and finished customer emails older than retentionDays, in bounded batches. */
  async pruneOld(): Promise<{ outbox: number; emails: number; days: number }> {
    const days = this.retentionDays_
    const outbox = await inBatches((limit) => this.outbox.deleteDelivered(days, limit))
    const emails = await inBatches((limit) => this.emails.deleteFinished(days, limit))
    return { outbox, emails, days }
  }

  /**
   * Deletes the plugin's and carts' locks among `keys` (all, when none are named) expired for more than
   * a grace period, in Postgres locking's table: a killed process's locks would otherwise hold for ever
   * (lock-table.ts). How many.
   */
  async clearExpiredLocks(keys?: string[]): Promise<number> {
    return this.lockTable_.clearExpired(keys)
  }

  /** Starts renewing keys `ownerId` has just taken for LEASE_SECONDS, until ended or `holdSeconds` have passed. */
  leaseLock(locking: SameOwnerAcquire, keys: string[], ownerId: string, holdSeconds: number) {
    return this.leases.start(keys, ownerId, (k, owner, seconds) => this.renewLock(locking, k, owner, seconds), {
      holdSeconds,
    })
  }

  /**
   * Extends a lease's keys, as their owner: Postgres locking's own refresh is not owner-checked, so
   * there it is one statement that is; Redis's and the in-memory provider's same-owner acquire is.
   */
  async renewLock(locking: SameOwnerAcquire, keys: string[], ownerId: string, seconds: number): Promise<boolean> {
    if (lockingOf(this.config()).kind === "postgres") {
      return (await this.lockTable_.extend(keys, ownerId, seconds)) === keys.length
    }
    // with `expire` always: Redis's same-owner acquire without one drops the key's TTL
    await locking.acquire(keys, { ownerId, expire: seconds })
    return true
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

  pauseReconciliation(until: number): void {
    this.pausedUntil_ = Math.max(this.pausedUntil_, until)
  }

  reconciliationPausedUntil(): number {
    return this.pausedUntil_
  }
}

export default CryptoPaymentModuleService
