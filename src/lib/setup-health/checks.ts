/**
 * Setup health: one line per thing that can be wrong with a crypto payment setup, each green,
 * amber or red with what to do. Lines never carry the API key or a webhook token.
 */
import type { AcknowledgedHow, AcknowledgementSubject } from "../domain/acknowledgement"

export const HEALTH_LEVELS = ["green", "amber", "red"] as const
export type HealthLevel = (typeof HEALTH_LEVELS)[number]

export type HealthCheck = {
  /** api_key, webhook_url, provider_id, webhooks, migrations, locking, worker_mode, clock */
  id: string
  /** The provider the line is about, for provider-level checks. */
  provider_id?: string
  label: string
  level: HealthLevel
  detail: string
  /** What to do about it (when not green). */
  action?: string
  /** When what the line reports happened (ISO 8601): the admin writes it in the reader's language. */
  at?: string
  /** Who acknowledged what the line reports, and when (ISO 8601); `by` is an email, else a user id. */
  acknowledged?: { by: string | null; at: string; how: AcknowledgedHow }
  /** What the line reports waits for an admin: POST /admin/crypto/health/acknowledge with these and the line's provider_id. */
  acknowledge?: { subject: AcknowledgementSubject; value: string }
}

/** The worst level of the lines (green when there are none). */
export function worstLevel(checks: Pick<HealthCheck, "level">[]): HealthLevel {
  return checks.reduce<HealthLevel>(
    (worst, check) => (HEALTH_LEVELS.indexOf(check.level) > HEALTH_LEVELS.indexOf(worst) ? check.level : worst),
    "green"
  )
}

/** The one warn line a red check logs at boot. */
export function bootLine(check: HealthCheck): string {
  const who = check.provider_id ? ` (${check.provider_id})` : ""
  return `setup check failed — ${check.label}${who}: ${check.detail}${check.action ? ` ${check.action}` : ""}`
}
