import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** The flags the admin's list filters by (payment-list.ts's LIST_FLAGS when this was written): each is rare. */
const FLAGS = [
  "needs_attention",
  "paid_late",
  "underpaid",
  "overpaid",
  "paid_twice",
  "replaced_session",
  "mismatch",
  "refund_owed",
  "quote_drift",
  "accepted_short",
  "captured_no_order",
]

/**
 * The admin's list at a million payments: the order's display id on each payment, and keyset indexes.
 * The copy runs before the indexes are built: one pass instead of an update maintaining them row by row.
 */
export class Migration20261126180000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "crypto_payment" add column if not exists "order_display_id" integer null;`)
    this.addSql(`do $$ begin
      if to_regclass('"order"') is not null then
        execute 'update "crypto_payment" p set "order_display_id" = o."display_id" from "order" o
          where o."id" = p."order_id" and p."order_display_id" is null and o."display_id" is not null';
      end if;
    end $$;`)
    this.addSql(
      `create index if not exists "IDX_crypto_payment_created_at_id" on "crypto_payment" ("created_at" desc, "id" desc) where "deleted_at" is null;`
    )
    this.addSql(
      `create index if not exists "IDX_crypto_payment_status_created_at_id" on "crypto_payment" ("status", "created_at" desc, "id" desc) where "deleted_at" is null;`
    )
    this.addSql(
      `create index if not exists "IDX_crypto_payment_coin_created_at_id" on "crypto_payment" ("coin", "created_at" desc, "id" desc) where "deleted_at" is null;`
    )
    for (const flag of FLAGS) {
      this.addSql(
        `create index if not exists "IDX_crypto_payment_${flag}_created_at_id" on "crypto_payment" ("created_at" desc, "id" desc) where "${flag}" and "deleted_at" is null;`
      )
    }
    this.addSql(
      `create index if not exists "IDX_crypto_payment_order_display_id" on "crypto_payment" ("order_display_id") where "deleted_at" is null;`
    )
    this.addSql(
      `create index if not exists "IDX_crypto_payment_order_display_id_missing" on "crypto_payment" ("id") where "order_id" is not null and "order_display_id" is null and "deleted_at" is null;`
    )
  }

  override async down(): Promise<void> {
    for (const name of [
      "created_at_id",
      "status_created_at_id",
      "coin_created_at_id",
      ...FLAGS.map((flag) => `${flag}_created_at_id`),
      "order_display_id",
      "order_display_id_missing",
    ]) {
      this.addSql(`drop index if exists "IDX_crypto_payment_${name}";`)
    }
    this.addSql(`alter table if exists "crypto_payment" drop column if exists "order_display_id";`)
  }
}
