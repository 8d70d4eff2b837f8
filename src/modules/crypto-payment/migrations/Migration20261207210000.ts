import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * What an admin acknowledged on the setup health (a provider's API key state), with who and when: the
 * line stays amber while the state in force is not the newest acknowledged one.
 */
export class Migration20261207210000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "crypto_acknowledgement" ("id" text not null, "provider_id" text not null,
      "subject" text not null, "value" text not null, "facts" jsonb null, "how" text not null, "actor_id" text null,
      "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(),
      "deleted_at" timestamptz null, constraint "crypto_acknowledgement_pkey" primary key ("id"));`)
    this.addSql(
      `create index if not exists "IDX_crypto_acknowledgement_provider_id_subject_created_at" on "crypto_acknowledgement" ("provider_id", "subject", "created_at") where "deleted_at" is null;`
    )
    this.addSql(
      `create index if not exists "IDX_crypto_acknowledgement_deleted_at" on "crypto_acknowledgement" ("deleted_at") where "deleted_at" is null;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "crypto_acknowledgement" cascade;`)
  }
}
