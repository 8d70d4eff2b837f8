import path from "node:path"
import * as utils from "@medusajs/framework/utils"
import { ConfigLike, paymentProvidersOf, PaymentProviderEntry } from "../../../lib/setup-health/configuration"
import type { Registration } from "./registry"

/** The crypto provider class's `identifier`: Medusa registers it as `pp_crypto_<id>` (`pp_crypto` without an id). */
export const CRYPTO_PROVIDER_IDENTIFIER = "crypto"

/** Medusa's id for a provider service registered from an entry (the payment module's loader does the same). */
export const providerIdOf = (identifier: string, id: unknown) =>
  `pp_${identifier}${typeof id === "string" && id ? `_${id}` : ""}`

type LoadedProvider = { services?: Array<{ identifier?: unknown }> }

/**
 * A package name or path resolved from the project, as Medusa resolves providers (its own helper from 2.19;
 * before it, Node's resolution from the project directory does the same).
 */
function fromProject(id: string): string {
  const own = (utils as { resolveFromProject?: (id: string) => string }).resolveFromProject
  if (own) return own(id)
  if (path.isAbsolute(id)) return id
  try {
    return require.resolve(id, { paths: [process.cwd()] })
  } catch {
    return id
  }
}

/** Loads an entry's module as Medusa's module-provider loader does: a package name or path from the project, or the module itself. */
async function load(entry: PaymentProviderEntry): Promise<LoadedProvider> {
  let loaded: unknown = entry.resolve
  if (typeof entry.resolve === "string") {
    try {
      loaded = await utils.dynamicImport(fromProject(utils.normalizeImportPathWithSource(entry.resolve)))
    } catch (error) {
      throw new Error(
        `medusa-payment-crypto: the payment provider "${entry.resolve}" of medusa-config.ts cannot be loaded, so the plugin cannot tell whether it is a crypto provider (${(error as Error).message})`
      )
    }
  }
  const module = loaded as { default?: LoadedProvider } & LoadedProvider
  return module?.default ?? module ?? {}
}

const found = new WeakMap<object, Promise<Registration[]>>()

/** Payment-module providers whose services include the crypto identifier, with Medusa's id for each. */
export function cryptoRegistrations(config: ConfigLike): Promise<Registration[]> {
  let registrations = found.get(config)
  if (!registrations) {
    registrations = identify(config)
    found.set(config, registrations)
    registrations.catch(() => found.delete(config))
  }
  return registrations
}

async function identify(config: ConfigLike): Promise<Registration[]> {
  const registrations: Registration[] = []
  for (const entry of paymentProvidersOf(config)) {
    const { services = [] } = await load(entry)
    for (const service of services)
      if (service?.identifier === CRYPTO_PROVIDER_IDENTIFIER)
        registrations.push({ providerId: providerIdOf(CRYPTO_PROVIDER_IDENTIFIER, entry.id), options: entry.options })
  }
  return registrations
}

/**
 * The registration whose options are these very options (Medusa hands a provider the object of its entry):
 * how a provider knows its own id while it is constructed. Undefined outside a configuration.
 */
export function registrationOfOptions(config: ConfigLike | undefined, options: unknown): Registration | undefined {
  const entry = config ? paymentProvidersOf(config).find((p) => p.options === options) : undefined
  return entry ? { providerId: providerIdOf(CRYPTO_PROVIDER_IDENTIFIER, entry.id), options } : undefined
}
