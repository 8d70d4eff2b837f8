import type { Knex } from "knex"
import { CryptoApiClient } from "../../lib/crypto-api/client"
import { bootLine, HealthCheck } from "../../lib/setup-health/checks"
import type { ConfigLike } from "../../lib/setup-health/configuration"
import { providerChecks } from "../../lib/setup-health/provider-checks"
import type { PluginLog } from "../../lib/runtime/log"
import { parseCryptoOptions } from "./core/options"
import { cryptoRegistrations } from "./core/registrations"
import { deploymentChecks } from "./setup-health"
import { SecretStore } from "./secret-store"
import { open, secretsKeyFrom, SECRETS_KEY_ENV } from "../../lib/domain/secret-box"

/** The longest the API key's read may hold up a process's start. */
export const BOOT_READ_TIMEOUT_MS = 3_000

/**
 * The admin's setup health once at the start of each process, each red line logged. Never throws: a
 * check that cannot run is not a reason to stop the shop.
 */
export async function bootCheck(db: Knex, config: ConfigLike, log: PluginLog, selfId?: string): Promise<HealthCheck[]> {
  const checks = await deploymentChecks(db, config, selfId).catch((error) => {
    log.warn(`setup check could not read the database: ${(error as Error)?.message}`)
    return [] as HealthCheck[]
  })
  const registrations = await cryptoRegistrations(config).catch((error) => {
    log.warn(`setup check could not identify the crypto providers: ${(error as Error)?.message}`)
    return []
  })
  for (const { providerId, options } of registrations) {
    let parsed: ReturnType<typeof parseCryptoOptions>
    try {
      parsed = parseCryptoOptions(options)
    } catch {
      continue // the provider itself refuses to boot with these options, and says why
    }
    const client = new CryptoApiClient({
      baseUrl: parsed.baseUrl,
      apiKey: (await savedApiKey(db, providerId)) ?? parsed.apiKey,
      // the start waits for this read (it lands before the first request is served): never long
      timeoutMs: Math.min(parsed.requestTimeoutMs, BOOT_READ_TIMEOUT_MS),
      retry: { retries: 0 },
    })
    checks.push(...(await providerChecks({ providerId, ...parsed, client })))
  }
  for (const check of checks) if (check.level === "red") log.warn(bootLine(check))
  return checks
}

/** The API key an admin saved for the provider, when CRYPTO_SECRETS_KEY opens it: the one the provider sends. */
async function savedApiKey(db: Knex, providerId: string): Promise<string | undefined> {
  try {
    const secretsKey = secretsKeyFrom(process.env[SECRETS_KEY_ENV])
    const row = secretsKey ? await new SecretStore(() => db).read(providerId, "api_key") : undefined
    return (row && secretsKey && open(secretsKey, { providerId, name: "api_key" }, row.sealed)) || undefined
  } catch {
    return undefined // no table yet, or a bad CRYPTO_SECRETS_KEY (the provider stops the boot naming it)
  }
}
