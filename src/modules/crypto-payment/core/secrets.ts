import { MedusaError } from "@medusajs/framework/utils"
import { isMissingTable } from "../missing-table"
import { generateSecret, isLastFourOf, lastFour, open, seal, type SecretsKey } from "../../../lib/domain/secret-box"
import { signingKeyOf } from "../../../lib/domain/webhook-token"
import type { PluginLog } from "../../../lib/runtime/log"
import type { MintingSource, SecretsState } from "./types"
import type { SecretName, SecretStore, StoredSecret } from "../secret-store"
import type { AcknowledgeableState } from "../../../lib/domain/acknowledgement"
import { apiKeyStateOf } from "../../../lib/domain/api-key-state"

/** How long a process keeps what it read of the stored secrets: another process's new API key is used within this. */
export const SECRETS_REFRESH_MS = 30_000
/** How long a process keeps whether older tokens' payments are still watched. */
const LEGACY_CHECK_MS = 5 * 60_000

/**
 * An API key change refused for last four characters that are not the key in use's, logged where it is
 * refused with who asked: the route answers it itself, since Medusa's error handler would log it again.
 */
export class ApiKeyChangeRefused extends MedusaError {
  constructor() {
    super(
      MedusaError.Types.FORBIDDEN,
      "These are not the last four characters of the API key in use, so it was not replaced: check them on the policy panel, under Keys.",
      "crypto.current_key_mismatch"
    )
  }
}

type Dependencies = {
  options: { apiKey: string; webhookSecret?: string; acceptedWebhookSecrets: string[] }
  /** The provider's id (pp_crypto_<id>), found once the container can say it; null: stored secrets are not used. */
  providerId: () => string | null
  store: Pick<SecretStore, "read" | "keepFirst" | "replace" | "watchesPaymentsBefore">
  secretsKey: SecretsKey | null
  log: PluginLog
  now?: () => number
}

type Loaded = {
  at: number
  apiKey: string
  apiKeyRow?: StoredSecret
  apiKeyUnreadable: boolean
  minting: Buffer
  mintingSource: MintingSource
  /** When the minting secret began minting, when known (the generated one's creation). */
  mintingSince?: Date
  /** Keys of earlier minting secrets (the API key's, a generated one) accepted while their payments are watched. */
  legacy: Buffer[]
}

/**
 * A stale copy serves while a fresh one is read, so no checkout waits on it after the first. Tokens
 * also verify with earlier minting keys while their payments are still watched: a rotation loses no
 * webhook of an open payment.
 */
export class ProviderSecrets {
  private loaded?: Loaded
  private loading?: Promise<Loaded>
  private legacyWatched?: { at: number; watched: boolean; checking?: Promise<boolean> }
  private readonly accepted: Buffer[]
  private readonly now: () => number

  constructor(private readonly deps: Dependencies) {
    this.accepted = deps.options.acceptedWebhookSecrets.map(signingKeyOf)
    this.now = deps.now ?? Date.now
  }

  async apiKey(): Promise<string> {
    return (await this.current()).apiKey
  }

  /** The key that mints webhook tokens (and refund-link tokens). */
  async mintingKey(): Promise<Buffer> {
    return (await this.current()).minting
  }

  /** Every key a token may have been minted with: the minting one first. */
  async verifyingKeys(): Promise<Buffer[]> {
    const loaded = await this.current()
    const keys = [loaded.minting, ...this.accepted]
    if (loaded.legacy.length && (await this.legacyStillWatched(loaded))) keys.push(...loaded.legacy)
    return keys
  }

  forget(): void {
    this.loaded = undefined
    this.legacyWatched = undefined
  }

  async state(): Promise<SecretsState> {
    const loaded = await this.current()
    return {
      canStore: !!this.deps.secretsKey,
      apiKey: {
        source: loaded.apiKeyRow && !loaded.apiKeyUnreadable ? "admin" : "option",
        lastFour: lastFour(loaded.apiKey),
        savedBy: loaded.apiKeyRow?.saved_by ?? null,
        savedAt: loaded.apiKeyRow ? new Date(loaded.apiKeyRow.updated_at).toISOString() : null,
        unreadable: loaded.apiKeyUnreadable,
      },
      webhookSecret: {
        source: loaded.mintingSource,
        accepted: this.accepted.length,
        legacyAccepted: loaded.legacy.length > 0 && (await this.legacyStillWatched(loaded)),
      },
    }
  }

  /**
   * Once the admin confirmed the last four of the key in use (read afresh: another process may have
   * replaced it) and `check` passed. Nothing changes when another save came first.
   */
  async saveApiKey(
    change: { apiKey: string; currentLastFour: string | null; actorId: string | null; byAdmin?: boolean },
    check: (apiKey: string) => Promise<void>
  ) {
    const { apiKey, currentLastFour, actorId, byAdmin = false } = change
    const providerId = this.deps.providerId()
    if (!this.deps.secretsKey || !providerId)
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        "The API key can only come from medusa-config.ts: set CRYPTO_SECRETS_KEY in the server's environment (openssl rand -base64 32) and restart to save it from the admin."
      )
    const inUse = await this.load()
    this.confirmChange(providerId, inUse.apiKey, currentLastFour, actorId)
    await check(apiKey)
    const sealed = seal(this.deps.secretsKey, { providerId, name: "api_key" }, apiKey)
    const acknowledged = { providerId, subject: "api_key" as const, actorId }
    const saved = await this.deps.store.replace(
      providerId,
      "api_key",
      sealed,
      lastFour(apiKey),
      actorId,
      inUse.apiKeyRow?.sealed ?? null,
      {
        // the state it replaces, when none was recorded yet: an unacknowledged save is compared with it
        before: { ...acknowledged, ...this.stateOf(inUse), how: "first_sight", actorId: null },
        // an admin signed in to the dashboard saved it on purpose: the save is the acknowledgement
        saved: byAdmin
          ? {
              ...acknowledged,
              ...apiKeyStateOf({ source: "admin", inUse: apiKey, config: this.deps.options.apiKey }),
              how: "saved",
            }
          : undefined,
      }
    )
    this.forget()
    if (!saved)
      throw new MedusaError(
        MedusaError.Types.FORBIDDEN,
        "The API key was replaced by someone else meanwhile, so yours was not saved: reload the policy panel and confirm with the last four characters of the key now in use.",
        "crypto.current_key_mismatch"
      )
    this.deps.log.info(
      `API key of ${providerId} replaced from the admin by ${actorId ?? "an unknown actor"} (…${lastFour(apiKey)}${saved.replaced ? `, was …${saved.replaced}` : ", was medusa-config's"})`
    )
    return { lastFour: lastFour(apiKey), replaced: saved.replaced }
  }

  /** Which API key is in use and medusa-config's, read afresh: what the setup health asks an admin to acknowledge. */
  async keyState(): Promise<AcknowledgeableState> {
    return this.stateOf(await this.load())
  }

  private stateOf(loaded: Loaded): AcknowledgeableState {
    const source = loaded.apiKeyRow && !loaded.apiKeyUnreadable ? "admin" : "option"
    return apiKeyStateOf({ source, inUse: loaded.apiKey, config: this.deps.options.apiKey })
  }

  /** The admin typed the last four characters of the key in use (none asked while no key is in use). */
  private confirmChange(providerId: string, keyInUse: string, typed: string | null, actorId: string | null) {
    if (!lastFour(keyInUse)) return
    if (!typed?.trim())
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        "Confirm the change with the last four characters of the API key in use (current_key_last4): the policy panel shows them under Keys. Nothing was changed.",
        "crypto.current_key_required"
      )
    if (!isLastFourOf(keyInUse, typed)) {
      this.deps.log.warn(
        `API key change of ${providerId} refused for ${actorId ?? "an unknown actor"}: the last four characters given are not those of the key in use`
      )
      throw new ApiKeyChangeRefused()
    }
  }

  private async current(): Promise<Loaded> {
    const loaded = this.loaded
    if (loaded && this.now() - loaded.at < SECRETS_REFRESH_MS) return loaded
    this.loading ??= this.load().finally(() => (this.loading = undefined))
    if (!loaded) return this.loading
    // a stale copy serves while the fresh one is read; a failed read keeps it until the next try
    this.loading.catch((error) => this.deps.log.warn(`could not read the stored crypto secrets (${error?.message})`))
    return loaded
  }

  private async load(): Promise<Loaded> {
    const { options, secretsKey } = this.deps
    const providerId = this.deps.providerId()
    const derived = signingKeyOf(options.apiKey)
    const stored: Partial<Awaited<ReturnType<ProviderSecrets["storedSecrets"]>>> =
      secretsKey && providerId ? await this.storedSecrets(providerId, secretsKey).catch(this.beforeMigration) : {}
    const apiKey = stored.apiKey ?? options.apiKey
    let minting: Pick<Loaded, "minting" | "mintingSource" | "mintingSince">
    if (options.webhookSecret) minting = { minting: signingKeyOf(options.webhookSecret), mintingSource: "option" }
    else if (stored.webhookSecret)
      minting = {
        minting: signingKeyOf(stored.webhookSecret.value),
        mintingSource: "generated",
        mintingSince: new Date(stored.webhookSecret.row.created_at),
      }
    else minting = { minting: derived, mintingSource: "api_key" }
    const legacy = [derived, ...(stored.webhookSecret ? [signingKeyOf(stored.webhookSecret.value)] : [])].filter(
      (key) => !key.equals(minting.minting)
    )
    const loaded: Loaded = {
      at: this.now(),
      apiKey,
      apiKeyRow: stored.apiKeyRow,
      apiKeyUnreadable: !!stored.apiKeyRow && stored.apiKey === undefined,
      ...minting,
      legacy,
    }
    this.loaded = loaded
    return loaded
  }

  /**
   * No crypto_secret table yet (the shop has not run db:migrate; the setup health says so): nothing is
   * stored, medusa-config's keys serve. Any other failure is thrown: keys guessed wrong would mint
   * webhook URLs that never verify.
   */
  private readonly beforeMigration = (error: unknown): Record<string, never> => {
    if (!isMissingTable(error)) throw error
    this.deps.log.warn("the table of stored keys is missing (run npx medusa db:migrate): medusa-config's keys are used")
    return {}
  }

  /** The stored API key (opened), and the webhook secret, generated and stored on first need. */
  private async storedSecrets(providerId: string, secretsKey: SecretsKey) {
    const opened = (name: SecretName, row: StoredSecret | undefined) => {
      if (!row) return undefined
      const value = open(secretsKey, { providerId, name }, row.sealed)
      if (value === null)
        this.deps.log.error(
          `the stored ${name === "api_key" ? "API key" : "webhook secret"} of ${providerId} cannot be opened with CRYPTO_SECRETS_KEY (was it changed?); ${name === "api_key" ? "medusa-config's API key is used" : "a webhook secret from medusa-config is needed"}. Save the key again from the admin.`
        )
      return value ?? undefined
    }
    const [apiKeyRow, secretRow] = await Promise.all([
      this.deps.store.read(providerId, "api_key"),
      this.deps.options.webhookSecret ? undefined : this.generatedSecretRow(providerId, secretsKey),
    ])
    const webhookValue = opened("webhook_secret", secretRow)
    return {
      apiKeyRow,
      apiKey: opened("api_key", apiKeyRow),
      webhookSecret: secretRow && webhookValue ? { row: secretRow, value: webhookValue } : undefined,
    }
  }

  private async generatedSecretRow(providerId: string, secretsKey: SecretsKey): Promise<StoredSecret> {
    const existing = await this.deps.store.read(providerId, "webhook_secret")
    if (existing) return existing
    const sealed = seal(secretsKey, { providerId, name: "webhook_secret" }, generateSecret())
    const kept = await this.deps.store.keepFirst(providerId, "webhook_secret", sealed, "plugin")
    this.deps.log.info(
      `generated the webhook secret of ${providerId} and stored it sealed: webhook URLs are no longer derived from the API key`
    )
    return kept
  }

  /** Whether payments whose tokens an earlier minting key signed are still watched (kept LEGACY_CHECK_MS). */
  private async legacyStillWatched(loaded: Loaded): Promise<boolean> {
    const providerId = this.deps.providerId()
    if (!providerId) return true
    const kept = this.legacyWatched
    if (kept && this.now() - kept.at < LEGACY_CHECK_MS) return kept.watched
    if (kept?.checking) return kept.checking
    const before = loaded.mintingSince ?? new Date(this.now())
    const checking = this.deps.store
      .watchesPaymentsBefore(providerId, before)
      .then((watched) => {
        this.legacyWatched = { at: this.now(), watched }
        return watched
      })
      .catch(() => {
        // unknown: keep accepting (a forged token costs at most one rate-limited status read)
        this.legacyWatched = undefined
        return true
      })
    this.legacyWatched = { at: kept?.at ?? 0, watched: kept?.watched ?? true, checking }
    return checking
  }
}
