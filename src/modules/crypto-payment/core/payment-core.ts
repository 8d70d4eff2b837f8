import type { Knex } from "knex"
import type { Logger } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { CryptoApiClient } from "../../../lib/crypto-api/client"
import { CryptoApiError } from "../../../lib/crypto-api/errors"
import { amountCurrenciesFor, type Coin } from "../../../lib/crypto-api/constants"
import { verifyLegacyRefundToken } from "../../../lib/domain/refund-link"
import { verifyWebhookToken } from "../../../lib/domain/webhook-token"
import { paymentIdOf } from "../../../lib/domain/notification-hint"
import { secretsKeyFrom, SECRETS_KEY_ENV } from "../../../lib/domain/secret-box"
import { ExpiringSet } from "../../../lib/runtime/expiring-set"
import { logs, pluginLog, type PluginLog } from "../../../lib/runtime/log"
import { providerChecks, webhookSecretCheck } from "../../../lib/setup-health/provider-checks"
import { ratesCheck } from "../../../lib/setup-health/rates-check"
import type { AcknowledgeableState } from "../../../lib/domain/acknowledgement"
import { Ledger, type LedgerRow } from "../ledger"
import { MerchantSettings } from "../merchant-settings"
import { RateStore } from "../rate-store"
import { SecretStore } from "../secret-store"
import { PaymentCreator } from "./creation"
import { ExchangeRates } from "./exchange-rates"
import { tryLedgerLogging, type TryLedger } from "./try-ledger"
import { sendsKeyInClear, type CryptoOptions } from "./options"
import { PaymentAssessor } from "./payment-assessor"
import { PolicyReads } from "./policy-reads"
import { rateFileFetcher } from "./rate-file-fetch"
import { ProviderSecrets } from "./secrets"
import { StatusReads } from "./status-reads"
import type {
  ApiKeyAnswer,
  BalancesAnswer,
  Freshness,
  HealthAnswer,
  PaymentReport,
  PolicyAnswer,
  RatesAnswer,
  RegionCurrency,
  RemainderAnswer,
  SecretsState,
} from "./types"

export type CryptoServiceClient = Pick<
  CryptoApiClient,
  "createInvoice" | "createPayment" | "getStatus" | "getBalances" | "getBalance" | "worstReadMs"
>

export type CoreSetup = {
  providerId: string
  options: CryptoOptions
  /** Without one nothing is stored. */
  db?: () => Knex
  logger: Logger
  /** Injectable; built from the options and `db` when absent. */
  client?: CryptoServiceClient
  ledger?: CoreLedger
  settings?: PolicySource
}

export type CoreLedger = Pick<
  Ledger,
  | "open"
  | "byPaymentId"
  | "forSession"
  | "latestOfSession"
  | "remainderOf"
  | "openOfSession"
  | "checkoutOf"
  | "recordRefund"
  | "keepRead"
  | "readSoon"
>

export type PolicySource = Pick<MerchantSettings, "savedPolicy">

/** Payment ids named by notifications that are not the shop's, remembered briefly: a flood of them costs one query each. */
const UNKNOWN_ID_MEMORY_MS = 60_000

/**
 * One provider registration's payments, built once per process (registry.ts). The provider adapts
 * Medusa's provider API onto it; routes, the job and workflows call it directly.
 */
export class PaymentCore {
  readonly providerId: string
  readonly options: CryptoOptions
  readonly log: PluginLog
  readonly client: CryptoServiceClient
  readonly ledger: CoreLedger
  readonly tryLedger: TryLedger
  readonly secrets: ProviderSecrets
  readonly rates: ExchangeRates
  readonly policies: PolicyReads
  readonly statusReads: StatusReads
  readonly assessor: PaymentAssessor
  readonly creator: PaymentCreator
  private readonly unknownIds = new ExpiringSet(UNKNOWN_ID_MEMORY_MS)

  constructor(setup: CoreSetup) {
    const { options, logger } = setup
    const db = setup.db ?? noDatabase
    this.providerId = setup.providerId
    this.options = options
    this.log = pluginLog(logger)
    this.tryLedger = tryLedgerLogging(this.log)
    this.client =
      setup.client ??
      new CryptoApiClient({
        baseUrl: options.baseUrl,
        apiKey: () => this.secrets.apiKey(),
        timeoutMs: options.requestTimeoutMs,
        // one line per call, formatted only when the shop logs at debug
        log: (line) => {
          if (logs(logger, "debug")) this.log.debug(line)
        },
      })
    this.ledger = setup.ledger ?? new Ledger(db)
    const settings = setup.settings ?? new MerchantSettings(db)
    this.secrets = new ProviderSecrets({
      options,
      // nothing is stored without a database
      providerId: () => (setup.db ? this.providerId : null),
      store: new SecretStore(db),
      secretsKey: secretsKey(),
      log: this.log,
    })
    const fileWaitMs = Math.min(options.requestTimeoutMs, 10_000)
    this.rates = new ExchangeRates({
      option: options.exchangeRates,
      store: new RateStore(db),
      fetchFile: rateFileFetcher(fileWaitMs),
      log: this.log,
      // a checkout is priced from a fresh stored rate or refused within a second; a slower fetch stores
      // for the next one
      checkoutWaitMs: 800,
    })
    this.policies = new PolicyReads(
      { underpaymentTolerancePercent: options.underpaymentTolerancePercent, latePayments: options.latePayments },
      (providerId) => settings.savedPolicy(providerId)
    )
    this.statusReads = new StatusReads({
      read: (paymentId) => this.client.getStatus(paymentId),
      keepRead: (paymentId, read) => this.ledger.keepRead(paymentId, read),
      onKeepFailed: (paymentId, error) =>
        this.log.warn(
          `could not keep the status of ${paymentId} in the ledger (${(error as Error)?.message}); it will be read again`
        ),
      cacheSeconds: options.statusCacheSeconds,
    })
    this.assessor = new PaymentAssessor(this)
    this.creator = new PaymentCreator(this)
    if (sendsKeyInClear(options.baseUrl))
      this.log.warn(
        "baseUrl starts with http://, so the API key travels unencrypted to the payment service. Use https:// unless a local proxy adds TLS."
      )
    if (!options.backendUrl)
      this.log.warn(
        "backendUrl is not set, so the payment service cannot notify this store; crypto payments are picked up by reconciliation only."
      )
  }

  async report(paymentId: string, freshness: Freshness): Promise<PaymentReport | null> {
    const row = await this.row(paymentId)
    return row ? this.assessor.report(row, freshness) : null
  }

  /** The admin asks for the remainder of a short payment that expired; null when it is not in the ledger. */
  async remainder(paymentId: string): Promise<RemainderAnswer | null> {
    const row = await this.row(paymentId)
    return row ? this.creator.requestRemainder(row) : null
  }

  async balances(currency?: Coin): Promise<BalancesAnswer> {
    return currency ? { balance: await this.client.getBalance(currency) } : { summary: await this.client.getBalances() }
  }

  /** The policy of the options, the one in force (a saved setting, else the option); `refresh` drops the process's cache. */
  async policy(refresh = false): Promise<PolicyAnswer> {
    if (refresh) this.policies.forget(this.providerId)
    const effective = await this.tryLedger(
      () => this.policies.policy(this.providerId),
      "read the crypto payment settings"
    )
    return { defaults: this.policies.optionDefaults, effective, lateWindowHours: this.options.lateWindowHours }
  }

  async health(regions: RegionCurrency[]): Promise<HealthAnswer> {
    const { providerId, options, client } = this
    const [checks, rates, secrets] = await Promise.all([
      providerChecks({ providerId, ...options, client }),
      this.ratesFor(regions),
      this.secrets.state(),
    ])
    checks.push(ratesCheck({ providerId, mode: options.mode, regions, rates }), webhookSecretCheck(providerId, secrets))
    return { checks }
  }

  /** The exchange rates: "state" (the policy panel, the health), "refresh" (the job: fetch when due). */
  async exchangeRates(action: "state" | "refresh"): Promise<RatesAnswer> {
    if (action === "refresh") await this.rates.refresh()
    return { rates: await this.rates.state() }
  }

  /** Whether `token` is a refund link emailed before links had secrets (an HMAC under this provider's webhook key). */
  async legacyRefundLinkOpens(owedId: string, token: string): Promise<boolean> {
    return verifyLegacyRefundToken(token, owedId, await this.secrets.verifyingKeys())
  }

  /** Where the API key and the webhook secret come from (never a value). */
  async secretsState(): Promise<SecretsState> {
    return this.tryLedger(() => this.secrets.state(), "read the stored secrets")
  }

  /**
   * Which API key is in use and medusa-config's (fingerprints and last fours, never a key): what the setup
   * health compares with the state an admin last acknowledged.
   */
  async apiKeyState(): Promise<AcknowledgeableState> {
    return this.tryLedger(() => this.secrets.keyState(), "read the stored secrets")
  }

  /**
   * Saves an API key from the admin once the last four typed are the key in use's and a balances read with
   * it succeeds; `byAdmin`: an admin signed in to the dashboard saves it, which acknowledges it on the health.
   */
  async saveApiKey(change: {
    apiKey: string
    currentLastFour: string | null
    actorId: string | null
    byAdmin?: boolean
  }): Promise<ApiKeyAnswer> {
    return this.secrets.saveApiKey(change, (candidate) => this.checkApiKey(candidate))
  }

  /**
   * The service called the URL it was given for a session: the token verified (UNAUTHORIZED when it is
   * not this provider's), then the payment it is about read. Null: a good token naming no payment of the shop.
   */
  async notified(token: string, body: unknown): Promise<PaymentReport | null> {
    const sessionId = verifyWebhookToken(token, await this.secrets.verifyingKeys())
    if (!sessionId) throw new MedusaError(MedusaError.Types.UNAUTHORIZED, "Invalid webhook token.")
    const named = paymentIdOf(body)
    const row = await this.tryLedger(async () => {
      const hinted = named ? await this.ledger.byPaymentId(named) : undefined
      return hinted?.session_id === sessionId ? hinted : this.ledger.latestOfSession(sessionId)
    }, "read the crypto payment ledger")
    if (!row) return null
    // the session's older payments (replaced by a new amount) may be what the notification is about
    await this.tryLedger(
      async () =>
        this.ledger.readSoon(
          await this.ledger.openOfSession(sessionId, row.payment_id),
          this.options.reconcileIntervalSeconds
        ),
      "read the crypto payment ledger"
    )
    return this.assessor.report(row, "webhook")
  }

  /**
   * A body that reached Medusa's generic /hooks/payment route is a hint only: a payment of the ledger it
   * names is read by the job at its next tick; anything else costs nothing.
   */
  async hinted(body: unknown): Promise<void> {
    const paymentId = paymentIdOf(body)
    if (!paymentId || this.unknownIds.has(paymentId)) return
    const row = await this.row(paymentId)
    if (!row) {
      this.unknownIds.add(paymentId)
      return
    }
    await this.tryLedger(
      () => this.ledger.readSoon([paymentId], this.options.reconcileIntervalSeconds),
      "read the crypto payment ledger"
    )
    this.log.debug(`notification for ${paymentId} on /hooks/payment; reconciliation reads it soon`)
  }

  private row(paymentId: string): Promise<LedgerRow | undefined> {
    return this.tryLedger(() => this.ledger.byPaymentId(paymentId), "read the crypto payment ledger")
  }

  /** The rates as the health shows them: fetched first when a region's currency needs one and none is fresh. */
  private async ratesFor(regions: Array<{ currency: string }>) {
    const taken = amountCurrenciesFor(this.options.mode)
    const wanted = regions.some((r) => !taken.includes(r.currency.toUpperCase()))
    const state = await this.rates.state()
    if (!wanted || state.fresh !== false) return state
    await this.rates.refresh(true)
    return this.rates.state()
  }

  /** A balances read with a candidate API key, before it is saved: refused or unreachable, nothing is saved. */
  private async checkApiKey(apiKey: string): Promise<void> {
    const client = new CryptoApiClient({
      baseUrl: this.options.baseUrl,
      apiKey,
      timeoutMs: Math.min(this.options.requestTimeoutMs, 10_000),
      retry: { retries: 0 },
    })
    try {
      await client.getBalances()
    } catch (error) {
      const apiError = CryptoApiError.from(error)
      if (apiError?.kind === "http" && (apiError.status === 401 || apiError.status === 403))
        throw new MedusaError(
          MedusaError.Types.INVALID_DATA,
          `The payment service refused this API key (HTTP ${apiError.status}), so it was not saved: copy it again from the service's dashboard.`
        )
      throw new MedusaError(
        MedusaError.Types.UNEXPECTED_STATE,
        `Could not check the API key with the payment service (${apiError?.message ?? "an unexpected error"}), so it was not saved: try again.`
      )
    }
  }
}

function noDatabase(): never {
  throw new MedusaError(
    MedusaError.Types.UNEXPECTED_STATE,
    "medusa-payment-crypto: no database connection for the crypto payment ledger."
  )
}

/** CRYPTO_SECRETS_KEY, checked: a bad one stops the boot naming it (never its value). */
export function secretsKey() {
  try {
    return secretsKeyFrom(process.env[SECRETS_KEY_ENV])
  } catch (error) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `medusa-payment-crypto: ${(error as Error).message}`)
  }
}
