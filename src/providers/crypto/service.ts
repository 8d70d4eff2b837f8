import {
  AbstractPaymentProvider,
  MedusaError,
  PaymentActions,
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
  WebhookActionResult,
} from "@medusajs/framework/types"
import { CryptoOptions, parseCryptoOptions } from "./options"

type InjectedDependencies = {
  logger: Logger
}

const NOT_YET = "Crypto checkout is not enabled in this build of medusa-payment-crypto."

class CryptoPaymentProviderService extends AbstractPaymentProvider<CryptoOptions> {
  static identifier = "crypto"

  protected readonly options_: CryptoOptions
  protected readonly logger_: Logger

  static validateOptions(options: Record<string, unknown>): void {
    parseCryptoOptions(options)
  }

  constructor(container: InjectedDependencies, options: Record<string, unknown>) {
    super(container as unknown as Record<string, unknown>, options as CryptoOptions)
    this.options_ = parseCryptoOptions(options)
    this.logger_ = container.logger
  }

  async initiatePayment(_input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, NOT_YET)
  }

  async updatePayment(_input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, NOT_YET)
  }

  async authorizePayment(_input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, NOT_YET)
  }

  async getPaymentStatus(_input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, NOT_YET)
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    return { data: input.data }
  }

  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    return { data: input.data }
  }

  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    return { data: input.data }
  }

  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    return { data: input.data }
  }

  async refundPayment(_input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "Crypto payments cannot be refunded through Medusa: send the refund from the crypto payment service's dashboard."
    )
  }

  async getWebhookActionAndData(
    _payload: ProviderWebhookPayload["payload"]
  ): Promise<WebhookActionResult> {
    return { action: PaymentActions.NOT_SUPPORTED }
  }
}

export default CryptoPaymentProviderService
