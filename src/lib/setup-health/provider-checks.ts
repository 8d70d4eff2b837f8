import type { CryptoApiClient } from "../crypto-api/client"
import { CryptoApiError } from "../crypto-api/errors"
import { webhookUrl } from "../domain/webhook-token"
import type { HealthCheck } from "./checks"
import type { SecretsState } from "../domain/secrets-state"

/** What a provider's own checks need: its id, the options that matter, and a way to read the balances. */
export type ProviderCheckInput = {
  providerId: string
  baseUrl: string
  backendUrl?: string
  reconcileIntervalSeconds: number
  client: Pick<CryptoApiClient, "getBalances">
}

const isLoopbackOrPrivate = (host: string) =>
  host === "localhost" ||
  host === "::1" ||
  /^127\./.test(host) ||
  /^10\./.test(host) ||
  /^192\.168\./.test(host) ||
  /^172\.(1[6-9]|2\d|3[01])\./.test(host) ||
  host.endsWith(".local") ||
  host.endsWith(".internal")

const hostOf = (url: string) => new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase()

/** The API key: accepted when a balances read succeeds. Never names the key. */
export async function apiKeyCheck(input: ProviderCheckInput): Promise<HealthCheck> {
  const line = { id: "api_key", provider_id: input.providerId, label: "API key" }
  try {
    const summary = await input.client.getBalances()
    const who = summary.businessName ?? summary.merchantId
    return {
      ...line,
      level: "green",
      detail: `The payment service accepted the API key${who ? ` (merchant ${who})` : ""}.`,
    }
  } catch (error) {
    const apiError = CryptoApiError.from(error)
    if (apiError?.kind === "http" && (apiError.status === 401 || apiError.status === 403)) {
      return {
        ...line,
        level: "red",
        detail: `The payment service refused the API key (HTTP ${apiError.status}): no payment can be created.`,
        action:
          "Copy the API key from the service's dashboard into the crypto provider's apiKey option in medusa-config.ts and restart.",
      }
    }
    const why = apiError ? apiError.message : "an unexpected error"
    return {
      ...line,
      level: "red",
      detail: `The payment service could not be asked at ${input.baseUrl} (${why}).`,
      action:
        "Check the provider's baseUrl and that this server can reach the service; look at the service's status page.",
    }
  }
}

/** The webhook URL the plugin hands the service with every invoice (its token shown as a placeholder). */
export function webhookUrlCheck(input: ProviderCheckInput): HealthCheck {
  const line = { id: "webhook_url", provider_id: input.providerId, label: "Webhook URL" }
  if (!input.backendUrl) {
    return {
      ...line,
      level: "amber",
      detail: `backendUrl is not set, so the service is never notified: payments settle by the reconciliation job, up to ${input.reconcileIntervalSeconds} s late.`,
      action: "Set the crypto provider's backendUrl option to this Medusa backend's public URL.",
    }
  }
  const url = webhookUrl(input.backendUrl, "<token>")
  const host = hostOf(input.backendUrl)
  if (isLoopbackOrPrivate(host) && !isLoopbackOrPrivate(hostOf(input.baseUrl))) {
    return {
      ...line,
      level: "amber",
      detail: `The service is told to notify ${url}, an address it cannot reach from the internet.`,
      action:
        "Set backendUrl to the backend's public URL (the one the service can call), not a local or private address.",
    }
  }
  if (new URL(input.backendUrl).protocol === "http:" && !isLoopbackOrPrivate(host)) {
    return {
      ...line,
      level: "amber",
      detail: `The service is told to notify ${url} over plain HTTP: the URL's token travels unencrypted.`,
      action: "Serve the backend over HTTPS and set backendUrl to its https:// URL.",
    }
  }
  return { ...line, level: "green", detail: `The service is told to notify ${url} for every payment.` }
}

/**
 * The provider's id: one registered as `pp_…` in medusa-config.ts becomes `pp_crypto_pp_…`, and
 * Medusa 2.21.0 adds `pp_` once more on its /hooks/payment route, so dashboard webhooks miss it.
 */
export function providerIdCheck(input: ProviderCheckInput): HealthCheck {
  const line = { id: "provider_id", provider_id: input.providerId, label: "Provider id" }
  const bare = input.providerId.replace(/^pp_/, "")
  const hooks = input.backendUrl
    ? `${input.backendUrl.replace(/\/+$/, "")}/hooks/payment/${bare}`
    : `/hooks/payment/${bare}`
  if (/(^|_)pp_/.test(bare.replace(/^crypto_/, ""))) {
    return {
      ...line,
      level: "amber",
      detail: `The provider is registered as ${input.providerId}: its id repeats the pp_ prefix Medusa adds, and a webhook set in the service's dashboard for ${hooks} may not reach it.`,
      action:
        'Give the provider a plain id in medusa-config.ts (id: "crypto"); the plugin\'s own webhook URL works either way.',
    }
  }
  return {
    ...line,
    level: "green",
    detail: `Registered as ${input.providerId}; a webhook set in the service's dashboard goes to ${hooks}.`,
  }
}

/**
 * Amber while the webhook secret is derived from the API key (rotating the key would break the URLs of
 * open payments) or older secrets are still accepted; red when a saved key no longer opens.
 */
export function webhookSecretCheck(providerId: string, secrets: SecretsState): HealthCheck {
  const line = { id: "webhook_secret", provider_id: providerId, label: "Keys" }
  if (secrets.apiKey.unreadable)
    return {
      ...line,
      level: "red",
      detail:
        "The API key saved from the admin cannot be opened with CRYPTO_SECRETS_KEY (was it changed?): medusa-config's API key is used instead.",
      action: "Restore the CRYPTO_SECRETS_KEY the key was saved under, or save the API key again on the policy panel.",
    }
  if (secrets.webhookSecret.source === "api_key")
    return {
      ...line,
      level: "amber",
      detail:
        "Webhook URLs are signed with a secret derived from the API key: rotating the key would make the service's notifications for open payments fail (they would settle by reconciliation, up to an interval late).",
      action:
        "Set webhookSecret before you rotate the key (or set CRYPTO_SECRETS_KEY and the plugin generates and stores one).",
    }
  if (secrets.webhookSecret.accepted > 0)
    return {
      ...line,
      level: "amber",
      detail: `${secrets.webhookSecret.accepted} older webhook secret${secrets.webhookSecret.accepted === 1 ? " is" : "s are"} still accepted (acceptedWebhookSecrets).`,
      action:
        "Remove them from acceptedWebhookSecrets once lateWindowHours have passed since the rotation: payments created before it are no longer watched then.",
    }
  const minting =
    secrets.webhookSecret.source === "option" ? "the configured webhookSecret" : "a generated secret stored sealed"
  const key =
    secrets.apiKey.source === "admin" ? `saved from the admin (…${secrets.apiKey.lastFour})` : "from medusa-config.ts"
  return { ...line, level: "green", detail: `Webhook URLs are signed with ${minting}; the API key is ${key}.` }
}

export async function providerChecks(input: ProviderCheckInput): Promise<HealthCheck[]> {
  return [await apiKeyCheck(input), webhookUrlCheck(input), providerIdCheck(input)]
}
