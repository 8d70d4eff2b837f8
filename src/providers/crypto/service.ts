import { AbstractPaymentProvider, MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import type {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  CancelPaymentInput,
  CancelPaymentOutput,
  CapturePaymentInput,
  CapturePaymentOutput,
  DeletePaymentInput,
  DeletePaymentOutput,
  GetPaymentStatusInput,
  GetPaymentStatusOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
  Logger,
  ProviderWebhookPayload,
  RefundPaymentInput,
  RefundPaymentOutput,
  RetrievePaymentInput,
  RetrievePaymentOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
  WebhookActionResult,
} from "@medusajs/framework/types"
import type { Knex } from "knex"
import { CryptoApiClient } from "../../lib/crypto-api/client"
import { CryptoApiError } from "../../lib/crypto-api/errors"
import { COINS, isCoin } from "../../lib/crypto-api/constants"
import { PaymentAssessment, publicProgress, sessionStatusFor } from "../../lib/domain/payment-assessment"
import { storeAmount } from "../../lib/domain/money"
import { secretsKeyFrom, SECRETS_KEY_ENV } from "../../lib/domain/secret-box"
import { ProviderSecrets } from "./secrets"
import { SecretStore } from "../../modules/crypto-payment/secret-store"
import { PolicyReads } from "./policy-reads"
import type { LedgerRow } from "../../modules/crypto-payment/types"
import { CryptoOptions, parseCryptoOptions, sendsKeyInClear } from "./options"
import { requiredSessionId, sessionIdOf, storefrontInputSchema } from "./session-data"
import { ProviderQueries, ProviderQueryCalls } from "../../modules/crypto-payment/provider-queries"
import { refundOwedOf } from "./refund"
import { noPaymentError, toMedusaError } from "./errors"
import { LedgerCall, ledgerCallLogging } from "./ledger-call"
import { cryptoError } from "../../lib/domain/customer-errors"
import { logs, PluginLog, pluginLog } from "../../lib/runtime/log"
import { StatusReads } from "./status-reads"
import { PaymentJudge } from "./payment-judge"
import { PaymentCreator } from "./creation"
import { ProviderOperations } from "./operations"
import { ExchangeRates } from "./exchange-rates"
import { RateStore } from "../../modules/crypto-payment/rate-store"
import { rateFileFetcher } from "./rate-file-fetch"

/** The calls the provider makes to the crypto payment service. */
export type CryptoServiceClient = Pick<
  CryptoApiClient,
  "createInvoice" | "createPayment" | "getStatus" | "getBalances" | "getBalance" | "worstReadMs"
>

type InjectedDependencies = {
  logger: Logger
  /** The shared database connection every module receives (modules/crypto-payment/provider-queries.ts says why the provider uses it). */
  __pg_connection__?: Knex
  /** Unit tests hand in a fake service and ledger; Medusa registers neither, so the options build the real ones. */
  cryptoClient?: CryptoServiceClient
  cryptoProviderQueries?: ProviderQueryCalls
  /** The payment module's provider keys (pp_system_default, pp_crypto_crypto …): how the provider finds its own id. */
  payment_providers?: string[]
}

/** A dependency, or undefined when none is registered: Medusa's container throws when asked for an unknown key. */
function registered<K extends keyof InjectedDependencies>(
  container: InjectedDependencies,
  key: K
): InjectedDependencies[K] | undefined {
  return Object.prototype.hasOwnProperty.call(container, key) ? container[key] : undefined
}

/** A coin name from the storefront, safe to repeat in a message. */
function shown(value: unknown): string {
  return typeof value === "string" && /^[A-Za-z0-9_]{1,24}$/.test(value) ? `"${value}"` : "the coin given"
}

/**
 * The crypto payment provider (pp_crypto_crypto): a session is an invoice (the customer picks a
 * coin on the hosted page) or a single-coin payment (address and QR in the storefront). Every
 * invoice or payment it creates is written to the ledger at once; its status always comes from
 * the service's status endpoint, judged against what the ledger says was agreed.
 */
class CryptoPaymentProviderService extends AbstractPaymentProvider<CryptoOptions> {
  static identifier = "crypto"

  protected readonly options_: CryptoOptions
  protected readonly log_: PluginLog
  protected readonly client_: CryptoServiceClient
  /** The API key and webhook keys in force (a key saved from the admin, a generated webhook secret, older accepted ones). */
  protected readonly secrets_: ProviderSecrets
  protected readonly ledger_: ProviderQueryCalls
  protected readonly statusReads_: StatusReads
  protected readonly policies_: PolicyReads
  /** A ledger read or write; a failure becomes a MedusaError saying what could not be done. */
  protected readonly ledgerCall: LedgerCall
  /** Judging a payment: its status read with the merchant policy, against what the ledger says was agreed. */
  protected readonly judge_: PaymentJudge
  /** Creating invoices, payments and remainders at the service, and their ledger rows. */
  protected readonly creator_: PaymentCreator
  /** The answers to getWebhookActionAndData. */
  protected readonly operations_: ProviderOperations
  /** Prices store currencies the service does not take (EUR, GBP, JPY …) in USD. */
  protected readonly rates_: ExchangeRates

  static validateOptions(options: Record<string, unknown>): void {
    parseCryptoOptions(options)
    secretsKey()
  }

  constructor(container: InjectedDependencies, options: Record<string, unknown>) {
    super(container as unknown as Record<string, unknown>, options as CryptoOptions)
    this.options_ = parseCryptoOptions(options)
    this.log_ = pluginLog(container.logger)
    this.ledgerCall = ledgerCallLogging(this.log_)
    this.client_ =
      registered(container, "cryptoClient") ??
      new CryptoApiClient({
        baseUrl: this.options_.baseUrl,
        apiKey: () => this.secrets_.apiKey(),
        timeoutMs: this.options_.requestTimeoutMs,
        // one line per call, formatted only when the shop logs at debug
        log: (line) => {
          if (logs(container.logger, "debug")) this.log_.debug(line)
        },
      })
    // resolved on first use: the container hands out the connection once the app has it
    const db = () => {
      const connection = registered(container, "__pg_connection__")
      if (!connection)
        throw new MedusaError(
          MedusaError.Types.UNEXPECTED_STATE,
          "medusa-payment-crypto: no database connection for the crypto payment ledger."
        )
      return connection
    }
    this.ledger_ = registered(container, "cryptoProviderQueries") ?? new ProviderQueries(db)
    this.secrets_ = new ProviderSecrets({
      options: this.options_,
      providerId: () => (registered(container, "__pg_connection__") ? this.ownId(container) : null),
      store: new SecretStore(db),
      secretsKey: secretsKey(),
      log: this.log_,
    })
    this.rates_ = new ExchangeRates({
      option: this.options_.exchangeRates,
      store: new RateStore(db),
      fetchFile: rateFileFetcher(Math.min(this.options_.requestTimeoutMs, 10_000)),
      log: this.log_,
      fetchWaitMs: Math.min(this.options_.requestTimeoutMs, 10_000) + 2_000,
    })
    this.policies_ = new PolicyReads(
      {
        underpaymentTolerancePercent: this.options_.underpaymentTolerancePercent,
        latePayments: this.options_.latePayments,
      },
      (providerId) => this.ledger_.savedPolicy(providerId)
    )
    this.statusReads_ = new StatusReads({
      read: (paymentId) => this.client_.getStatus(paymentId),
      keepRead: (paymentId, read) => this.ledger_.keepRead(paymentId, read),
      onKeepFailed: (paymentId, error) =>
        this.log_.warn(
          `could not keep the status of ${paymentId} in the ledger (${(error as Error)?.message}); it will be read again`
        ),
      cacheSeconds: this.options_.statusCacheSeconds,
    })
    // what the collaborators share; each one's type takes only the part it uses
    const shared = {
      options: this.options_,
      client: this.client_,
      ledger: this.ledger_,
      log: this.log_,
      secrets: this.secrets_,
      policies: this.policies_,
      statusReads: this.statusReads_,
      ledgerCall: this.ledgerCall,
      rates: this.rates_,
    }
    this.judge_ = new PaymentJudge(shared)
    this.creator_ = new PaymentCreator({ ...shared, judge: this.judge_ })
    this.operations_ = new ProviderOperations({
      ...shared,
      judge: this.judge_,
      creator: this.creator_,
      checkClient: (apiKey) =>
        new CryptoApiClient({
          baseUrl: this.options_.baseUrl,
          apiKey,
          timeoutMs: Math.min(this.options_.requestTimeoutMs, 10_000),
          retry: { retries: 0 },
        }),
    })
    if (sendsKeyInClear(this.options_.baseUrl)) {
      this.log_.warn(
        "baseUrl starts with http://, so the API key travels unencrypted to the payment service. Use https:// unless a local proxy adds TLS."
      )
    }
    if (!this.options_.backendUrl) {
      this.log_.warn(
        "backendUrl is not set, so the payment service cannot notify this store; crypto payments are picked up by reconciliation only."
      )
    }
  }

  // ---- checkout -------------------------------------------------------------------------------

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const sessionId = (input.data?.session_id as string | undefined) ?? input.context?.idempotency_key
    if (!sessionId) {
      throw cryptoError(MedusaError.Types.INVALID_DATA, "crypto.no_session")
    }
    const requested = storefrontInputSchema.safeParse(input.data ?? {})
    const askedCoin = requested.success ? (requested.data.currency ?? undefined) : undefined
    if (askedCoin !== undefined && !isCoin(askedCoin)) {
      throw cryptoError(MedusaError.Types.INVALID_DATA, "crypto.unknown_coin", {
        coin: shown(askedCoin),
        coins: COINS.join(", "),
      })
    }
    const coin = askedCoin ?? (this.options_.mode === "payment" ? this.options_.defaultCoin : undefined)
    if (this.options_.mode === "payment" && !coin) {
      throw cryptoError(MedusaError.Types.INVALID_DATA, "crypto.coin_required", { coins: COINS.join(", ") })
    }
    const data = await this.creator_.createAtService(sessionId, input.amount, input.currency_code, coin, input.data)
    return { id: data.paymentId, status: PaymentSessionStatus.PENDING, data }
  }

  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const sessionId = requiredSessionId(input.data)
    const current = await this.ledgerCall(() => this.ledger_.latestOfSession(sessionId), "update the crypto payment")
    if (!current) throw noPaymentError()
    // a remainder asks only the rest: the session's amount is the one its short payment agreed
    const terms =
      (current.remainder_of
        ? await this.ledgerCall(() => this.ledger_.byPaymentId(current.remainder_of!), "update the crypto payment")
        : undefined) ?? current
    // the store amount and currency are compared, never a re-priced one: Medusa calls this with the
    // same amount when a session is closed or reopened, and a converted price must not move then
    const currency = String(input.currency_code).trim().toUpperCase()
    const amount = storeAmount(input.amount, currency)
    if (amount === terms.base_amount && currency === terms.base_currency.trim().toUpperCase()) {
      return { data: input.data ?? {} }
    }
    // The amount changed: the old invoice/payment stays in the ledger (the customer may still pay
    // it) and a new one asks for the new amount, in the same coin for a payment.
    this.log_.info(
      `session ${sessionId} changed from ${current.base_amount} ${current.base_currency} to ${amount} ${currency}; ${current.payment_id} replaced by a new ${current.kind}`
    )
    const coin = current.kind === "payment" && isCoin(current.coin) ? current.coin : undefined
    const data = await this.creator_.createAtService(sessionId, input.amount, input.currency_code, coin)
    return { status: PaymentSessionStatus.PENDING, data }
  }

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    let judged: { row: LedgerRow; assessment: PaymentAssessment }
    try {
      judged = await this.judge_.judgeSession(input.data, "final")
    } catch (error) {
      if (error instanceof CryptoApiError && error.transient && this.options_.placeOrder === "before_payment") {
        // Indeterminate: the order waits for payment; the webhook or reconciliation decides.
        this.log_.warn(
          `status of session ${sessionIdOf(input.data)} unknown at checkout (${error.message}); order placed awaiting payment`
        )
        return { status: PaymentSessionStatus.PENDING_AUTHORIZATION, data: input.data ?? {} }
      }
      throw toMedusaError(error, "confirm the crypto payment")
    }
    const { row, assessment } = judged
    const data = this.withProgress(input.data, assessment)
    const status = sessionStatusFor(assessment.outcome, this.options_.placeOrder) as PaymentSessionStatus
    switch (assessment.outcome) {
      case "paid":
        return { status, data }
      case "expired":
        throw cryptoError(MedusaError.Types.NOT_ALLOWED, "crypto.payment_expired")
      case "failed":
        throw cryptoError(MedusaError.Types.NOT_ALLOWED, "crypto.payment_failed")
      case "mismatch":
      case "pending":
        if (assessment.outcome === "mismatch") {
          // Never paid as it stands: treated as still open, and said so in the log.
          this.log_.warn(`${row.payment_id} not accepted as paid: ${assessment.reason}`)
        }
        // before_payment: the order is placed awaiting payment; after_payment: completion waits, and says why
        if (status === PaymentSessionStatus.PENDING_AUTHORIZATION) {
          return { status, data }
        }
        throw this.notYetPaidError(assessment)
    }
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const { assessment } = await this.judge_.judgeSessionOrExplain(
      input.data,
      "shared",
      "read the crypto payment's status"
    )
    return {
      status: sessionStatusFor(assessment.outcome, this.options_.placeOrder) as PaymentSessionStatus,
      data: this.withProgress(input.data, assessment),
    }
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    const { assessment } = await this.judge_.judgeSessionOrExplain(input.data, "shared", "read the crypto payment")
    return { data: this.withProgress(input.data, assessment) }
  }

  /** Funds arrive on chain by themselves: capture only confirms that the service reports them complete. */
  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    const { assessment } = await this.judge_.judgeSessionOrExplain(input.data, "final", "capture the crypto payment")
    if (assessment.outcome !== "paid") {
      throw cryptoError(MedusaError.Types.NOT_ALLOWED, "crypto.payment_not_capturable", {
        status: assessment.status,
        reason: assessment.reason ? ` (${assessment.reason})` : "",
      })
    }
    return { data: this.withProgress(input.data, assessment) }
  }

  /** Nothing to cancel at the service (an unpaid invoice simply expires); local and idempotent. */
  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    return { data: input.data ?? {} }
  }

  /** Local and idempotent, whatever the session holds (or lacks); the ledger keeps the payment. */
  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    return { data: input.data ?? {} }
  }

  /**
   * The service has no refund API, so nothing is sent from here. With `refunds: "manual"` Medusa's
   * refund is recorded (as with Medusa's manual provider) and the ledger shows the coins owed until
   * an admin marks them sent from the service's dashboard; with "disabled" the refund is refused.
   */
  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    if (this.options_.refunds === "disabled") {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        "Crypto payments cannot be refunded through Medusa: the crypto payment service has no refund API. Send the refund from the service's dashboard, then record it on the order."
      )
    }
    const sessionId = requiredSessionId(input.data)
    const owed = await this.ledgerCall(
      () =>
        this.ledger_.recordRefund(sessionId, (checkout) =>
          refundOwedOf(checkout, input.amount, input.context?.idempotency_key)
        ),
      "record the crypto refund"
    )
    if (!owed) throw noPaymentError()
    this.log_.warn(
      `refund of ${owed.base_amount} ${owed.base_currency} recorded for payment ${owed.payment_id}: send ${owed.coin_amount ?? "the equivalent"} ${owed.coin ?? "in crypto"} from the service's dashboard, then mark it sent in the admin`
    )
    return { data: input.data ?? {} }
  }

  // ---- webhooks and reconciliation -------------------------------------------------------------

  /** Answered by ProviderOperations: the door's operations (lib/provider-door), and Medusa's /hooks/payment route (a hint only). */
  async getWebhookActionAndData(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    return this.operations_.actionFor(payload)
  }

  // ---- helpers --------------------------------------------------------------------------------

  private ownId_?: string | null

  /**
   * This provider's id (pp_crypto_<id>): Medusa registers each provider under it but does not hand it
   * over, so it is found once among the payment module's providers as the one that is this instance.
   */
  protected ownId(container: InjectedDependencies): string | null {
    if (this.ownId_ !== undefined) return this.ownId_
    const keys = registered(container, "payment_providers") ?? []
    const cradle = container as unknown as Record<string, unknown>
    this.ownId_ = keys.find((key) => key.startsWith("pp_crypto") && cradle[key] === this) ?? null
    return this.ownId_
  }

  protected withProgress(
    data: Record<string, unknown> | undefined,
    assessment: PaymentAssessment
  ): Record<string, unknown> {
    return { ...data, ...publicProgress(assessment) }
  }

  /** Completing the cart before the payment is confirmed (placeOrder after_payment): what is still awaited. */
  protected notYetPaidError(a: PaymentAssessment): MedusaError {
    const { NOT_ALLOWED } = MedusaError.Types
    if (!a.coin) return cryptoError(NOT_ALLOWED, "crypto.payment_not_received")
    if (a.underpaid) {
      return cryptoError(NOT_ALLOWED, "crypto.payment_partly_received", {
        received: a.received,
        required: a.required ?? "",
        coin: a.coin,
      })
    }
    return cryptoError(NOT_ALLOWED, "crypto.payment_unconfirmed", {
      confirmations: a.confirmations,
      requiredConfirmations: a.requiredConfirmations ?? "",
    })
  }
}

/** CRYPTO_SECRETS_KEY, checked: a bad one stops the boot naming it (never its value). */
function secretsKey() {
  try {
    return secretsKeyFrom(process.env[SECRETS_KEY_ENV])
  } catch (error) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `medusa-payment-crypto: ${(error as Error).message}`)
  }
}

export default CryptoPaymentProviderService
