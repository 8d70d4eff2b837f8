import type { InferTypeOf } from "@medusajs/framework/types"
import type { Knex } from "knex"
import type { SavedPolicy } from "../../lib/domain/merchant-policy"
import { entityId } from "../../lib/domain/entity-id"
import type CryptoSetting from "./models/crypto-setting"
import type CryptoSettingChange from "./models/crypto-setting-change"
import { isMissingTable } from "./missing-table"

/** Fields of a saved setting to change; null: back to the provider's option. */
export type SettingsChange = { underpayment_tolerance_bp?: number | null; late_payments?: string | null }

export type SavedSetting = InferTypeOf<typeof CryptoSetting>
export type SettingChange = InferTypeOf<typeof CryptoSettingChange>

/** A change as the admin's log shows it: the API's field name and both values as text. */
export type ChangeMade = { field: string; from: string | null; to: string | null }

const API_NAME: Record<keyof SettingsChange, string> = {
  underpayment_tolerance_bp: "underpayment_tolerance_percent",
  late_payments: "late_payments",
}
const SHOWN: Record<keyof SettingsChange, (value: number | string | null) => string | null> = {
  underpayment_tolerance_bp: (bp) => (bp === null ? null : String(Number(bp) / 100)),
  late_payments: (value) => (value === null ? null : String(value)),
}

/** Logs a change of a provider's settings, who made it, in the transaction that made it. */
export async function logSettingChange(
  trx: Knex.Transaction,
  providerId: string,
  change: ChangeMade,
  actorId: string | null
): Promise<void> {
  await trx.raw(
    `insert into "crypto_setting_change" ("id", "provider_id", "field", "from_value", "to_value", "actor_id") values (?, ?, ?, ?, ?, ?)`,
    [entityId("cryptosetchg"), providerId, change.field, change.from, change.to, actorId]
  )
}

/**
 * The merchant policy an admin saved per provider (crypto_setting) over the provider's options, and the
 * log of its changes (crypto_setting_change).
 */
export class MerchantSettings {
  constructor(private readonly db: () => Knex) {}

  /** The policies saved, one per provider (none saved: the provider's options apply). */
  async saved(providerIds: string[]): Promise<SavedSetting[]> {
    if (!providerIds.length) return []
    const { rows } = await this.db().raw(
      `select * from "crypto_setting" where "provider_id" = any(?) and "deleted_at" is null limit ?`,
      [providerIds, providerIds.length]
    )
    return rows
  }

  /**
   * The policy saved for a provider, if any. A database whose migration has not added the table yet
   * has none: the provider's options apply.
   */
  async savedPolicy(providerId: string): Promise<SavedPolicy | undefined> {
    try {
      const { rows } = await this.db().raw(
        `select "underpayment_tolerance_bp", "late_payments" from "crypto_setting" where "provider_id" = ? and "deleted_at" is null limit 1`,
        [providerId]
      )
      return rows[0]
    } catch (error) {
      if (isMissingTable(error)) return undefined
      throw error
    }
  }

  async changes(providerIds: string[], take = 50): Promise<SettingChange[]> {
    if (!providerIds.length) return []
    const { rows } = await this.db().raw(
      `select * from "crypto_setting_change" where "provider_id" = any(?) and "deleted_at" is null
       order by "created_at" desc limit ?`,
      [providerIds, take]
    )
    return rows
  }

  /**
   * Saves a provider's policy (a field given as null goes back to the option) and logs each field
   * that changed with who changed it, in one transaction: concurrent saves each log what they changed.
   */
  async save(providerId: string, changes: SettingsChange, actorId: string | null): Promise<ChangeMade[]> {
    const made: ChangeMade[] = []
    await this.db().transaction(async (trx) => {
      await trx.raw(
        `insert into "crypto_setting" ("id", "provider_id") values (?, ?) on conflict ("provider_id") where "deleted_at" is null do nothing`,
        [entityId("cryptoset"), providerId]
      )
      const [current] = (
        await trx.raw(`select * from "crypto_setting" where "provider_id" = ? and "deleted_at" is null for update`, [
          providerId,
        ])
      ).rows as Array<Record<keyof SettingsChange, number | string | null>>
      const fields = (Object.keys(changes) as Array<keyof SettingsChange>).filter(
        (field) => changes[field] !== undefined && (current[field] ?? null) !== changes[field]
      )
      if (!fields.length) return
      await trx.raw(
        `update "crypto_setting" set ${fields.map((field) => `"${field}" = ?`).join(", ")}, "updated_by" = ?, "updated_at" = now()
         where "provider_id" = ? and "deleted_at" is null`,
        [...fields.map((field) => changes[field] as number | string | null), actorId, providerId]
      )
      for (const field of fields) {
        const change = {
          field: API_NAME[field],
          from: SHOWN[field](current[field] ?? null),
          to: SHOWN[field](changes[field] ?? null),
        }
        made.push(change)
        await logSettingChange(trx, providerId, change, actorId)
      }
    })
    return made
  }
}
