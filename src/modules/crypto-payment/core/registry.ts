import { createHash } from "node:crypto"
import { PaymentCore, type CoreSetup } from "./payment-core"
import { parseCryptoOptions } from "./options"

/** A crypto provider as the shop registered it: Medusa's id for it and its options as written. */
export type Registration = { providerId: string; options: unknown }

/**
 * The process's payment cores, one per provider registration, built by whoever asks first (the provider
 * from the options Medusa hands it, a route or the job from the configuration). A provider's container
 * cannot reach the plugin's module, so this map is the one place both find the same core: STYLE.md's
 * single allowed process-level state. Keyed by the options too: Medusa's test runner loads the
 * configuration again while keeping module instances.
 */
const cores = new Map<string, PaymentCore>()

let build = (setup: CoreSetup) => new PaymentCore(setup)

/** The registration's core, built on first use in this process. */
export function coreOf(registration: Registration, env: Pick<CoreSetup, "db" | "logger">): PaymentCore {
  const key = `${registration.providerId}\n${fingerprint(registration.options)}`
  let core = cores.get(key)
  if (!core) {
    core = build({ providerId: registration.providerId, options: parseCryptoOptions(registration.options), ...env })
    cores.set(key, core)
  }
  return core
}

/** Empties the registry (cores.ts's forgetCores); a unit test may also hand in how cores are built. */
export function emptyRegistry(builder?: (setup: CoreSetup) => PaymentCore): void {
  cores.clear()
  build = builder ?? ((setup) => new PaymentCore(setup))
}

/** The options' hash (never the options themselves: they hold the API key). */
function fingerprint(options: unknown): string {
  return createHash("sha256").update(stableJson(options)).digest("base64url")
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`)
      .join(",")}}`
  return JSON.stringify(value) ?? "null"
}
