import type { AcknowledgeableState, Acknowledgement, ApiKeyFacts } from "../domain/acknowledgement"
import { apiKeyFactsOf } from "../domain/api-key-state"
import type { HealthCheck } from "./checks"

/** How many days an acknowledged API key change stays on the health (green). */
export const API_KEY_CHANGE_NOTICE_DAYS = 7
const DAY_MS = 24 * 60 * 60 * 1000

/** An API key change of the settings' change log, with the email of the admin who made it. */
export type ApiKeyChange = {
  provider_id: string
  /** "…7Q9Z"; null: medusa-config's key. */
  from: string | null
  to: string | null
  actor_id: string | null
  actor_email: string | null
  created_at: string | null
}

export type ApiKeyChangeInput = {
  providerId: string
  /** The API key state in force now. */
  state: AcknowledgeableState
  /** The newest acknowledged API key state, with the acknowledging admin's email. */
  acknowledged?: Acknowledgement & { actor_email?: string | null }
  /** The provider's API key changes from the admin in the last API_KEY_CHANGE_NOTICE_DAYS, newest first. */
  changes: ApiKeyChange[]
  now: Date
}

const whoMade = (change: ApiKeyChange) => change.actor_email ?? change.actor_id ?? "an unknown admin"
const keyOf = (facts: ApiKeyFacts) =>
  `${facts.in_use} ${facts.source === "admin" ? "saved from the admin" : "from medusa-config.ts"}`

const ADMIN_CHANGE_ACTION =
  "If it was made on purpose, acknowledge it. If nobody on your team made it, revoke that key at the service's dashboard, save one of your own, and check who can sign in to the admin."
const CONFIG_CHANGE_ACTION =
  "If your team changed the key on purpose (medusa-config.ts or the server's environment), acknowledge it. If not, revoke that key at the service's dashboard and check who can change the server's configuration."
const CONFIG_UNUSED_ACTION =
  "To use medusa-config's new key, save it on the Keys panel (Settings → Crypto payments) as well; if nobody on your team changed it, check who can change the server's configuration. Acknowledge once you know why it changed."

/**
 * The key decides whose account the payments go to, so a change must not go unseen: amber until an
 * admin acknowledges the key in force. A key an admin signed in to the dashboard saves is acknowledged
 * by that save (who and when recorded); a key changed anywhere else — medusa-config.ts or the
 * environment, or saved with a secret API key — waits for an admin. Acknowledged, the newest change stays
 * green for API_KEY_CHANGE_NOTICE_DAYS. Nothing to say: no line.
 */
export function apiKeyChangeCheck(input: ApiKeyChangeInput): HealthCheck | undefined {
  const { providerId, state, acknowledged, now } = input
  const line = { id: "api_key_change", provider_id: providerId, label: "API key change" }
  const [newest, ...earlier] = input.changes
  const more = earlier.length
    ? `; ${earlier.length} earlier change${earlier.length === 1 ? "" : "s"} in the last ${API_KEY_CHANGE_NOTICE_DAYS} days`
    : ""
  const changed = newest
    ? `API key changed from the admin${newest.created_at ? ` at ${newest.created_at}` : ""} by ${whoMade(newest)} (now ${newest.to ?? "unknown"}, was ${newest.from ?? "medusa-config's"})${more}`
    : undefined
  const facts = apiKeyFactsOf(state.facts)

  if (!acknowledged || acknowledged.value === state.value) {
    const recent =
      !!acknowledged &&
      acknowledged.how !== "first_sight" &&
      now.getTime() - Date.parse(acknowledged.created_at) < API_KEY_CHANGE_NOTICE_DAYS * DAY_MS
    if (!changed && !recent) return undefined
    const by = acknowledged && (acknowledged.actor_email ?? acknowledged.actor_id ?? "an unknown admin")
    const how = !acknowledged
      ? ""
      : acknowledged.how === "saved"
        ? `; acknowledged by ${by}, who saved it`
        : acknowledged.how === "acknowledged"
          ? `; acknowledged by ${by} at ${acknowledged.created_at}`
          : ""
    return {
      ...line,
      level: "green",
      detail: `${changed ?? `API key in use: ${facts ? keyOf(facts) : "unknown"}`}${how}.`,
      ...(newest?.created_at ? { at: newest.created_at } : {}),
      ...(acknowledged && acknowledged.how !== "first_sight"
        ? {
            acknowledged: {
              by: acknowledged.actor_email ?? acknowledged.actor_id,
              at: acknowledged.created_at,
              how: acknowledged.how,
            },
          }
        : {}),
    }
  }

  const waiting = { ...line, level: "amber" as const, acknowledge: { subject: "api_key" as const, value: state.value } }
  const before = apiKeyFactsOf(acknowledged.facts)
  if (!facts || !before)
    return { ...waiting, detail: "The API key in use is not the one last acknowledged.", action: CONFIG_CHANGE_ACTION }
  const adminKeyChanged = facts.source === "admin" && (before.source !== "admin" || before.in_use !== facts.in_use)
  if (adminKeyChanged) {
    const made = newest && newest.to === facts.in_use ? newest : undefined
    return {
      ...waiting,
      detail: made
        ? `${changed}; not acknowledged yet.`
        : `The API key saved from the admin (${facts.in_use}) is not the one last acknowledged (${keyOf(before)}).`,
      action: ADMIN_CHANGE_ACTION,
      ...(made?.created_at ? { at: made.created_at } : {}),
    }
  }
  if (facts.source === "admin")
    return {
      ...waiting,
      detail: `medusa-config's API key changed (now ${facts.config}, was ${before.config}), but the key saved from the admin (${facts.in_use}) is the one in use: medusa-config's is not used.`,
      action: CONFIG_UNUSED_ACTION,
    }
  return {
    ...waiting,
    detail:
      before.source === "admin"
        ? `The API key in use is medusa-config's (${facts.in_use}) again, no longer the one saved from the admin (${before.in_use}).`
        : `The API key in medusa-config.ts changed outside the admin (now ${facts.in_use}, was ${before.in_use}).`,
    action: CONFIG_CHANGE_ACTION,
  }
}
