import { createHash } from "node:crypto"
import { PaymentCore, type CoreSetup } from "./payment-core"
import { parseCryptoOptions } from "./options"

/** A crypto provider as the shop registered it: Medusa's id for it and its options as written. */
export type Registration = { providerId: string; options: unknown }

/**
 * A provider's container cannot reach the plugin's module, so this map is the one place both find the
 * same core. Keyed by the options too: Medusa may load the configuration again while keeping modules.
 */
const cores = new Map<string, PaymentCore>()

let build = (setup: CoreSetup) => new PaymentCore(setup)

export function coreOf(registration: Registration, env: Pick<CoreSetup, "db" | "logger">): PaymentCore {
  const key = `${registration.providerId}\n${fingerprint(registration.options)}`
  let core = cores.get(key)
  if (!core) {
    core = build({ providerId: registration.providerId, options: parseCryptoOptions(registration.options), ...env })
    cores.set(key, core)
  }
  return core
}

/** Empties the registry (cores.ts's forgetCores); `builder` is injectable. */
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
