import { createHash } from "node:crypto"
import type { AcknowledgeableState, ApiKeyFacts, ApiKeySource } from "./acknowledgement"
import { lastFour } from "./secret-box"

/**
 * Tells two keys apart without giving one back: 64 bits of a SHA-256 of a high-entropy key, named for
 * this use only (the webhook secret derived from the key is another digest).
 */
export function apiKeyFingerprint(apiKey: string): string {
  return createHash("sha256")
    .update(`medusa-payment-crypto:api-key-fingerprint\u0000${apiKey.trim()}`)
    .digest("hex")
    .slice(0, 16)
}

/**
 * The API key state: which key is in use and from where, and medusa-config's key. medusa-config's is
 * part of it even while a key saved from the admin wins: a new key put there is otherwise not used, unseen.
 */
export function apiKeyStateOf(input: { source: ApiKeySource; inUse: string; config: string }): AcknowledgeableState {
  const facts: ApiKeyFacts = {
    source: input.source,
    in_use: `…${lastFour(input.inUse)}`,
    config: `…${lastFour(input.config)}`,
  }
  return {
    value: `${input.source}:${apiKeyFingerprint(input.inUse)}:${apiKeyFingerprint(input.config)}`,
    facts,
  }
}

/** The facts of an API key state as recorded (older rows or another subject's: null). */
export function apiKeyFactsOf(facts: Record<string, string> | null | undefined): ApiKeyFacts | null {
  if (!facts || (facts.source !== "admin" && facts.source !== "option")) return null
  return { source: facts.source, in_use: facts.in_use ?? "…", config: facts.config ?? "…" }
}
