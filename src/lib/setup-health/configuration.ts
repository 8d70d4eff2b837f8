/**
 * What setup health reads from the shop's configuration (the resolved medusa-config.ts): the
 * locking provider, the worker mode, and the crypto providers with their options.
 */

/** The part of Medusa's ConfigModule read here (modules as an object by key, or as written: a list). */
export type ConfigLike = {
  projectConfig?: { workerMode?: string }
  modules?: Record<string, unknown> | unknown[]
}

type ModuleEntry = { resolve?: unknown; options?: { providers?: unknown } }
type ProviderEntry = { resolve?: unknown; id?: unknown; options?: unknown; is_default?: unknown }

export type LockingKind = "redis" | "postgres" | "in-process" | "other"

const entriesOf = (config: ConfigLike): Array<[string, ModuleEntry]> => {
  const modules = config.modules ?? {}
  const list = Array.isArray(modules)
    ? modules.map((m, i) => [String(i), m] as [string, unknown])
    : Object.entries(modules)
  return list.filter(([, m]) => !!m && typeof m === "object") as Array<[string, ModuleEntry]>
}

const resolveOf = (entry: { resolve?: unknown }) => (typeof entry.resolve === "string" ? entry.resolve : "")

const providersOf = (entry: ModuleEntry): ProviderEntry[] =>
  Array.isArray(entry.options?.providers)
    ? (entry.options!.providers as unknown[]).filter((p): p is ProviderEntry => !!p && typeof p === "object")
    : []

/** The locking module's default provider, by kind, and its resolve path as written. */
export function lockingOf(config: ConfigLike): { kind: LockingKind; provider: string } {
  const locking = entriesOf(config).find(([key, m]) => key === "locking" || /\/locking$/.test(resolveOf(m)))
  const providers = locking ? providersOf(locking[1]) : []
  const chosen = providers.find((p) => p.is_default === true) ?? providers[0]
  const provider = chosen ? resolveOf(chosen) : ""
  if (!provider) return { kind: "in-process", provider: "in-memory (Medusa's default)" }
  if (/locking-redis/.test(provider)) return { kind: "redis", provider }
  if (/locking-postgres/.test(provider)) return { kind: "postgres", provider }
  return { kind: "other", provider }
}

export const workerModeOf = (config: ConfigLike): string => config.projectConfig?.workerMode ?? "shared"

/** A provider of the payment module's configuration, as written (`resolve` a package, a path or a loaded module). */
export type PaymentProviderEntry = { resolve?: unknown; id?: unknown; options?: unknown }

/** The payment module's providers in the configuration: under the `payment` key or a module resolving to it. */
export function paymentProvidersOf(config: ConfigLike): PaymentProviderEntry[] {
  const payment = entriesOf(config).find(([key, m]) => key === "payment" || /\/payment$/.test(resolveOf(m)))
  return payment ? providersOf(payment[1]) : []
}
