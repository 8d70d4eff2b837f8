import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * Refunds the customer can receive: the refund address, link expiry, payout start and refund basis on
 * each owed record, and the log of every address change.
 */
export class Migration20261126150000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "crypto_owed_amount"
      add column if not exists "link_expires_at" timestamptz null,
      add column if not exists "refund_address" text null,
      add column if not exists "refund_coin" text null,
      add column if not exists "address_given_at" timestamptz null,
      add column if not exists "address_given_by" text null,
      add column if not exists "payout_started_at" timestamptz null,
      add column if not exists "payout_started_by" text null,
      add column if not exists "basis" text null,
      add column if not exists "fee_percent" text null,
      add column if not exists "basis_chosen_by" text null,
      add column if not exists "basis_chosen_at" timestamptz null;`)
    this.addSql(`create table if not exists "crypto_refund_address_change" ("id" text not null, "owed_id" text not null,
      "payment_id" text not null, "coin" text not null, "address" text not null, "actor" text not null,
      "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(),
      "deleted_at" timestamptz null, constraint "crypto_refund_address_change_pkey" primary key ("id"));`)
    this.addSql(
      `create index if not exists "IDX_crypto_refund_address_change_owed_id" on "crypto_refund_address_change" ("owed_id") where "deleted_at" is null;`
    )
    this.addSql(
      `create index if not exists "IDX_crypto_refund_address_change_deleted_at" on "crypto_refund_address_change" ("deleted_at") where "deleted_at" is null;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "crypto_refund_address_change" cascade;`)
    this.addSql(`alter table if exists "crypto_owed_amount" drop column if exists "link_expires_at",
      drop column if exists "refund_address", drop column if exists "refund_coin",
      drop column if exists "address_given_at", drop column if exists "address_given_by",
      drop column if exists "payout_started_at", drop column if exists "payout_started_by",
      drop column if exists "basis", drop column if exists "fee_percent",
      drop column if exists "basis_chosen_by", drop column if exists "basis_chosen_at";`)
  }
}
