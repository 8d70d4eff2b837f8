import { AbstractPaymentProvider, MedusaError, PaymentActions, PaymentSessionStatus } from "@medusajs/framework/utils"
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
import {
  AmountCurrency,
  Coin,
  COINS,
  EXPIRATION_MINUTES,
  INVOICE_AMOUNT_CURRENCIES,
  isCoin,
  PAYMENT_AMOUNT_CURRENCIES,
} from "../../lib/crypto-api/constants"
import { numberToDecimalString } from "../../lib/decimal"
import {
  assessPayment,
  expectationOf,
  PaymentAssessment,
  publicProgress,
  sessionStatusFor,
} from "../../lib/payment-decision"
import { coinAmountText, serviceAmount, toAmountCurrency } from "../../lib/money"
import { baseFor, coinsBeyond, isZero, rateOf } from "../../lib/owed"
import { signWebhookToken, verifyWebhookToken, webhookSigningKey, webhookUrl } from "../../lib/webhook-token"
import {
  assessmentResult,
  balancesResult,
  Freshness,
  HealthAnswer,
  notAPaymentResult,
  PolicyAnswer,
  readInternalRequest,
  ReconcilePolicy,
  remainderResult,
} from "../../lib/internal-request"
import { providerChecks } from "../../lib/setup-health/provider-checks"
import { PolicyReads } from "./policy-reads"
import { ExpiringSet } from "../../lib/expiring-set"
import type { LedgerRow } from "../../modules/crypto-payment/types"
import { CryptoOptions, parseCryptoOptions, sendsKeyInClear } from "./options"
import { CryptoSessionData, sessionIdOf, storefrontInputSchema } from "./session-data"
import { OpenedPayment, ProviderLedger, ProviderLedgerCalls } from "./ledger"
import { refundOwedOf } from "./refund"
import { toMedusaError } from "./errors"
import { PluginLog, pluginLog } from "../../lib/log"
import { StatusReads } from "./status-reads"

/** The calls the provider makes to the crypto payment service. */
export type CryptoServiceClient = Pick<
  CryptoApiClient,
  "createInvoice" | "createPayment" | "getStatus" | "getBalances" | "getBalance" | "worstReadMs"
>

type InjectedDependencies = {
  logger: Logger
  /** The shared database connection every module receives (see ledger.ts for why the provider uses it). */
  __pg_connection__?: Knex
  /** Unit tests hand in a fake service and ledger; Medusa registers neither, so the options build the real ones. */
  cryptoClient?: CryptoServiceClient
  cryptoLedger?: ProviderLedgerCalls
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

/** Payment ids named by notifications that are not the shop's, remembered briefly: a flood of them costs one query each. */
const UNKNOWN_ID_MEMORY_MS = 60_000

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
  protected readonly signingKey_: Buffer
  protected readonly ledger_: ProviderLedgerCalls
  protected readonly unknownIds_ = new ExpiringSet(UNKNOWN_ID_MEMORY_MS)
  protected readonly statusReads_: StatusReads
  protected readonly policies_: PolicyReads

  static validateOptions(options: Record<string, unknown>): void {
    parseCryptoOptions(options)
  }

  constructor(container: InjectedDependencies, options: Record<string, unknown>) {
    super(container as unknown as Record<string, unknown>, options as CryptoOptions)
    this.options_ = parseCryptoOptions(options)
    this.log_ = pluginLog(container.logger)
    this.signingKey_ = webhookSigningKey(this.options_)
    this.client_ =
      registered(container, "cryptoClient") ??
      new CryptoApiClient({
        baseUrl: this.options_.baseUrl,
        apiKey: this.options_.apiKey,
        timeoutMs: this.options_.requestTimeoutMs,
        log: (line) => this.log_.debug(line),
      })
    // resolved on first use: the container hands out the connection once the app has it
    this.ledger_ =
      registered(container, "cryptoLedger") ??
      new ProviderLedger(() => {
        const db = registered(container, "__pg_connection__")
        if (!db)
          throw new MedusaError(
            MedusaError.Types.UNEXPECTED_STATE,
            "medusa-payment-crypto: no database connection for the crypto payment ledger."
          )
        return db
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
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "A crypto payment needs a payment session id.")
    }
    const requested = storefrontInputSchema.safeParse(input.data ?? {})
    const askedCoin = requested.success ? (requested.data.currency ?? undefined) : undefined
    if (askedCoin !== undefined && !isCoin(askedCoin)) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `Unknown coin ${shown(askedCoin)}: choose one of ${COINS.join(", ")}.`
      )
    }
    const coin = askedCoin ?? (this.options_.mode === "payment" ? this.options_.defaultCoin : undefined)
    if (this.options_.mode === "payment" && !coin) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `Choose the coin to pay with: pass data.currency, one of ${COINS.join(", ")}.`
      )
    }
    const data = await this.createAtService(sessionId, input.amount, input.currency_code, coin)
    return { id: data.paymentId, status: PaymentSessionStatus.PENDING, data }
  }

  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const sessionId = this.sessionIdOf(input.data)
    const current = await this.ledgerCall(() => this.ledger_.latestOfSession(sessionId), "update the crypto payment")
    if (!current) throw this.noPayment()
    // a remainder asks only the rest: the session's amount is the one its short payment agreed
    const terms =
      (current.remainder_of
        ? await this.ledgerCall(() => this.ledger_.byPaymentId(current.remainder_of!), "update the crypto payment")
        : undefined) ?? current
    const amountCurrency = this.amountCurrencyFor(input.currency_code, terms.kind)
    const amount = serviceAmount(input.amount, amountCurrency)
    if (amount.text === terms.base_amount && amountCurrency === terms.base_currency) {
      return { data: input.data ?? {} }
    }
    // The amount changed: the old invoice/payment stays in the ledger (the customer may still pay
    // it) and a new one asks for the new amount, in the same coin for a payment.
    this.log_.info(
      `session ${sessionId} changed from ${current.base_amount} to ${amount.text} ${amountCurrency}; ${current.payment_id} replaced by a new ${current.kind}`
    )
    const coin = current.kind === "payment" && isCoin(current.coin) ? current.coin : undefined
    const data = await this.createAtService(sessionId, input.amount, input.currency_code, coin)
    return { status: PaymentSessionStatus.PENDING, data }
  }

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    let assessed: { row: LedgerRow; assessment: PaymentAssessment }
    try {
      assessed = await this.assessSession(input.data, "final")
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
    const { row, assessment } = assessed
    const data = this.withProgress(input.data, assessment)
    const status = sessionStatusFor(assessment.outcome, this.options_.placeOrder) as PaymentSessionStatus
    switch (assessment.outcome) {
      case "paid":
        return { status, data }
      case "expired":
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          "This crypto payment expired before the full amount arrived. Please start a new payment."
        )
      case "failed":
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          "This crypto payment failed at the payment service. Please start a new payment."
        )
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
        throw new MedusaError(MedusaError.Types.NOT_ALLOWED, this.notYetPaidMessage(assessment))
    }
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const { assessment } = await this.assessSessionOrExplain(input.data, "shared", "read the crypto payment's status")
    return {
      status: sessionStatusFor(assessment.outcome, this.options_.placeOrder) as PaymentSessionStatus,
      data: this.withProgress(input.data, assessment),
    }
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    const { assessment } = await this.assessSessionOrExplain(input.data, "shared", "read the crypto payment")
    return { data: this.withProgress(input.data, assessment) }
  }

  /** Funds arrive on chain by themselves: capture only confirms that the service reports them complete. */
  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    const { assessment } = await this.assessSessionOrExplain(input.data, "final", "capture the crypto payment")
    if (assessment.outcome !== "paid") {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `The crypto payment cannot be captured: the service reports it ${assessment.status}${assessment.reason ? ` (${assessment.reason})` : ""}.`
      )
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
    const sessionId = this.sessionIdOf(input.data)
    const row = await this.ledgerCall(() => this.ledger_.forSession(sessionId), "record the crypto refund")
    if (!row) throw this.noPayment()
    const owed = refundOwedOf(row, input.amount, input.context?.idempotency_key)
    await this.ledgerCall(() => this.ledger_.recordRefund(owed), "record the crypto refund")
    this.log_.warn(
      `refund of ${owed.base_amount} ${owed.base_currency} recorded for payment ${row.payment_id}: send ${owed.coin_amount ?? "the equivalent"} ${owed.coin ?? "in crypto"} from the service's dashboard, then mark it sent in the admin`
    )
    return { data: input.data ?? {} }
  }

  /**
   * Two callers, told apart as Medusa's own providers tell webhooks apart:
   * - the plugin's webhook route, job, workflow and admin: symbol-branded requests ("this token's
   *   notification", "assess this ledger payment", "the balances") that no HTTP request can pose as;
   * - Medusa's /hooks/payment/crypto_crypto route, whose body (and headers) are only a hint: a
   *   payment of the ledger it names is read by reconciliation at its next tick, no sooner than a
   *   reconcile interval after its last read (which applies the same decision as every other path);
   *   anything else costs nothing, and the answer never makes core capture.
   */
  async getWebhookActionAndData(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    const internal = readInternalRequest(payload?.data)
    switch (internal?.op) {
      case "balances":
        return balancesResult(
          internal.currency
            ? { balance: await this.client_.getBalance(internal.currency) }
            : { summary: await this.client_.getBalances() }
        )
      case "assess": {
        const row = await this.ledgerCall(
          () => this.ledger_.byPaymentId(internal.paymentId),
          "read the crypto payment ledger"
        )
        if (!row) return { action: PaymentActions.NOT_SUPPORTED }
        return this.assessmentAnswer(row, internal.freshness)
      }
      case "webhook":
        return this.answerTokenWebhook(internal.token, internal.body)
      case "policy": {
        if (internal.refresh) this.policies_.forget(internal.providerId)
        const effective = await this.ledgerCall(
          () => this.policies_.policy(internal.providerId),
          "read the crypto payment settings"
        )
        return notAPaymentResult("policy", {
          defaults: this.policies_.optionDefaults,
          effective,
          lateWindowHours: this.options_.lateWindowHours,
        } satisfies PolicyAnswer)
      }
      case "health":
        return notAPaymentResult("health", {
          checks: await providerChecks({ providerId: internal.providerId, ...this.options_, client: this.client_ }),
        } satisfies HealthAnswer)
      case "remainder": {
        const row = await this.ledgerCall(
          () => this.ledger_.byPaymentId(internal.paymentId),
          "read the crypto payment ledger"
        )
        if (!row) return { action: PaymentActions.NOT_SUPPORTED }
        return this.requestRemainder(row)
      }
      default:
        return this.answerPublicWebhook(payload?.data)
    }
  }

  // ---- webhooks and reconciliation -------------------------------------------------------------

  protected async policyFor(row: LedgerRow): Promise<ReconcilePolicy> {
    const merchant = await this.policies_.policy(row.provider_id)
    return {
      ...merchant,
      reconcileIntervalSeconds: this.options_.reconcileIntervalSeconds,
      reconcileBatchSize: this.options_.reconcileBatchSize,
      lateWindowHours: this.options_.lateWindowHours,
      // at worst a capture reads the status twice (authorize, capture: when the ledger holds no final read);
      // a minute for the database work
      lockSeconds: Math.ceil((2 * this.client_.worstReadMs) / 1000) + 60,
      quoteDriftAlertPercent: this.options_.quoteDriftAlertPercent,
    }
  }

  /** The payment's status judged against the ledger; a payment the service does not know (404) is answered without one. */
  protected async assessmentAnswer(row: LedgerRow, freshness: Freshness): Promise<WebhookActionResult> {
    const answer = {
      paymentId: row.payment_id,
      sessionId: row.session_id,
      amount: row.base_amount,
      policy: await this.ledgerCall(() => this.policyFor(row), "read the crypto payment settings"),
    }
    let assessed: { assessment: PaymentAssessment; readAt: Date; kept?: true }
    try {
      assessed = await this.assessRow(row, freshness)
    } catch (error) {
      if (error instanceof CryptoApiError && error.notFound) return assessmentResult(answer)
      throw error
    }
    const { assessment, readAt, kept } = assessed
    // news answered with a kept read: the job reads again once that read is statusCacheSeconds old
    const readAgainBy =
      kept && freshness === "news"
        ? { readAgainBy: new Date(readAt.getTime() + this.options_.statusCacheSeconds * 1000).toISOString() }
        : {}
    return assessmentResult({ ...answer, assessment, readAt: readAt.toISOString(), ...readAgainBy })
  }

  /** The service called the URL it was given for a session: verify the token, then read the payment it is about. */
  protected async answerTokenWebhook(token: string, body: unknown): Promise<WebhookActionResult> {
    const sessionId = verifyWebhookToken(token, this.signingKey_)
    if (!sessionId) {
      throw new MedusaError(MedusaError.Types.UNAUTHORIZED, "Invalid webhook token.")
    }
    const named = paymentIdOf(body)
    const row = await this.ledgerCall(async () => {
      const hinted = named ? await this.ledger_.byPaymentId(named) : undefined
      return hinted?.session_id === sessionId ? hinted : this.ledger_.latestOfSession(sessionId)
    }, "read the crypto payment ledger")
    if (!row) return { action: PaymentActions.NOT_SUPPORTED }
    // the session's older payments (replaced by a new amount) may be what the news is about
    await this.ledgerCall(
      async () =>
        this.ledger_.readSoon(
          await this.ledger_.openOfSession(sessionId, row.payment_id),
          this.options_.reconcileIntervalSeconds
        ),
      "read the crypto payment ledger"
    )
    return this.assessmentAnswer(row, "news")
  }

  /** A body that reached Medusa's generic route: a payment of the ledger is read at the next tick; anything else costs nothing. */
  protected async answerPublicWebhook(body: unknown): Promise<WebhookActionResult> {
    const paymentId = paymentIdOf(body)
    if (!paymentId || this.unknownIds_.has(paymentId)) return { action: PaymentActions.NOT_SUPPORTED }
    const row = await this.ledgerCall(() => this.ledger_.byPaymentId(paymentId), "read the crypto payment ledger")
    if (!row) {
      this.unknownIds_.add(paymentId)
      return { action: PaymentActions.NOT_SUPPORTED }
    }
    await this.ledgerCall(
      () => this.ledger_.readSoon([paymentId], this.options_.reconcileIntervalSeconds),
      "read the crypto payment ledger"
    )
    this.log_.debug(`notification for ${paymentId} on /hooks/payment; reconciliation reads it soon`)
    return { action: PaymentActions.NOT_SUPPORTED }
  }

  // ---- helpers --------------------------------------------------------------------------------

  /** Creates the invoice (no coin) or the payment (coin) for a session and returns its public data. */
  protected async createAtService(
    sessionId: string,
    medusaAmount: InitiatePaymentInput["amount"],
    currencyCode: string,
    coin: Coin | undefined
  ): Promise<CryptoSessionData> {
    const kind = coin ? "payment" : "invoice"
    const amountCurrency = this.amountCurrencyFor(currencyCode, kind)
    const amount = serviceAmount(medusaAmount, amountCurrency)
    if (amount.value <= 0) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        "There is nothing to pay: the amount must be greater than 0."
      )
    }
    return this.create(
      sessionId,
      { value: amount.value, amountCurrency, baseAmount: amount.text, baseCurrency: amountCurrency },
      coin
    )
  }

  /**
   * Creates at the service what `ask` says (an invoice without a coin, a payment with one), for a
   * session, with that session's webhook URL, and writes it to the ledger before answering.
   */
  protected async create(
    sessionId: string,
    ask: { value: number; amountCurrency: AmountCurrency; baseAmount: string; baseCurrency: string },
    coin: Coin | undefined,
    remainderOf?: string
  ): Promise<CryptoSessionData> {
    const kind = coin ? "payment" : "invoice"
    const { amountCurrency } = ask
    const webhook = this.options_.backendUrl
      ? {
          field: this.options_.webhookUrlField,
          url: webhookUrl(this.options_.backendUrl, signWebhookToken(sessionId, this.signingKey_)),
        }
      : undefined
    const common = {
      amount: ask.value,
      amountCurrency,
      orderId: sessionId,
      ...(this.options_.expirationMinutes !== undefined ? { expirationMinutes: this.options_.expirationMinutes } : {}),
    }
    const base = {
      session_id: sessionId,
      status: "PENDING" as const,
      placeOrder: this.options_.placeOrder,
      baseAmount: ask.baseAmount,
      baseCurrency: ask.baseCurrency,
    }
    let data: CryptoSessionData
    try {
      if (coin) {
        const payment = await this.client_.createPayment({ ...common, currency: coin }, webhook)
        data = {
          ...base,
          paymentId: payment.paymentId,
          kind: "payment",
          invoiceUrl: payment.invoiceUrl,
          expiresAt: payment.expiresAt,
          amount: payment.amount,
          currency: payment.currency,
          address: payment.address,
          qrCode: payment.qrCode,
        }
      } else {
        // amountCurrencyFor allowed only USD/USDT for an invoice (and the client checks it again)
        const invoice = await this.client_.createInvoice(
          { ...common, amountCurrency: amountCurrency as (typeof INVOICE_AMOUNT_CURRENCIES)[number] },
          webhook
        )
        const quotes: Record<string, string> = {}
        for (const [rateCoin, rate] of Object.entries(invoice.conversionRates ?? {})) {
          if (isCoin(rateCoin)) quotes[rateCoin] = coinAmountText(rate.cryptoAmount, rateCoin)
        }
        data = {
          ...base,
          paymentId: invoice.paymentId,
          kind: "invoice",
          invoiceUrl: invoice.invoiceUrl,
          expiresAt: invoice.expiresAt,
          quotes,
        }
      }
    } catch (error) {
      this.logFailure(`create a crypto ${kind} for session ${sessionId}`, error)
      throw toMedusaError(error, `start the crypto ${kind}`)
    }
    await this.ledgerCall(
      () => this.ledger_.open({ ...this.ledgerEntryOf(data), ...(remainderOf ? { remainder_of: remainderOf } : {}) }),
      `record the crypto ${kind} ${data.paymentId}`
    )
    return data
  }

  /**
   * The remainder of a short payment (DESIGN §2.5): once it EXPIRED with part of the amount
   * received, a payment for the shortfall in the same coin, to be paid on the same session; when it
   * completes, both together cover the session, which is captured in full through the usual path.
   * Asking again while a remainder is still open answers that one.
   */
  protected async requestRemainder(row: LedgerRow): Promise<WebhookActionResult> {
    const open = await this.ledgerCall(() => this.ledger_.remainderOf(row.payment_id), "read the crypto payment ledger")
    if (open?.status === "PENDING")
      return remainderResult(row.session_id, { paymentId: open.payment_id, created: false })
    // a new remainder only replaces one that expired with nothing received
    if (open && !(open.status === "EXPIRED" && isZero(open.received_amount ?? "0"))) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `The remainder of this crypto payment was already requested (${open.payment_id}, ${open.status}).`
      )
    }
    const { assessment: a } = await this.assessRow(row, "final").catch((error) => {
      throw toMedusaError(error, "read the crypto payment")
    })
    const rate = a.coin && a.required ? rateOf({ ...row, coin: a.coin, required_amount: a.required }) : undefined
    if (a.outcome !== "expired" || !a.underpaid || !rate) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        "Only a crypto payment that expired with part of the amount received has a remainder to request."
      )
    }
    const shortfall = coinsBeyond(rate.coin, rate.required, a.received)
    // the service takes a coin amount in BTC, ETH or LTC, and USDT for both USDT chains
    const amountCurrency: AmountCurrency = rate.coin.startsWith("USDT") ? "USDT" : (rate.coin as AmountCurrency)
    const data = await this.create(
      row.session_id,
      {
        value: Number(shortfall),
        amountCurrency,
        baseAmount: baseFor(rate, shortfall),
        baseCurrency: rate.baseCurrency,
      },
      rate.coin,
      row.payment_id
    )
    this.log_.info(
      `remainder of ${row.payment_id} requested: ${shortfall} ${rate.coin} as payment ${data.paymentId} on session ${row.session_id}`
    )
    return remainderResult(row.session_id, { paymentId: data.paymentId, created: true, sessionData: data })
  }

  /** The ledger row of a payment just created: what was agreed, and when to read it. */
  protected ledgerEntryOf(data: CryptoSessionData): OpenedPayment {
    const now = Date.now()
    const expiresAt = Date.parse(data.expiresAt)
    const windowEnd =
      (Number.isFinite(expiresAt) ? expiresAt : now + EXPIRATION_MINUTES.max * 60_000) +
      this.options_.lateWindowHours * 3_600_000
    return {
      payment_id: data.paymentId,
      session_id: data.session_id,
      kind: data.kind,
      base_amount: data.baseAmount,
      base_currency: data.baseCurrency,
      ...(data.kind === "payment" && data.amount !== undefined
        ? {
            crypto_amount: numberToDecimalString(data.amount),
            coin: data.currency,
            address: data.address,
            qr_code: data.qrCode,
          }
        : {}),
      ...(data.quotes ? { quotes: data.quotes } : {}),
      invoice_url: data.invoiceUrl,
      // an expiry the service wrote in another form is kept out of the ledger, not a reason to fail the checkout
      expires_at: Number.isFinite(expiresAt) ? new Date(expiresAt).toISOString() : null,
      watch_until: new Date(windowEnd),
      next_check_at: new Date(now + this.options_.reconcileIntervalSeconds * 1000),
    }
  }

  /** The service's amountCurrency for a store currency, or a clear refusal. */
  protected amountCurrencyFor(currencyCode: string, kind: "invoice" | "payment") {
    const allowed: readonly string[] = kind === "invoice" ? INVOICE_AMOUNT_CURRENCIES : PAYMENT_AMOUNT_CURRENCIES
    const amountCurrency = toAmountCurrency(currencyCode)
    if (!amountCurrency || !allowed.includes(amountCurrency)) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `Crypto payments are not available for ${String(currencyCode).toUpperCase()} carts: the crypto payment service accepts ${kind === "invoice" ? "invoices" : "payments"} in ${allowed.join(", ")}.`
      )
    }
    return amountCurrency
  }

  protected sessionIdOf(data: Record<string, unknown> | undefined): string {
    const sessionId = sessionIdOf(data)
    if (!sessionId) throw this.noPayment()
    return sessionId
  }

  protected noPayment(): MedusaError {
    return new MedusaError(
      MedusaError.Types.INVALID_DATA,
      "This payment session holds no crypto payment. Please start a new payment."
    )
  }

  /** A ledger read or write; a failure becomes a MedusaError saying what could not be done. */
  protected async ledgerCall<T>(call: () => Promise<T>, action: string): Promise<T> {
    try {
      return await call()
    } catch (error) {
      if (error instanceof MedusaError) throw error
      this.log_.error(`could not ${action}: ${(error as Error)?.message}`)
      throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `Could not ${action}. Please try again.`)
    }
  }

  /**
   * The service's status of the payment that pays a session (from the ledger: never from keys in
   * the session data, which the storefront can write), judged against what was agreed.
   */
  protected async assessSession(
    data: Record<string, unknown> | undefined,
    freshness: Freshness
  ): Promise<{ row: LedgerRow; assessment: PaymentAssessment }> {
    const sessionId = this.sessionIdOf(data)
    const row = await this.ledgerCall(() => this.ledger_.forSession(sessionId), "read the crypto payment ledger")
    if (!row) throw this.noPayment()
    return { row, assessment: (await this.assessRow(row, freshness)).assessment }
  }

  /** The service's status of a ledger payment (as fresh as the caller needs), judged against what the ledger says was agreed. */
  protected async assessRow(
    row: LedgerRow,
    freshness: Freshness
  ): Promise<{ assessment: PaymentAssessment; readAt: Date; kept?: true }> {
    const { underpaymentTolerancePercent } = await this.ledgerCall(
      () => this.policies_.policy(row.provider_id),
      "read the crypto payment settings"
    )
    const { record, readAt, kept } = await this.statusReads_.status(row, freshness)
    return {
      assessment: assessPayment(record, expectationOf(row), { underpaymentTolerancePercent }),
      readAt,
      ...(kept ? { kept } : {}),
    }
  }

  /** assessSession, with a failed read turned into a MedusaError saying what could not be done. */
  protected async assessSessionOrExplain(
    data: Record<string, unknown> | undefined,
    freshness: Freshness,
    action: string
  ) {
    return this.assessSession(data, freshness).catch((error) => {
      throw toMedusaError(error, action)
    })
  }

  protected withProgress(
    data: Record<string, unknown> | undefined,
    assessment: PaymentAssessment
  ): Record<string, unknown> {
    return { ...data, ...publicProgress(assessment) }
  }

  protected notYetPaidMessage(a: PaymentAssessment): string {
    if (!a.coin) {
      return "Your crypto payment has not been received yet. Choose a coin and pay on the payment page; the order is placed once the payment is confirmed."
    }
    const progress = a.underpaid
      ? `received ${a.received} of ${a.required} ${a.coin}`
      : `${a.confirmations} of ${a.requiredConfirmations} confirmations`
    return `Your crypto payment is not confirmed yet (${progress}). The order is placed as soon as the payment is confirmed.`
  }

  protected logFailure(action: string, error: unknown): void {
    if (error instanceof CryptoApiError) {
      const upstream = error.info.serviceError ? `; service said: ${error.info.serviceError}` : ""
      this.log_.warn(`could not ${action}: ${error.message}${upstream}`)
    } else {
      this.log_.error(`could not ${action}: ${(error as Error)?.message}`)
    }
  }
}

export default CryptoPaymentProviderService

/** The payment id a notification's body names (a hint: only a payment of the ledger counts). */
function paymentIdOf(body: unknown): string | undefined {
  const hint = (body && typeof body === "object" ? body : {}) as Record<string, unknown>
  const nested = (hint.data && typeof hint.data === "object" ? hint.data : {}) as Record<string, unknown>
  const found = [hint.paymentId, hint.payment_id, nested.paymentId].find(
    (v) => typeof v === "string" && /^[A-Za-z0-9_-]{1,128}$/.test(v)
  )
  return found as string | undefined
}
