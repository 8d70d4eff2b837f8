/**
 * What the setup health asks an admin to acknowledge: a state of one provider's setup (its API key
 * today; the service's merchant behind it next), recorded with who acknowledged it and when. The line
 * stays amber while the state in force is not the newest one acknowledged.
 */
export const ACKNOWLEDGEMENT_SUBJECTS = ["api_key"] as const
export type AcknowledgementSubject = (typeof ACKNOWLEDGEMENT_SUBJECTS)[number]

/**
 * How a state came to be acknowledged: an admin pressed Acknowledge, an admin signed in to the dashboard
 * saved it (the save is the acknowledgement), or it was the state the plugin found first (nothing to
 * compare it with).
 */
export type AcknowledgedHow = "acknowledged" | "saved" | "first_sight"

/** A state in force: `value` tells two states apart; `facts` say what it is in words an admin can read. */
export type AcknowledgeableState = { value: string; facts: Record<string, string> }

export type Acknowledgement = AcknowledgeableState & {
  provider_id: string
  subject: AcknowledgementSubject
  how: AcknowledgedHow
  actor_id: string | null
  /** ISO time. */
  created_at: string
}

export type ApiKeySource = "admin" | "option"

/** The facts of an API key state: where the key in use comes from, its last four and medusa-config's. */
export type ApiKeyFacts = { source: ApiKeySource; in_use: string; config: string }
