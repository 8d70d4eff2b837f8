import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261122052458 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "crypto_payment" add column if not exists "refund_owed" boolean not null default false, add column if not exists "refund_amount" text null, add column if not exists "refunded_base_amount" text null, add column if not exists "refund_sent_at" timestamptz null, add column if not exists "refund_reference" text null;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table if exists "crypto_payment" drop column if exists "refund_owed", drop column if exists "refund_amount", drop column if exists "refunded_base_amount", drop column if exists "refund_sent_at", drop column if exists "refund_reference";`
    )
  }
}
