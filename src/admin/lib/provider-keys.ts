/**
 * The policy panel's "Keys": where a provider's API key and webhook secret come from, in the admin's
 * language, and whether a pasted key is worth sending. Never a key: its last four characters at most.
 */
import { formatDateTime } from "./format"
import type { Translate } from "./i18n"
import type { CryptoSettingChange, ProviderSecrets, WebhookSecretSource } from "./payment-types"

type ApiKeyState = ProviderSecrets["api_key"]

/** A key as the admin sees it: four dots, then its last four characters ("••••7Q9Z"). */
export const maskedKey = (lastFour: string) => `••••${lastFour}`

/**
 * Who saved the provider's key from the admin: the settings name a user id only, so the email is the
 * change log's, from the newest API key change that user made; else the id (null: nobody is named).
 */
export function apiKeySaver(providerId: string, apiKey: ApiKeyState, changes: CryptoSettingChange[]): string | null {
  if (!apiKey.saved_by) return null
  const change = changes.find(
    (c) => c.provider_id === providerId && c.field === "api_key" && c.actor_id === apiKey.saved_by && c.actor_email
  )
  return change?.actor_email ?? apiKey.saved_by
}

/**
 * Where the key in use comes from: "from medusa-config.ts", or "saved from the admin by … on …". A saved
 * key that no longer opens is not in use (medusa-config's is): the server says "option" then.
 */
export function apiKeySourceText(
  t: Translate,
  locale: string | undefined,
  providerId: string,
  apiKey: ApiKeyState,
  changes: CryptoSettingChange[]
): string {
  if (apiKey.source !== "admin") return t("policy.keys.fromConfig")
  return t("policy.keys.fromAdmin", {
    who: apiKeySaver(providerId, apiKey, changes) ?? "—",
    date: apiKey.saved_at ? formatDateTime(apiKey.saved_at, locale) : "—",
  })
}

/**
 * Null while it cannot be a key: the server's rule (AdminCryptoApiKey, not imported: nothing of the
 * server reaches the admin's bundle), 8 to 500 printable characters without spaces.
 */
export function apiKeyToSend(text: string): string | null {
  const key = text.trim()
  return key.length >= 8 && key.length <= 500 && /^[\x21-\x7e]+$/.test(key) ? key : null
}

export const apiKeyTypedWrong = (text: string) => text.trim() !== "" && apiKeyToSend(text) === null

/**
 * As many characters as the panel shows after the dots (four; fewer for a shorter key). Whether they are
 * the key's is the server's to say.
 */
export function currentLastFourToSend(text: string, shownLastFour: string): string | null {
  const typed = text.trim()
  return typed !== "" && typed.length === shownLastFour.length ? typed : null
}

export const currentLastFourTypedWrong = (text: string, shownLastFour: string) =>
  text.trim() !== "" && currentLastFourToSend(text, shownLastFour) === null

/** The webhook secret's sources (the server's codes), each worded under `policy.keys.webhookSources`. */
const WEBHOOK_SOURCES: readonly WebhookSecretSource[] = ["option", "generated", "api_key"]

const isWebhookSource = (source: string): source is WebhookSecretSource =>
  WEBHOOK_SOURCES.some((known) => known === source)

/** Where the webhook URLs' signing secret comes from; a source this admin does not know shows as its code. */
export function webhookSecretSourceText(t: Translate, source: string): string {
  return isWebhookSource(source) ? t(`policy.keys.webhookSources.${source}`) : source
}

/**
 * Derived from the API key: rotating the key would break the webhook URLs of open payments (they would
 * settle by reconciliation, late), so the panel says it in amber, as the health does.
 */
export const webhookSecretWarns = (source: string) => source === "api_key"

/** "2 older secrets still accepted" (acceptedWebhookSecrets); null when none is. */
export function acceptedSecretsText(t: Translate, accepted: number): string | null {
  if (accepted <= 0) return null
  return accepted === 1 ? t("policy.keys.acceptedOne") : t("policy.keys.acceptedMany", { number: accepted })
}

/** An API key change of the log ("…7Q9Z"), as sent; none before it is medusa-config's key. */
export function apiKeyChangeText(t: Translate, value: string | null): string {
  return value === null || value === "" ? t("policy.keys.configFile") : value
}
