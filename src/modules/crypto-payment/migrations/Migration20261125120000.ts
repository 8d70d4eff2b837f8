import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** A payment captured in Medusa whose cart's completion then failed: no order holds its money. */
export class Migration20261125120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "crypto_payment" add column if not exists "captured_no_order" boolean not null default false;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "crypto_payment" drop column if exists "captured_no_order";`)
  }
}
