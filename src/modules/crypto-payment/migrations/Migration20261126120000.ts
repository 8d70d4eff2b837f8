import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * Events and customer emails: the outbox of crypto_payment.* events (one row per
 * transition, unique by event_key) and the sent-record of customer emails (one per payment and kind).
 */
export class Migration20261126120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "crypto_payment_event" ("id" text not null, "event_key" text not null,
      "name" text not null, "crypto_payment_id" text not null, "payment_id" text not null,
      "payment_collection_id" text null, "order_id" text null, "claimed_until" timestamptz null,
      "attempts" integer not null default 0, "delivered_at" timestamptz null,
      "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(),
      "deleted_at" timestamptz null, constraint "crypto_payment_event_pkey" primary key ("id"));`)
    this.addSql(
      `create unique index if not exists "IDX_crypto_payment_event_event_key_unique" on "crypto_payment_event" ("event_key");`
    )
    this.addSql(
      `create index if not exists "IDX_crypto_payment_event_payment_id" on "crypto_payment_event" ("payment_id") where "deleted_at" is null;`
    )
    this.addSql(
      `create index if not exists "IDX_crypto_payment_event_undelivered" on "crypto_payment_event" ("created_at") where "delivered_at" is null;`
    )
    this.addSql(
      `create index if not exists "IDX_crypto_payment_event_deleted_at" on "crypto_payment_event" ("deleted_at") where "deleted_at" is null;`
    )
    this.addSql(`create table if not exists "crypto_payment_email" ("id" text not null, "payment_id" text not null,
      "kind" text not null, "event_key" text null, "order_id" text null, "template" text not null,
      "channel" text not null, "to" text null, "locale" text null, "status" text not null, "reason" text null,
      "notification_id" text null,
      "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(),
      "deleted_at" timestamptz null, constraint "crypto_payment_email_pkey" primary key ("id"));`)
    this.addSql(
      `create unique index if not exists "IDX_crypto_payment_email_payment_id_kind_unique" on "crypto_payment_email" ("payment_id", "kind");`
    )
    this.addSql(
      `create index if not exists "IDX_crypto_payment_email_deleted_at" on "crypto_payment_email" ("deleted_at") where "deleted_at" is null;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "crypto_payment_event" cascade;`)
    this.addSql(`drop table if exists "crypto_payment_email" cascade;`)
  }
}
