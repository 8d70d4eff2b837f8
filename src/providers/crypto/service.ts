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
import { COINS, isCoin } from "../../lib/crypto-api/constants"
import { PaymentAssessment, publicProgress, sessionStatusFor } from "../../lib/domain/payment-assessment"
import { sendableCoinsOf, storeAmount } from "../../lib/domain/money"
import { cryptoError } from "../../lib/domain/customer-errors"
import { addressForCoin } from "../../lib/domain/evm-address"
import { CryptoApiError } from "../../lib/crypto-api/errors"
import {
  coreOf,
  CRYPTO_PROVIDER,
  CRYPTO_PROVIDER_IDENTIFIER,
  CryptoOptions,
  CryptoServiceClient,
  noPaymentError,
  parseCryptoOptions,
  PaymentCore,
  providerIdOf,
  refundOwedOf,
  registrationOfOptions,
  requiredSessionId,
  secretsKey,
  sessionIdOf,
  storefrontInputSchema,
  toMedusaError,
  type LedgerRow,
  type CoreLedger,
  type PolicySource,
} from "../../modules/crypto-payment/core"

type InjectedDependencies = {
  logger: Logger
  /** The shared database connection every module receives. */
  __pg_connection__?: Knex
  /** Injectable; Medusa registers none, so the options build the real ones. */
  cryptoClient?: CryptoServiceClient
  cryptoLedger?: CoreLedger
  cryptoSettings?: PolicySource
  /** The shop's configuration: the provider's own entry in it gives its id. */
  configModule?: Parameters<typeof registrationOfOptions>[0]
  /** The payment module's provider keys (pp_system_default, pp_crypto_crypto …): its id otherwise. */
  payment_providers?: string[]
}

/** A dependency, or undefined when none is registered: Medusa's container throws when asked for an unknown key. */
function registered<K extends keyof InjectedDependencies>(
  container: InjectedDependencies,
  key: K
): InjectedDependencies[K] | undefined {
  return Object.prototype.hasOwnProperty.call(container, key) ? container[key] : undefined
}

/** The id of a provider registered under no key found: the documented `pp_crypto_crypto`. */
const DEFAULT_PROVIDER_ID = providerIdOf(CRYPTO_PROVIDER_IDENTIFIER, "crypto")

/** A coin name from the storefront, safe to repeat in a message. */
function shown(value: unknown): string {
  return typeof value === "string" && /^[A-Za-z0-9_]{1,24}$/.test(value) ? `"${value}"` : "the coin given"
}

/**
 * A session is an invoice (the customer picks a coin on the hosted page) or a single-coin payment. A thin
 * adapter of Medusa's provider API onto its registration's payment core (modules/crypto-payment/core).
 */
class CryptoPaymentProviderService extends AbstractPaymentProvider<CryptoOptions> {
  static identifier = CRYPTO_PROVIDER_IDENTIFIER

  protected readonly options_: CryptoOptions
  private core_?: PaymentCore
  private ownId_?: string

  static validateOptions(options: Record<string, unknown>): void {
    parseCryptoOptions(options)
    secretsKey()
  }

  constructor(
    private readonly container_: InjectedDependencies,
    private readonly rawOptions_: Record<string, unknown>
  ) {
    super(container_ as unknown as Record<string, unknown>, rawOptions_ as CryptoOptions)
    this.options_ = parseCryptoOptions(rawOptions_)
    this.ownId_ = registrationOfOptions(registered(container_, "configModule"), rawOptions_)?.providerId
    // built now when the id is known (its warnings land at boot), else on first use
    if (this.ownId_ || registered(container_, "cryptoClient") || registered(container_, "cryptoLedger")) void this.core
  }

  /** The registration's core, found (or built) on first use: the provider's own id is known only once Medusa registered it. */
  get core(): PaymentCore {
    if (this.core_) return this.core_
    const container = this.container_
    const connection = registered(container, "__pg_connection__")
    const env = { logger: container.logger, ...(connection ? { db: () => connection } : {}) }
    const client = registered(container, "cryptoClient")
    const ledger = registered(container, "cryptoLedger")
    const settings = registered(container, "cryptoSettings")
    this.core_ =
      client || ledger
        ? new PaymentCore({ providerId: this.ownId(), options: this.options_, ...env, client, ledger, settings })
        : coreOf({ providerId: this.ownId(), options: this.rawOptions_ }, env)
    return this.core_
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
    const data = await this.core.creator.createAtService(sessionId, input.amount, input.currency_code, coin, input.data)
    return { id: data.paymentId, status: PaymentSessionStatus.PENDING, data }
  }

  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const sessionId = requiredSessionId(input.data)
    const current = await this.core.tryLedger(
      () => this.core.ledger.latestOfSession(sessionId),
      "update the crypto payment"
    )
    if (!current) throw noPaymentError()
    // a remainder asks only the rest: the session's amount is the one its checkout's first payment agreed
    // (at any depth: a remainder of a remainder asks less than its parent did, never the session's amount)
    const terms =
      (current.remainder_of
        ? (
            await this.core.tryLedger(
              () => this.core.ledger.checkoutOf(current.payment_id),
              "update the crypto payment"
            )
          )?.first
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
    this.core.log.info(
      `session ${sessionId} changed from ${current.base_amount} ${current.base_currency} to ${amount} ${currency}; ${current.payment_id} replaced by a new ${current.kind}`
    )
    const coin = current.kind === "payment" && isCoin(current.coin) ? current.coin : undefined
    const data = await this.core.creator.createAtService(sessionId, input.amount, input.currency_code, coin)
    return { status: PaymentSessionStatus.PENDING, data }
  }

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    let assessed: { row: LedgerRow; assessment: PaymentAssessment }
    try {
      assessed = await this.core.assessor.assessSession(input.data, "final")
    } catch (error) {
      if (error instanceof CryptoApiError && error.transient && this.options_.placeOrder === "before_payment") {
        // Indeterminate: the order waits for payment; the webhook or reconciliation decides.
        this.core.log.warn(
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
        throw cryptoError(MedusaError.Types.NOT_ALLOWED, "crypto.payment_expired")
      case "failed":
        throw cryptoError(MedusaError.Types.NOT_ALLOWED, "crypto.payment_failed")
      case "mismatch":
      case "pending":
        if (assessment.outcome === "mismatch") {
          // Never paid as it stands: treated as still open, and said so in the log.
          this.core.log.warn(`${row.payment_id} not accepted as paid: ${assessment.reason}`)
        }
        // before_payment: the order is placed awaiting payment; after_payment: completion waits, and says why
        if (status === PaymentSessionStatus.PENDING_AUTHORIZATION) {
          return { status, data }
        }
        throw this.notYetPaidError(assessment)
    }
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const { assessment } = await this.core.assessor.assessSessionOrExplain(
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
    const { assessment } = await this.core.assessor.assessSessionOrExplain(
      input.data,
      "shared",
      "read the crypto payment"
    )
    return { data: this.withProgress(input.data, assessment) }
  }

  /** Funds arrive on chain by themselves: capture only confirms that the service reports them complete. */
  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    const { assessment } = await this.core.assessor.assessSessionOrExplain(
      input.data,
      "final",
      "capture the crypto payment"
    )
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
   * The service has no refund API: the refund is recorded as coins owed until an admin marks them sent
   * from the service's dashboard.
   */
  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    if (this.options_.refunds === "disabled") {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        "Crypto payments cannot be refunded through Medusa: the crypto payment service has no refund API. Send the refund from the service's dashboard, then record it on the order."
      )
    }
    const sessionId = requiredSessionId(input.data)
    const owed = await this.core.tryLedger(
      () =>
        this.core.ledger.recordRefund(sessionId, (checkout) =>
          refundOwedOf(checkout, input.amount, input.context?.idempotency_key)
        ),
      "record the crypto refund"
    )
    if (!owed) throw noPaymentError()
    this.core.log.warn(
      `refund of ${owed.base_amount} ${owed.base_currency} recorded for payment ${owed.payment_id}: send ${sendableCoinsOf(owed.coin, owed.coin_amount) ?? "the equivalent"} ${owed.coin ?? "in crypto"} from the service's dashboard, then mark it sent in the admin`
    )
    return { data: input.data ?? {} }
  }

  // ---- webhooks and reconciliation -------------------------------------------------------------

  /**
   * Medusa's public /hooks/payment route: its body is only a hint, and the answer never makes Medusa
   * capture. The service's notifications reach the plugin's own route, /hooks/crypto/:token.
   */
  async getWebhookActionAndData(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    await this.core.hinted(payload?.data)
    return { action: PaymentActions.NOT_SUPPORTED }
  }

  // ---- helpers --------------------------------------------------------------------------------

  /**
   * This provider's id (pp_crypto_<id>): Medusa registers each provider under it but does not hand it
   * over; it is its entry's in the configuration, else the payment module's key that resolves to this instance.
   */
  protected ownId(): string {
    if (this.ownId_) return this.ownId_
    const keys = registered(this.container_, "payment_providers") ?? []
    const cradle = this.container_ as unknown as Record<string, unknown>
    return keys.find((key) => CRYPTO_PROVIDER.test(key) && cradle[key] === this) ?? DEFAULT_PROVIDER_ID
  }

  protected withProgress(
    data: Record<string, unknown> | undefined,
    assessment: PaymentAssessment
  ): Record<string, unknown> {
    const progress: Record<string, unknown> = { ...data, ...publicProgress(assessment) }
    // a session created before its address was handed out in EIP-55 gets it so at its next read
    if (typeof data?.address === "string") progress.address = addressForCoin(progress.currency as string, data.address)
    return progress
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

export default CryptoPaymentProviderService
