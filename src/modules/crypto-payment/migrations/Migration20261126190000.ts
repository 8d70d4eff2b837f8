import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * Secrets kept in the database: an API key saved from the admin, the generated webhook
 * secret, each sealed under CRYPTO_SECRETS_KEY; one row per provider and name.
 */
export class Migration20261126190000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "crypto_secret" ("id" text not null, "provider_id" text not null,
      "name" text not null, "sealed" text not null, "last_four" text null, "saved_by" text null,
      "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(),
      "deleted_at" timestamptz null, constraint "crypto_secret_pkey" primary key ("id"));`)
    this.addSql(
      `create unique index if not exists "IDX_crypto_secret_provider_id_name_unique" on "crypto_secret" ("provider_id", "name") where "deleted_at" is null;`
    )
    this.addSql(
      `create index if not exists "IDX_crypto_secret_deleted_at" on "crypto_secret" ("deleted_at") where "deleted_at" is null;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "crypto_secret" cascade;`)
  }
}
