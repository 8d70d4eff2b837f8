import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261122081500 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "crypto_payment" add column if not exists "last_read" jsonb null;`)
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "crypto_payment" drop column if exists "last_read";`)
  }
}
