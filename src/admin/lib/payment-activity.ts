/** A payment's events and customer emails as one list in time order, worded in the admin's language. */
import { formatDateTime } from "./format"
import type { Translate } from "./i18n"
import { emailLabel, eventLabel, isEmailStatus } from "./payment-labels"
import type { CryptoPaymentDetail, PaymentEmailView, PaymentEventView, PaymentRefund } from "./payment-types"

/** One line of the list: an event (`name`, delivered or not) or an email (`kind`, `status`), worded. */
export type ActivityLine =
  | { type: "event"; key: string; at: string; text: string; name: string; delivered: boolean }
  | { type: "email"; key: string; at: string; text: string; kind: string; status: string }

/** What the list reads of the payment's own read: its owed records name the refund emails. */
export type PaymentActivityData = Pick<CryptoPaymentDetail, "events" | "emails" | "emails_enabled"> & {
  refund: Pick<PaymentRefund, "records" | "coin">
}

/** "Email “Paid” sent to a@b.c"; the address and the reason are the server's words, shown as sent. */
export function emailText(
  t: Translate,
  locale: string | undefined,
  email: Pick<PaymentEmailView, "kind" | "status" | "to" | "reason">,
  refund: PaymentActivityData["refund"]
): string {
  const kind = emailLabel(t, locale, email.kind, refund)
  if (!isEmailStatus(email.status)) return t("activity.email.other", { kind, status: email.status })
  return t(`activity.email.${email.status}`, {
    kind,
    to: email.to ?? t("activity.email.noAddress"),
    reason: email.reason ?? t("activity.email.noReason"),
  })
}

/** An event in words: "Paid", with "not delivered yet" while the outbox has not delivered it. */
export function eventText(t: Translate, event: Pick<PaymentEventView, "name" | "delivered_at">): string {
  const label = eventLabel(t, event.name)
  return event.delivered_at ? label : `${label} · ${t("activity.notDelivered")}`
}

/** A time from the API as a number to sort by; one that does not parse sorts first. */
const timeOf = (at: string) => {
  const time = Date.parse(at)
  return Number.isNaN(time) ? -Infinity : time
}

/**
 * The events and the emails as one list, oldest first, each line starting with its time. At the same
 * time an event comes before the email it caused.
 */
export function activityLines(t: Translate, locale: string | undefined, activity: PaymentActivityData): ActivityLine[] {
  const events = activity.events.map((event, i): ActivityLine => ({
    type: "event",
    key: `event:${event.event_key}:${event.name}:${i}`,
    at: event.at,
    text: `${formatDateTime(event.at, locale)} · ${eventText(t, event)}`,
    name: event.name,
    delivered: event.delivered_at !== null,
  }))
  const emails = activity.emails.map((email, i): ActivityLine => ({
    type: "email",
    key: `email:${email.kind}:${i}`,
    at: email.at,
    text: `${formatDateTime(email.at, locale)} · ${emailText(t, locale, email, activity.refund)}`,
    kind: email.kind,
    status: email.status,
  }))
  // a stable sort: at the same time, events (first in the list) stay before emails
  return [...events, ...emails].sort((a, b) => timeOf(a.at) - timeOf(b.at) || 0)
}

/** Customer emails are off (no notifications option, or no provider for its channel) and none was recorded. */
export const emailsOff = (activity: PaymentActivityData): boolean =>
  !activity.emails_enabled && activity.emails.length === 0
