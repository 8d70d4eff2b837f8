import type { Knex } from "knex"
import { entityId } from "../../lib/domain/entity-id"

const TABLE = "crypto_payment_email"
/** An email whose outcome is known; as written in the partial index of Migration20261128090000, so the delete uses it. */
const FINISHED = `"status" in ('sent', 'failed', 'skipped')`

export type PaymentEmail = {
  id: string
  payment_id: string
  kind: string
  event_key: string | null
  order_id: string | null
  template: string
  channel: string
  to: string | null
  locale: string | null
  status: "sending" | "sent" | "failed" | "skipped"
  reason: string | null
  notification_id: string | null
  created_at: Date
  updated_at: Date
}

export type EmailClaim = Pick<
  PaymentEmail,
  "payment_id" | "kind" | "event_key" | "order_id" | "template" | "channel" | "to" | "locale"
>

/**
 * An email is claimed before the Notification Module is asked, so it is sent at most once. Only a failed
 * one may be claimed again; one whose process died while sending is never sent twice.
 */
export class PaymentEmails {
  constructor(private readonly db: () => Knex) {}

  /** Claims the email for sending; undefined when it was sent, is being sent, or was skipped. */
  async claim(email: EmailClaim): Promise<string | undefined> {
    const { rows } = await this.db().raw(
      `insert into "${TABLE}" ("id", "payment_id", "kind", "event_key", "order_id", "template", "channel", "to", "locale", "status")
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, 'sending')
       on conflict ("payment_id", "kind") do update set "status" = 'sending', "reason" = null, "event_key" = excluded."event_key",
         "to" = excluded."to", "locale" = excluded."locale", "template" = excluded."template", "updated_at" = now()
       where "${TABLE}"."status" = 'failed'
       returning "id"`,
      [entityId("cryptomail"), ...this.values(email)]
    )
    return rows[0]?.id
  }

  /** Records why an email was not sent (no address, no provider for the channel); once per payment and kind. */
  async skip(email: EmailClaim, reason: string): Promise<void> {
    await this.db().raw(
      `insert into "${TABLE}" ("id", "payment_id", "kind", "event_key", "order_id", "template", "channel", "to", "locale", "status", "reason")
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, 'skipped', ?) on conflict ("payment_id", "kind") do nothing`,
      [entityId("cryptomail"), ...this.values(email), reason]
    )
  }

  async finish(id: string, outcome: { status: "sent" | "failed"; notificationId?: string; reason?: string }) {
    await this.db().raw(
      `update "${TABLE}" set "status" = ?, "notification_id" = ?, "reason" = ?, "updated_at" = now() where "id" = ?`,
      [outcome.status, outcome.notificationId ?? null, outcome.reason ?? null, id]
    )
  }

  /**
   * One still `sending` is kept: its outcome is unknown, and it must never be sent twice. Once deleted, an
   * email whose event comes again is sent again.
   */
  async deleteFinished(days: number, limit: number): Promise<number> {
    const result = await this.db().raw(
      `delete from "${TABLE}" where "id" in (select "id" from "${TABLE}"
         where ${FINISHED} and "updated_at" < now() - make_interval(days => ?)
         order by "updated_at" limit ? for update skip locked)`,
      [days, limit]
    )
    return (result as { rowCount?: number }).rowCount ?? 0
  }

  /**
   * The payments' emails in the order they went out (or last failed): two events delivered in one batch
   * claim their emails concurrently, so the claim's time can put a later email first.
   */
  async of(paymentIds: string[]): Promise<PaymentEmail[]> {
    if (!paymentIds.length) return []
    const { rows } = await this.db().raw(
      `select * from "${TABLE}" where "payment_id" = any(?) and "deleted_at" is null
       order by "updated_at", "created_at", "id" limit 200`,
      [paymentIds]
    )
    return rows
  }

  private values(email: EmailClaim) {
    return [
      email.payment_id,
      email.kind,
      email.event_key,
      email.order_id,
      email.template,
      email.channel,
      email.to,
      email.locale,
    ]
  }
}
