import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * When the last claimed rate fetch ended (stored, held or failed): a checkout waits for another
 * process's fetch only while one is under way, so an outage refuses at once.
 */
export class Migration20261129080000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "crypto_exchange_rate" add column if not exists "settled_at" timestamptz null;`)
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "crypto_exchange_rate" drop column if exists "settled_at";`)
  }
}
