import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261122050138 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "crypto_payment" drop constraint if exists "crypto_payment_capture_session_id_unique";`
    )
    this.addSql(`alter table if exists "crypto_payment" drop constraint if exists "crypto_payment_payment_id_unique";`)
    this.addSql(`drop index if exists "IDX_crypto_payment_session_id_unique";`)

    this.addSql(
      `alter table if exists "crypto_payment" add column if not exists "payment_collection_id" text null, add column if not exists "provider_id" text null, add column if not exists "base_amount" text not null default '', add column if not exists "base_currency" text not null default '', add column if not exists "crypto_amount" text null, add column if not exists "quotes" jsonb null, add column if not exists "invoice_url" text null, add column if not exists "qr_code" text null, add column if not exists "expires_at" timestamptz null, add column if not exists "watch_until" timestamptz null, add column if not exists "address" text null, add column if not exists "paid_twice" boolean not null default false, add column if not exists "replaced_session" boolean not null default false, add column if not exists "mismatch" boolean not null default false, add column if not exists "needs_attention" boolean not null default false, add column if not exists "warned" jsonb null, add column if not exists "capture_session_id" text null, add column if not exists "order_id" text null;`
    )
    this.addSql(`alter table if exists "crypto_payment" alter column "status" type text using ("status"::text);`)
    this.addSql(`alter table if exists "crypto_payment" alter column "status" set default 'PENDING';`)
    this.addSql(`alter table if exists "crypto_payment" alter column "outcome" type text using ("outcome"::text);`)
    this.addSql(`alter table if exists "crypto_payment" alter column "outcome" set default 'pending';`)
    // rows written before the ledger (one per session) keep their data; the two columns only had no default to fill
    this.addSql(
      `alter table if exists "crypto_payment" alter column "base_amount" drop default, alter column "base_currency" drop default;`
    )
    // the first version wrote rows without a payment id for sessions it could never read: not payments of the shop
    this.addSql(`update "crypto_payment" set "deleted_at" = now() where "payment_id" = '' and "deleted_at" is null;`)
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_crypto_payment_payment_id_unique" ON "crypto_payment" ("payment_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_crypto_payment_session_id" ON "crypto_payment" ("session_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_crypto_payment_payment_collection_id" ON "crypto_payment" ("payment_collection_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_crypto_payment_order_id" ON "crypto_payment" ("order_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_crypto_payment_capture_session_id_unique" ON "crypto_payment" ("capture_session_id") WHERE deleted_at IS NULL;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_crypto_payment_payment_id_unique";`)
    this.addSql(`drop index if exists "IDX_crypto_payment_session_id";`)
    this.addSql(`drop index if exists "IDX_crypto_payment_payment_collection_id";`)
    this.addSql(`drop index if exists "IDX_crypto_payment_order_id";`)
    this.addSql(`drop index if exists "IDX_crypto_payment_capture_session_id_unique";`)
    this.addSql(
      `alter table if exists "crypto_payment" drop column if exists "payment_collection_id", drop column if exists "provider_id", drop column if exists "base_amount", drop column if exists "base_currency", drop column if exists "crypto_amount", drop column if exists "quotes", drop column if exists "invoice_url", drop column if exists "qr_code", drop column if exists "expires_at", drop column if exists "watch_until", drop column if exists "address", drop column if exists "paid_twice", drop column if exists "replaced_session", drop column if exists "mismatch", drop column if exists "needs_attention", drop column if exists "warned", drop column if exists "capture_session_id", drop column if exists "order_id";`
    )

    this.addSql(`alter table if exists "crypto_payment" alter column "status" drop default;`)
    this.addSql(`alter table if exists "crypto_payment" alter column "status" type text using ("status"::text);`)
    this.addSql(`alter table if exists "crypto_payment" alter column "outcome" drop default;`)
    this.addSql(`alter table if exists "crypto_payment" alter column "outcome" type text using ("outcome"::text);`)
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_crypto_payment_session_id_unique" ON "crypto_payment" ("session_id") WHERE deleted_at IS NULL;`
    )
  }
}
