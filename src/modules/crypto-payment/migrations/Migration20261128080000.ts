import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * Refund links become revocable secrets kept on each owed record. Links already emailed (HMACs under
 * the webhook key) keep working until the expiry they had.
 */
export class Migration20261128080000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "crypto_owed_amount" add column if not exists "link_secret" text null;`)
    this.addSql(
      `alter table if exists "crypto_owed_amount" add column if not exists "link_legacy_until" timestamptz null;`
    )
    this.addSql(
      `update "crypto_owed_amount" set "link_legacy_until" = coalesce("link_expires_at", "created_at" + interval '30 days')
       where "link_secret" is null and "link_legacy_until" is null and "sent_at" is null and "deleted_at" is null;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "crypto_owed_amount" drop column if exists "link_secret";`)
    this.addSql(`alter table if exists "crypto_owed_amount" drop column if exists "link_legacy_until";`)
  }
}
