import {
  AbstractPaymentProvider,
  MedusaError,
  PaymentActions,
  PaymentSessionStatus,
} from "@medusajs/framework/utils"
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
  WebhookActionData,
  WebhookActionResult,
} from "@medusajs/framework/types"
import { CryptoApiClient } from "../../lib/crypto-api/client"
import { CryptoApiError } from "../../lib/crypto-api/errors"
import { Coin, COINS, INVOICE_AMOUNT_CURRENCIES, isCoin, PAYMENT_AMOUNT_CURRENCIES } from "../../lib/crypto-api/constants"
import type { StatusRecord } from "../../lib/crypto-api/schemas"
import { assessPayment, PaymentAssessment, publicProgress, sessionStatusFor } from "../../lib/payment-decision"
import { coinAmountText, serviceAmount, toAmountCurrency } from "../../lib/money"
import { signWebhookToken, verifyWebhookToken, webhookSigningKey, webhookUrl } from "../../lib/webhook-token"
import { InternalRequest, ProviderSettings, readInternalRequest } from "../../lib/internal-request"
import { CryptoOptions, parseCryptoOptions } from "./options"
import { CryptoSessionData, expectationOf, parseSessionData, storefrontInputSchema } from "./session-data"
import { toMedusaError } from "./errors"

type InjectedDependencies = {
  logger: Logger
}

/** A coin name from the storefront, safe to repeat in a message. */
function shown(value: unknown): string {
  return typeof value === "string" && /^[A-Za-z0-9_]{1,24}$/.test(value) ? `"${value}"` : "the coin given"
}

/**
 * The crypto payment provider (pp_crypto_crypto): a session is an invoice (the customer picks a
 * coin on the hosted page) or a single-coin payment (address and QR in the storefront). Its
 * status always comes from the service's status endpoint, read through the one decision module.
 */
class CryptoPaymentProviderService extends AbstractPaymentProvider<CryptoOptions> {
  static identifier = "crypto"

  protected readonly options_: CryptoOptions
  protected readonly logger_: Logger
  protected readonly client_: CryptoApiClient
  protected readonly signingKey_: Buffer

  static validateOptions(options: Record<string, unknown>): void {
    parseCryptoOptions(options)
  }

  constructor(container: InjectedDependencies, options: Record<string, unknown>) {
    super(container as unknown as Record<string, unknown>, options as CryptoOptions)
    this.options_ = parseCryptoOptions(options)
    this.logger_ = container.logger
    this.signingKey_ = webhookSigningKey(this.options_)
    this.client_ = new CryptoApiClient({
      baseUrl: this.options_.baseUrl,
      apiKey: this.options_.apiKey,
      timeoutMs: this.options_.requestTimeoutMs,
      log: (line) => this.logger_.debug(line),
    })
    if (!this.options_.backendUrl) {
      this.logger_.warn(
        "medusa-payment-crypto: backendUrl is not set, so the payment service cannot notify this store; crypto payments are picked up by reconciliation only."
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
    const askedCoin = requested.success ? requested.data.currency : undefined
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
    const current = this.sessionData(input.data)
    const amountCurrency = this.amountCurrencyFor(input.currency_code, current.kind)
    const amount = serviceAmount(input.amount, amountCurrency)
    if (amount.text === current.baseAmount && amountCurrency === current.baseCurrency) {
      return { data: current as Record<string, unknown> }
    }
    // The amount changed: the old invoice/payment is abandoned (it expires on its own) and a
    // new one asks for the new amount, in the same coin for a payment.
    this.logger_.info(
      `medusa-payment-crypto: session ${current.session_id} changed from ${current.baseAmount} to ${amount.text} ${amountCurrency}; replacing ${current.paymentId}`
    )
    const data = await this.createAtService(current.session_id, input.amount, input.currency_code, current.kind === "payment" ? current.currency : undefined)
    return { status: PaymentSessionStatus.PENDING, data }
  }

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    const session = this.sessionData(input.data)
    let assessment: PaymentAssessment
    try {
      assessment = await this.assess(session)
    } catch (error) {
      if (error instanceof CryptoApiError && error.transient && this.options_.placeOrder === "before_payment") {
        // Indeterminate: the order waits for payment; the webhook or reconciliation decides.
        this.logger_.warn(`medusa-payment-crypto: status of ${session.paymentId} unknown at checkout (${error.message}); order placed awaiting payment`)
        return { status: PaymentSessionStatus.PENDING_AUTHORIZATION, data: session as Record<string, unknown> }
      }
      throw toMedusaError(error, "confirm the crypto payment")
    }
    const data = this.withProgress(session, assessment)
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
          this.logger_.warn(`medusa-payment-crypto: ${session.paymentId} not accepted as paid: ${assessment.reason}`)
        }
        // before_payment: the order is placed awaiting payment; after_payment: completion waits, and says why
        if (status === PaymentSessionStatus.PENDING_AUTHORIZATION) {
          return { status, data }
        }
        throw new MedusaError(MedusaError.Types.NOT_ALLOWED, this.notYetPaidMessage(assessment))
    }
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const { session, assessment } = await this.assessSession(input.data, "read the crypto payment's status")
    return {
      status: sessionStatusFor(assessment.outcome, this.options_.placeOrder) as PaymentSessionStatus,
      data: this.withProgress(session, assessment),
    }
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    const { session, assessment } = await this.assessSession(input.data, "read the crypto payment")
    return { data: this.withProgress(session, assessment) }
  }

  /** Funds arrive on chain by themselves: capture only confirms that the service reports them complete. */
  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    const { session, assessment } = await this.assessSession(input.data, "capture the crypto payment")
    if (assessment.outcome !== "paid") {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `The crypto payment cannot be captured: the service reports it ${assessment.status}${assessment.reason ? ` (${assessment.reason})` : ""}.`
      )
    }
    return { data: this.withProgress(session, assessment) }
  }

  /** Nothing to cancel at the service (an unpaid invoice simply expires); local and idempotent. */
  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    return { data: input.data ?? {} }
  }

  /** Local and idempotent, whatever the session holds (or lacks). */
  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    return { data: input.data ?? {} }
  }

  async refundPayment(_input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "Crypto payments cannot be refunded through Medusa: the crypto payment service has no refund API. Send the refund from the service's dashboard, then record it on the order."
    )
  }

  /**
   * Two callers: the plugin's own webhook route, reconciliation job and admin (internal requests:
   * verify a token, assess a session, read settings), and Medusa's /hooks/payment/crypto_crypto
   * route, whose body is only a hint: the status is read from the service, and Medusa then calls
   * authorizePayment on the session, which checks the session's own payment before anything is paid.
   */
  async getWebhookActionAndData(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    const internal = readInternalRequest(payload?.data)
    if (internal) return this.answerInternal(internal)
    return this.answerPublicWebhook(payload?.data)
  }

  // ---- webhooks and reconciliation -------------------------------------------------------------

  protected async answerInternal(request: InternalRequest): Promise<WebhookActionResult> {
    switch (request.op) {
      case "verify": {
        const sessionId = verifyWebhookToken(request.token, this.signingKey_)
        if (!sessionId) {
          throw new MedusaError(MedusaError.Types.UNAUTHORIZED, "Invalid webhook token.")
        }
        return { action: PaymentActions.NOT_SUPPORTED, data: { session_id: sessionId, amount: 0 } }
      }
      case "assess": {
        const session = this.sessionData({ ...request.sessionData, session_id: request.sessionId })
        const assessment = await this.assess(session)
        const action = {
          paid: PaymentActions.SUCCESSFUL,
          expired: PaymentActions.CANCELED,
          failed: PaymentActions.FAILED,
          pending: PaymentActions.PENDING,
          mismatch: PaymentActions.REQUIRES_MORE,
        }[assessment.outcome]
        return { action, data: { session_id: request.sessionId, amount: 0, assessment } as WebhookActionData }
      }
      case "settings": {
        const settings: ProviderSettings = {
          placeOrder: this.options_.placeOrder,
          reconcileIntervalSeconds: this.options_.reconcileIntervalSeconds,
          reconcileBatchSize: this.options_.reconcileBatchSize,
        }
        return { action: PaymentActions.NOT_SUPPORTED, data: { session_id: "", amount: 0, settings } as WebhookActionData }
      }
    }
  }

  /** A body that reached Medusa's generic route: find the payment it names and read its real status. */
  protected async answerPublicWebhook(body: unknown): Promise<WebhookActionResult> {
    const hint = (body && typeof body === "object" ? body : {}) as Record<string, unknown>
    const nested = (hint.data && typeof hint.data === "object" ? hint.data : {}) as Record<string, unknown>
    const paymentId = [hint.paymentId, hint.payment_id, nested.paymentId].find((v) => typeof v === "string") as string | undefined
    const sessionId = [hint.orderId, hint.order_id, nested.orderId].find((v) => typeof v === "string" && /^payses_[A-Za-z0-9]+$/.test(v)) as
      | string
      | undefined
    if (!paymentId || !sessionId) {
      return { action: PaymentActions.NOT_SUPPORTED }
    }
    const record = await this.readStatus(paymentId).catch((error) => {
      this.logFailure(`read the status of ${paymentId} for a webhook`, error)
      throw toMedusaError(error, "process the crypto payment notification")
    })
    const action =
      record.status === "COMPLETED" ? PaymentActions.SUCCESSFUL : record.status === "PENDING" ? PaymentActions.PENDING : PaymentActions.FAILED
    // No amount is claimed: Medusa captures the session's own amount after authorizePayment re-checks it.
    return { action, data: { session_id: sessionId } as WebhookActionData }
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
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "There is nothing to pay: the amount must be greater than 0.")
    }
    const webhook = this.options_.backendUrl
      ? { field: this.options_.webhookUrlField, url: webhookUrl(this.options_.backendUrl, signWebhookToken(sessionId, this.signingKey_)) }
      : undefined
    const common = {
      amount: amount.value,
      amountCurrency,
      orderId: sessionId,
      ...(this.options_.expirationMinutes !== undefined ? { expirationMinutes: this.options_.expirationMinutes } : {}),
    }
    const base = { session_id: sessionId, status: "PENDING" as const, baseAmount: amount.text, baseCurrency: amountCurrency }
    try {
      if (coin) {
        const payment = await this.client_.createPayment({ ...common, currency: coin }, webhook)
        return {
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
      }
      // amountCurrencyFor allowed only USD/USDT for an invoice (and the client checks it again)
      const invoice = await this.client_.createInvoice({ ...common, amountCurrency: amountCurrency as (typeof INVOICE_AMOUNT_CURRENCIES)[number] }, webhook)
      const quotes: Record<string, string> = {}
      for (const [rateCoin, rate] of Object.entries(invoice.conversionRates ?? {})) {
        if (isCoin(rateCoin)) quotes[rateCoin] = coinAmountText(rate.cryptoAmount, rateCoin)
      }
      return {
        ...base,
        paymentId: invoice.paymentId,
        kind: "invoice",
        invoiceUrl: invoice.invoiceUrl,
        expiresAt: invoice.expiresAt,
        quotes,
      }
    } catch (error) {
      this.logFailure(`create a crypto ${kind} for session ${sessionId}`, error)
      throw toMedusaError(error, `start the crypto ${kind}`)
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

  protected sessionData(data: Record<string, unknown> | undefined): CryptoSessionData {
    const parsed = parseSessionData(data)
    if (!parsed) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "This payment session holds no crypto payment. Please start a new payment.")
    }
    return parsed
  }

  protected async readStatus(paymentId: string): Promise<StatusRecord> {
    return this.client_.getStatus(paymentId)
  }

  protected async assess(session: CryptoSessionData): Promise<PaymentAssessment> {
    const record = await this.readStatus(session.paymentId)
    return assessPayment(record, expectationOf(session))
  }

  /** The session's data and the service's judged status; a failed read becomes a MedusaError saying what could not be done. */
  protected async assessSession(data: Record<string, unknown> | undefined, action: string) {
    const session = this.sessionData(data)
    const assessment = await this.assess(session).catch((error) => {
      throw toMedusaError(error, action)
    })
    return { session, assessment }
  }

  protected withProgress(session: CryptoSessionData, assessment: PaymentAssessment): Record<string, unknown> {
    return { ...session, ...publicProgress(assessment) }
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
      this.logger_.warn(`medusa-payment-crypto: could not ${action}: ${error.message}${upstream}`)
    } else {
      this.logger_.error(`medusa-payment-crypto: could not ${action}: ${(error as Error)?.message}`)
    }
  }
}

export default CryptoPaymentProviderService
