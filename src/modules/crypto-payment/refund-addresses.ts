import type { Knex } from "knex"
import { entityId } from "../../lib/domain/entity-id"
import { newLinkSecret, REFUND_LINK_DAYS } from "../../lib/domain/refund-link"
import type { RefundBasis } from "../../lib/domain/refund-basis"

const OWED = "crypto_owed_amount"
const CHANGES = "crypto_refund_address_change"

export type OwedWithAddress = {
  id: string
  payment_id: string
  kind: "refund" | "excess" | "late"
  coin: string | null
  coin_amount: string | null
  /** The coins it was written with, before a refund basis changed coin_amount. */
  recorded_coin_amount: string | null
  base_amount: string
  base_currency: string
  sent_at: Date | null
  reference: string | null
  created_at: Date
  link_expires_at: Date | null
  link_secret: string | null
  link_legacy_until: Date | null
  refund_address: string | null
  refund_coin: string | null
  address_given_at: Date | null
  address_given_by: string | null
  payout_started_at: Date | null
  payout_started_by: string | null
  basis: string | null
  fee_percent: string | null
  basis_chosen_by: string | null
  basis_chosen_at: Date | null
}

export type AddressChange = {
  id: string
  owed_id: string
  coin: string
  address: string
  actor: string
  created_at: Date
}

/** What became of an address given: saved (and logged), the same as before, or refused and why. */
export type AddressGiven =
  | { outcome: "saved"; owed: OwedWithAddress; change: AddressChange; first: boolean }
  | { outcome: "unchanged"; owed: OwedWithAddress }
  | { outcome: "frozen" | "sent"; owed: OwedWithAddress }

/**
 * Where owed coins go back: the address the customer gives through the link (or an admin types), each
 * change logged, frozen once the admin starts the payout; the link's expiry; the refund's basis.
 */
export class RefundAddresses {
  constructor(private readonly db: () => Knex) {}

  async owed(owedId: string): Promise<OwedWithAddress | undefined> {
    const { rows } = await this.db().raw(`select * from "${OWED}" where "id" = ? and "deleted_at" is null`, [owedId])
    return rows[0]
  }

  /**
   * Gives the address an owed record's coins go to: under the record's row lock, refused once the payout
   * started (or the coins were sent), a no-op when nothing changes, else saved with a line in the log.
   */
  async give(owedId: string, coin: string, address: string, actor: string): Promise<AddressGiven | undefined> {
    return this.db().transaction(async (trx) => {
      const { rows } = await trx.raw(`select * from "${OWED}" where "id" = ? and "deleted_at" is null for update`, [
        owedId,
      ])
      const owed = rows[0] as OwedWithAddress | undefined
      if (!owed) return undefined
      if (owed.sent_at) return { outcome: "sent" as const, owed }
      if (owed.payout_started_at) return { outcome: "frozen" as const, owed }
      if (owed.refund_address === address && owed.refund_coin === coin) return { outcome: "unchanged" as const, owed }
      const first = !owed.refund_address
      const { rows: saved } = await trx.raw(
        `update "${OWED}" set "refund_address" = ?, "refund_coin" = ?, "address_given_at" = now(), "address_given_by" = ?,
           "updated_at" = now() where "id" = ? returning *`,
        [address, coin, actor, owedId]
      )
      const { rows: changes } = await trx.raw(
        `insert into "${CHANGES}" ("id", "owed_id", "payment_id", "coin", "address", "actor") values (?, ?, ?, ?, ?, ?) returning *`,
        [entityId("cryptoaddr"), owedId, owed.payment_id, coin, address, actor]
      )
      return { outcome: "saved" as const, owed: saved[0], change: changes[0], first }
    })
  }

  /** The admin starts sending the coins: the address is frozen. Undefined: no such record. */
  async startPayout(owedId: string, actor: string | null): Promise<OwedWithAddress | undefined> {
    const { rows } = await this.db().raw(
      `update "${OWED}" set "payout_started_at" = coalesce("payout_started_at", now()),
         "payout_started_by" = coalesce("payout_started_by", ?), "updated_at" = now()
       where "id" = ? and "deleted_at" is null returning *`,
      [actor, owedId]
    )
    return rows[0]
  }

  /** The record with its link's secret, drawn on first use (the same link from then on). */
  async withLinkSecret(owedId: string): Promise<OwedWithAddress | undefined> {
    const { rows } = await this.db().raw(
      `update "${OWED}" set "link_secret" = coalesce("link_secret", ?), "updated_at" = now()
       where "id" = ? and "deleted_at" is null returning *`,
      [newLinkSecret(), owedId]
    )
    return rows[0]
  }

  /**
   * A new link: a new secret (every earlier copy, legacy ones included, stops opening) that works for
   * REFUND_LINK_DAYS from now.
   */
  async reissueLink(owedId: string, days = REFUND_LINK_DAYS): Promise<OwedWithAddress | undefined> {
    const { rows } = await this.db().raw(
      `update "${OWED}" set "link_secret" = ?, "link_legacy_until" = null,
         "link_expires_at" = now() + make_interval(days => ?), "updated_at" = now()
       where "id" = ? and "deleted_at" is null returning *`,
      [newLinkSecret(), days, owedId]
    )
    return rows[0]
  }

  /** The link works again for REFUND_LINK_DAYS from now (the same link). */
  async renewLink(owedId: string, days = REFUND_LINK_DAYS): Promise<OwedWithAddress | undefined> {
    const { rows } = await this.db().raw(
      `update "${OWED}" set "link_expires_at" = now() + make_interval(days => ?), "updated_at" = now()
       where "id" = ? and "deleted_at" is null returning *`,
      [days, owedId]
    )
    return rows[0]
  }

  /** The refund's basis the admin chose, and the coins it gives; refused (undefined) once the coins were sent. */
  async chooseBasis(
    owedId: string,
    choice: { basis: RefundBasis; feePercent: string | null; coins: string },
    actor: string | null,
    /** The refund lock's transaction the choice was priced under: written on its connection, not a second one. */
    trx?: Knex.Transaction
  ): Promise<OwedWithAddress | undefined> {
    const { rows } = await (trx ?? this.db()).raw(
      `update "${OWED}" set "basis" = ?, "fee_percent" = ?, "coin_amount" = ?, "basis_chosen_by" = ?,
         "basis_chosen_at" = now(), "updated_at" = now()
       where "id" = ? and "deleted_at" is null and "sent_at" is null and "payout_started_at" is null returning *`,
      [choice.basis, choice.feePercent, choice.coins, actor, owedId]
    )
    return rows[0]
  }

  /**
   * The address changes of owed records, oldest first: the newest `limit` of them, so a record changed
   * more often than that still shows where its coins go now (the oldest are the ones left out).
   */
  async changes(owedIds: string[], limit = 500): Promise<AddressChange[]> {
    if (!owedIds.length) return []
    const { rows } = await this.db().raw(
      `select * from "${CHANGES}" where "owed_id" = any(?) and "deleted_at" is null
       order by "created_at" desc, "id" desc limit ?`,
      [owedIds, limit]
    )
    return (rows as AddressChange[]).reverse()
  }
}
