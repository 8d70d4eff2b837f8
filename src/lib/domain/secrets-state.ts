/** Where the key that mints webhook tokens comes from. */
export type MintingSource = "option" | "generated" | "api_key"

/** What the admin sees of a provider's secrets: never a value, only where each comes from. */
export type SecretsState = {
  /** CRYPTO_SECRETS_KEY is set: an API key can be saved from the admin, a webhook secret generated. */
  canStore: boolean
  apiKey: {
    source: "admin" | "option"
    lastFour: string
    savedBy: string | null
    savedAt: string | null
    /** A saved key that no longer opens (CRYPTO_SECRETS_KEY changed): medusa-config's is used. */
    unreadable: boolean
  }
  webhookSecret: {
    source: MintingSource
    /** Older secrets whose tokens still verify (the acceptedWebhookSecrets option). */
    accepted: number
    /** Tokens minted before the current secret (from the API key, or a generated one) still verify: their payments are watched. */
    legacyAccepted: boolean
  }
}
