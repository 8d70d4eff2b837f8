import type { IPaymentModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import type { Knex } from "knex"
import type { ConfigLike } from "../../../lib/setup-health/configuration"
import { CRYPTO_PROVIDER_IDENTIFIER, cryptoRegistrations } from "./registrations"
import { coreOf, emptyRegistry } from "./registry"
import type { PaymentCore } from "./payment-core"

/** Provider ids of this plugin: `pp_crypto`, or `pp_crypto_<id from the shop's config>`. */
export const CRYPTO_PROVIDER = new RegExp(`^pp_${CRYPTO_PROVIDER_IDENTIFIER}(?:_|$)`)

let enabledOf = new WeakMap<object, Promise<Set<string>>>()

/**
 * Read once per application, keyed by its configuration (the payment module a scope resolves is a new
 * proxy each time, so it cannot key a cache); a failed read is not kept. Medusa 2.21 leaves a provider
 * removed from the configuration enabled, so the configuration says which are registered; this list only
 * confirms them.
 */
function enabledCryptoProviders(config: ConfigLike, payments: IPaymentModuleService): Promise<Set<string>> {
  let ids = enabledOf.get(config)
  if (!ids) {
    ids = payments
      .listPaymentProviders({ is_enabled: true }, { select: ["id"] })
      .then((providers) => new Set(providers.map((p) => p.id).filter((id) => CRYPTO_PROVIDER.test(id))))
    enabledOf.set(config, ids)
    ids.catch(() => enabledOf.delete(config))
  }
  return ids
}

/**
 * The configuration's registrations, each confirmed by the payment module. One it does not know means an
 * id computed otherwise than Medusa's, which would read payments with the wrong key: that stops here.
 */
export async function cryptoCores(scope: MedusaContainer): Promise<PaymentCore[]> {
  const config = scope.resolve(ContainerRegistrationKeys.CONFIG_MODULE) as ConfigLike
  const [registrations, enabled] = await Promise.all([
    cryptoRegistrations(config),
    enabledCryptoProviders(config, scope.resolve(Modules.PAYMENT)),
  ])
  const unconfirmed = registrations.filter((r) => !enabled.has(r.providerId)).map((r) => r.providerId)
  if (unconfirmed.length)
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `medusa-payment-crypto: the payment module has no enabled provider ${unconfirmed.join(", ")} of medusa-config.ts (it has ${[...enabled].join(", ") || "none"}).`
    )
  const env = {
    db: () => scope.resolve(ContainerRegistrationKeys.PG_CONNECTION) as Knex,
    logger: scope.resolve(ContainerRegistrationKeys.LOGGER) as Logger,
  }
  return registrations.map((registration) => coreOf(registration, env))
}

/** The core of a provider (a ledger row's), else the shop's first: NOT_FOUND when none is registered. */
export async function cryptoCore(scope: MedusaContainer, providerId?: string | null): Promise<PaymentCore> {
  const cores = await cryptoCores(scope)
  const core = (providerId && cores.find((c) => c.providerId === providerId)) || cores[0]
  if (!core)
    throw new MedusaError(MedusaError.Types.NOT_FOUND, "No crypto payment provider is registered in medusa-config.ts.")
  return core
}

/** An answer about a ledger payment, or NOT_FOUND when the core found no such payment in the ledger. */
export function inLedger<T>(answer: T | null, paymentId: string): T {
  if (answer === null)
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Crypto payment ${paymentId} is not in the ledger.`)
  return answer
}

/**
 * A notification at the plugin's webhook URL: the core whose webhook key minted the token reads the payment
 * it is about. UNAUTHORIZED when no provider minted it; null when the token is good but names no payment.
 */
export async function notifiedReport(scope: MedusaContainer, token: string, body: unknown) {
  let refusal: unknown = new MedusaError(MedusaError.Types.UNAUTHORIZED, "Invalid webhook token.")
  for (const core of await cryptoCores(scope)) {
    try {
      return await core.notified(token, body)
    } catch (error) {
      if (!(error instanceof MedusaError && error.type === MedusaError.Types.UNAUTHORIZED)) throw error
      refusal = error
    }
  }
  throw refusal
}

/** Forgets the process's cores and the enabled providers read (the module's shutdown). */
export function forgetCores(builder?: Parameters<typeof emptyRegistry>[0]): void {
  emptyRegistry(builder)
  enabledOf = new WeakMap()
}
