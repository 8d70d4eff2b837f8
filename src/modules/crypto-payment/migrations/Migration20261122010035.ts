import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261122010035 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "crypto_payment" drop constraint if exists "crypto_payment_session_id_unique";`)
    this.addSql(
      `create table if not exists "crypto_payment" ("id" text not null, "session_id" text not null, "payment_id" text not null, "kind" text check ("kind" in ('invoice', 'payment')) not null, "status" text not null, "outcome" text not null, "coin" text null, "received_amount" text null, "required_amount" text null, "confirmations" integer not null default 0, "required_confirmations" integer null, "underpaid" boolean not null default false, "overpaid" boolean not null default false, "paid_late" boolean not null default false, "attention" text null, "applied" text null, "settled" boolean not null default false, "next_check_at" timestamptz null, "last_checked_at" timestamptz null, "check_failures" integer not null default 0, "timeline" jsonb null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "crypto_payment_pkey" primary key ("id"));`
    )
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_crypto_payment_session_id_unique" ON "crypto_payment" ("session_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_crypto_payment_deleted_at" ON "crypto_payment" ("deleted_at") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_crypto_payment_settled_next_check_at" ON "crypto_payment" ("settled", "next_check_at") WHERE deleted_at IS NULL;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "crypto_payment" cascade;`)
  }
}
