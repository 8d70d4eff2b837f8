import type { IPaymentModuleService } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { Answer, Operation, OperationName, packOperation, unpackAnswer } from "./operations"

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
 * The door to the crypto provider for the plugin's routes, job and admin (why a door:
 * ./operations.ts). `call` goes out through Medusa's payment module, is answered by the provider's
 * handler for the operation, and comes back checked.
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
   * Asks the provider the operation names (else the first crypto provider) and returns its answer. A
   * webhook asks each provider in turn until one minted the token: UNAUTHORIZED when none did.
   */
  async call<K extends OperationName>(operation: Operation<K>): Promise<Answer<K>> {
    if (operation.op === "webhook") return this.callEach(operation)
    const named = "providerId" in operation ? operation.providerId : undefined
    return this.send(named ?? (await this.firstProvider()), operation)
  }

  private async send<K extends OperationName>(providerId: string, operation: Operation<K>): Promise<Answer<K>> {
    const result = await this.payments.getWebhookActionAndData({
      provider: bare(providerId),
      payload: packOperation(operation),
    })
    return unpackAnswer(operation.op, result, providerId)
  }

  private async callEach<K extends OperationName>(operation: Operation<K>): Promise<Answer<K>> {
    let refusal: unknown = new MedusaError(MedusaError.Types.UNAUTHORIZED, "Invalid webhook token.")
    for (const provider of await this.providerIds()) {
      try {
        return await this.send(provider, operation)
      } catch (error) {
        if (!(error instanceof MedusaError && error.type === MedusaError.Types.UNAUTHORIZED)) throw error
        refusal = error
      }
    }
    throw refusal
  }

  private async firstProvider(): Promise<string> {
    const [provider] = await this.providerIds()
    if (!provider)
      throw new MedusaError(
        MedusaError.Types.NOT_FOUND,
        "No crypto payment provider is registered in medusa-config.ts."
      )
    return provider
  }
}

/** An answer about a ledger payment, or NOT_FOUND when the provider found no such payment in the ledger. */
export function inLedger<T>(answer: T | null, paymentId: string): T {
  if (answer === null)
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Crypto payment ${paymentId} is not in the ledger.`)
  return answer
}
