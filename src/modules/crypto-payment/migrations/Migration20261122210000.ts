import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * Owed money as records instead of a running total, and the quote drift of re-priced invoices. A refund
 * owed under the old model becomes one open record, so nothing owed is lost.
 */
export class Migration20261122210000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "crypto_owed_amount" (
      "id" text not null, "payment_id" text not null, "kind" text check ("kind" in ('refund', 'excess', 'late')) not null,
      "key" text not null, "refund_id" text null, "coin" text null, "coin_amount" text null, "base_amount" text not null,
      "base_currency" text not null, "sent_at" timestamptz null, "reference" text null,
      "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null,
      constraint "crypto_owed_amount_pkey" primary key ("id"));`)
    this.addSql(
      `create index if not exists "IDX_crypto_owed_amount_payment_id" on "crypto_owed_amount" ("payment_id") where "deleted_at" is null;`
    )
    this.addSql(
      `create unique index if not exists "IDX_crypto_owed_amount_payment_id_key_unique" on "crypto_owed_amount" ("payment_id", "key") where "deleted_at" is null;`
    )
    this.addSql(
      `create index if not exists "IDX_crypto_owed_amount_deleted_at" on "crypto_owed_amount" ("deleted_at") where "deleted_at" is null;`
    )
    this.addSql(
      `alter table if exists "crypto_payment" add column if not exists "quote_drift" boolean not null default false, add column if not exists "drift" jsonb null, add column if not exists "remainder_of" text null;`
    )
    this
      .addSql(`insert into "crypto_owed_amount" ("id", "payment_id", "kind", "key", "coin", "coin_amount", "base_amount", "base_currency")
      select 'cryptoowed_' || md5("payment_id"), "payment_id", 'refund', 'refund:before-records', "coin", "refund_amount",
        coalesce("refunded_base_amount", '0'), "base_currency"
      from "crypto_payment" where "refund_owed" = true and "deleted_at" is null
      on conflict do nothing;`)
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "crypto_owed_amount" cascade;`)
    this.addSql(
      `alter table if exists "crypto_payment" drop column if exists "quote_drift", drop column if exists "drift", drop column if exists "remainder_of";`
    )
  }
}
