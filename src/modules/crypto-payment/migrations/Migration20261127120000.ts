import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * An index on `remainder_of`; and an owed record keeps the coins it was written with, so a refund basis
 * chosen later starts from them, not from a store amount rounded down.
 */
export class Migration20261127120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index if not exists "IDX_crypto_payment_remainder_of" on "crypto_payment" ("remainder_of") where "remainder_of" is not null and "deleted_at" is null;`
    )
    this.addSql(`alter table if exists "crypto_owed_amount" add column if not exists "recorded_coin_amount" text null;`)
    this.addSql(
      `update "crypto_owed_amount" set "recorded_coin_amount" = "coin_amount" where "recorded_coin_amount" is null and "basis" is null;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_crypto_payment_remainder_of";`)
    this.addSql(`alter table if exists "crypto_owed_amount" drop column if exists "recorded_coin_amount";`)
  }
}
