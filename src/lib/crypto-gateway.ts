import type { IPaymentModuleService } from "@medusajs/framework/types"
import { internalPayload, ProviderSettings } from "./internal-request"
import type { PaymentAssessment } from "./payment-decision"

export const CRYPTO_PROVIDER_ID = "pp_crypto_crypto"

/**
 * How the plugin's routes, workflows and jobs reach the crypto provider: through the payment
 * module, so the provider's options and secret stay where the shop configured them.
 */
export class CryptoGateway {
  constructor(
    private readonly payments: IPaymentModuleService,
    private readonly providerId = CRYPTO_PROVIDER_ID
  ) {}

  /** The payment session a webhook token was minted for; throws UNAUTHORIZED when it is not ours. */
  async verifyToken(token: string): Promise<string> {
    const result = await this.payments.getWebhookActionAndData({ provider: this.providerId, payload: internalPayload({ op: "verify", token }) })
    return result.data!.session_id
  }

  /** Reads the service's status and judges it against what the session agreed. */
  async assess(providerId: string, sessionId: string, sessionData: Record<string, unknown>): Promise<PaymentAssessment> {
    const result = await this.payments.getWebhookActionAndData({
      provider: providerId,
      payload: internalPayload({ op: "assess", sessionId, sessionData }),
    })
    return (result.data as unknown as { assessment: PaymentAssessment }).assessment
  }

  async settings(): Promise<ProviderSettings> {
    const result = await this.payments.getWebhookActionAndData({ provider: this.providerId, payload: internalPayload({ op: "settings" }) })
    return (result.data as unknown as { settings: ProviderSettings }).settings
  }
}
