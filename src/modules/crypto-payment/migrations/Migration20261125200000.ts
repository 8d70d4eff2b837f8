import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * Store currencies the service does not take: the exchange rates of each rate source, and
 * on every payment the store amount's conversion: USD asked, rate, source, publication, markup.
 */
export class Migration20261125200000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "crypto_exchange_rate" ("id" text not null, "source" text not null,
      "url" text not null, "published_on" text null, "rates" jsonb null, "fetched_at" timestamptz null, "held" jsonb null,
      "attempted_at" timestamptz null, "last_error" text null, "failures" integer not null default 0,
      "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(),
      "deleted_at" timestamptz null, constraint "crypto_exchange_rate_pkey" primary key ("id"));`)
    this.addSql(
      `create unique index if not exists "IDX_crypto_exchange_rate_source_url_unique" on "crypto_exchange_rate" ("source", "url") where "deleted_at" is null;`
    )
    this.addSql(
      `create index if not exists "IDX_crypto_exchange_rate_deleted_at" on "crypto_exchange_rate" ("deleted_at") where "deleted_at" is null;`
    )
    this.addSql(`alter table if exists "crypto_payment" add column if not exists "usd_amount" text null,
      add column if not exists "exchange_rate" text null, add column if not exists "rate_source" text null,
      add column if not exists "rate_url" text null, add column if not exists "rate_published_on" text null,
      add column if not exists "rate_markup_percent" text null;`)
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "crypto_exchange_rate" cascade;`)
    this
      .addSql(`alter table if exists "crypto_payment" drop column if exists "usd_amount", drop column if exists "exchange_rate",
      drop column if exists "rate_source", drop column if exists "rate_url", drop column if exists "rate_published_on",
      drop column if exists "rate_markup_percent";`)
  }
}
