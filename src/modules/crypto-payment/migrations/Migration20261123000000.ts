import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * The merchant's saved policy per provider and its change log; what settled each payment and when
 * (setup health: settled by webhook or by the job); and the processes sharing the database.
 */
export class Migration20261123000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "crypto_setting" (
      "id" text not null, "provider_id" text not null, "underpayment_tolerance_bp" integer null, "late_payments" text null,
      "updated_by" text null,
      "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null,
      constraint "crypto_setting_pkey" primary key ("id"));`)
    this.addSql(
      `create unique index if not exists "IDX_crypto_setting_provider_id_unique" on "crypto_setting" ("provider_id") where "deleted_at" is null;`
    )
    this.addSql(
      `create index if not exists "IDX_crypto_setting_deleted_at" on "crypto_setting" ("deleted_at") where "deleted_at" is null;`
    )
    this.addSql(`create table if not exists "crypto_setting_change" (
      "id" text not null, "provider_id" text not null, "field" text not null, "from_value" text null, "to_value" text null,
      "actor_id" text null,
      "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null,
      constraint "crypto_setting_change_pkey" primary key ("id"));`)
    this.addSql(
      `create index if not exists "IDX_crypto_setting_change_provider_id_created_at" on "crypto_setting_change" ("provider_id", "created_at") where "deleted_at" is null;`
    )
    this.addSql(
      `create index if not exists "IDX_crypto_setting_change_deleted_at" on "crypto_setting_change" ("deleted_at") where "deleted_at" is null;`
    )
    this.addSql(`create table if not exists "crypto_process" (
      "id" text not null, "host" text not null, "pid" integer not null, "worker_mode" text not null, "locking" text not null,
      "seen_at" timestamptz not null,
      "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null,
      constraint "crypto_process_pkey" primary key ("id"));`)
    this.addSql(
      `create index if not exists "IDX_crypto_process_seen_at" on "crypto_process" ("seen_at") where "deleted_at" is null;`
    )
    this.addSql(
      `create index if not exists "IDX_crypto_process_deleted_at" on "crypto_process" ("deleted_at") where "deleted_at" is null;`
    )
    this.addSql(
      `alter table if exists "crypto_payment" add column if not exists "settled_at" timestamptz null, add column if not exists "settled_by" text null, add column if not exists "last_webhook_at" timestamptz null, add column if not exists "accepted_short" boolean not null default false;`
    )
    this.addSql(
      `create index if not exists "IDX_crypto_payment_settled_at" on "crypto_payment" ("settled_at") where "deleted_at" is null;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "crypto_setting" cascade;`)
    this.addSql(`drop table if exists "crypto_setting_change" cascade;`)
    this.addSql(`drop table if exists "crypto_process" cascade;`)
    this.addSql(
      `alter table if exists "crypto_payment" drop column if exists "settled_at", drop column if exists "settled_by", drop column if exists "last_webhook_at", drop column if exists "accepted_short";`
    )
  }
}
