import type { IPaymentModuleService } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import {
  AssessmentAnswer,
  assessPayload,
  Freshness,
  BalancesAnswer,
  balancesPayload,
  readAssessmentAnswer,
  readBalancesAnswer,
  readRemainderAnswer,
  RemainderAnswer,
  remainderPayload,
  webhookPayload,
  HealthAnswer,
  healthPayload,
  RatesAnswer,
  ratesPayload,
  RatesRequest,
  RegionCurrency,
  PolicyAnswer,
  policyPayload,
  readNotAPayment,
} from "./internal-request"
import type { Coin } from "./crypto-api/constants"

/** Provider ids of this plugin are `pp_crypto_<id from the shop's config>`. */
export const CRYPTO_PROVIDER = /^pp_crypto_/

/**
 * getWebhookActionAndData takes the provider id without its `pp_` prefix: Medusa 2.21.0 always adds
 * it (2.21.2 adds it only when missing), so the bare form works on both.
 */
const bare = (providerId: string) => providerId.replace(/^pp_/, "")

/** The crypto provider ids per payment module (one per process). */
const registeredProviders = new WeakMap<IPaymentModuleService, Promise<string[]>>()

/**
 * How the plugin's routes, workflows and jobs reach the crypto provider: through the payment
 * module, so the provider's options and secret stay where the shop configured them.
 */
export class CryptoGateway {
  constructor(private readonly payments: IPaymentModuleService) {}

  /**
   * The crypto providers the shop registered (usually one: pp_crypto_crypto). Medusa registers
   * providers at boot, so the list is read once per payment module and kept (a failed read is not).
   */
  async providerIds(): Promise<string[]> {
    let ids = registeredProviders.get(this.payments)
    if (!ids) {
      ids = this.payments
        .listPaymentProviders({}, { select: ["id"] })
        .then((providers) => providers.map((p) => p.id).filter((id) => CRYPTO_PROVIDER.test(id)))
      registeredProviders.set(this.payments, ids)
      ids.catch(() => registeredProviders.delete(this.payments))
    }
    return ids
  }

  /**
   * Reads the service's status of a ledger payment and judges it against what was agreed, through the
   * provider that created it (rows written before the ledger knew it: the first crypto provider).
   * `freshness`: afresh (the job, the admin's re-check) or a status other callers read recently.
   */
  async assess(
    payment: { payment_id: string; provider_id: string | null },
    freshness: Freshness = "fresh"
  ): Promise<AssessmentAnswer> {
    const paymentId = payment.payment_id
    const providerId = payment.provider_id ?? (await this.providerIds())[0]
    const result = await this.payments.getWebhookActionAndData({
      provider: bare(providerId),
      payload: assessPayload(paymentId, freshness),
    })
    const answer = readAssessmentAnswer(result)
    if (!answer) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Crypto payment ${paymentId} is not in the ledger.`)
    return answer
  }

  /** Asks the provider that created a short, expired payment for its remainder (a payment for the shortfall). */
  async remainder(payment: { payment_id: string; provider_id: string | null }): Promise<RemainderAnswer> {
    const providerId = payment.provider_id ?? (await this.providerIds())[0]
    const answer = readRemainderAnswer(
      await this.payments.getWebhookActionAndData({
        provider: bare(providerId),
        payload: remainderPayload(payment.payment_id),
      })
    )
    if (!answer)
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Crypto payment ${payment.payment_id} is not in the ledger.`)
    return answer
  }

  /** The merchant's balances at the service, through the (first) crypto provider's API key. */
  async balances(currency?: Coin): Promise<BalancesAnswer> {
    const [provider] = await this.providerIds()
    if (!provider)
      throw new MedusaError(
        MedusaError.Types.NOT_FOUND,
        "No crypto payment provider is registered in medusa-config.ts."
      )
    return readBalancesAnswer(
      await this.payments.getWebhookActionAndData({ provider: bare(provider), payload: balancesPayload(currency) })
    )
  }

  /** A provider's policy defaults (its options) and the policy in force; `refresh` after the admin saved one. */
  async policy(providerId: string, refresh = false): Promise<PolicyAnswer> {
    return this.ask<PolicyAnswer>(providerId, "policy", policyPayload(providerId, refresh))
  }

  /** A provider's own setup checks (API key, webhook URL, provider id, the rates its regions need). */
  async health(providerId: string, regions: RegionCurrency[] = []): Promise<HealthAnswer> {
    return this.ask<HealthAnswer>(providerId, "health", healthPayload(providerId, regions))
  }

  /** A provider's exchange rates: their state, after a refresh when due (the job). */
  async rates(providerId: string, action: RatesRequest["action"] = "state"): Promise<RatesAnswer> {
    return this.ask<RatesAnswer>(providerId, "rates", ratesPayload(action))
  }

  private async ask<T>(providerId: string, key: string, payload: ReturnType<typeof policyPayload>): Promise<T> {
    const answer = readNotAPayment<T>(
      await this.payments.getWebhookActionAndData({ provider: bare(providerId), payload }),
      key
    )
    if (!answer)
      throw new MedusaError(
        MedusaError.Types.UNEXPECTED_STATE,
        `The crypto provider ${providerId} gave no ${key} answer.`
      )
    return answer
  }

  /**
   * A notification that arrived at the webhook URL: the provider that minted the token verifies it
   * and reads the payment's status. Throws UNAUTHORIZED when no provider minted it; undefined when
   * the token is good but names no payment of the shop.
   */
  async webhook(token: string, body: unknown): Promise<AssessmentAnswer | undefined> {
    const providers = await this.providerIds()
    let refusal: unknown = new MedusaError(MedusaError.Types.UNAUTHORIZED, "Invalid webhook token.")
    for (const provider of providers) {
      try {
        const result = await this.payments.getWebhookActionAndData({
          provider: bare(provider),
          // the token travels inside the internal request, never as a header Medusa's public route would pass on
          payload: webhookPayload(token, body ?? {}),
        })
        return readAssessmentAnswer(result)
      } catch (error) {
        if (!(error instanceof MedusaError && error.type === MedusaError.Types.UNAUTHORIZED)) throw error
        refusal = error
      }
    }
    throw refusal
  }
}
