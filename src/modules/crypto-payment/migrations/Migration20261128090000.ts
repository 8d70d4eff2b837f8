import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * Retention deletes old events and emails a batch at a time, oldest first; these indexes hold exactly
 * the rows it may delete, in that order, so each batch reads only what it deletes.
 */
export class Migration20261128090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index if not exists "IDX_crypto_payment_event_delivered_at" on "crypto_payment_event" ("delivered_at") where "delivered_at" is not null;`
    )
    this.addSql(
      `create index if not exists "IDX_crypto_payment_email_updated_at" on "crypto_payment_email" ("updated_at") where "status" in ('sent', 'failed', 'skipped');`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_crypto_payment_event_delivered_at";`)
    this.addSql(`drop index if exists "IDX_crypto_payment_email_updated_at";`)
  }
}
