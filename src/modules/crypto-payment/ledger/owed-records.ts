import type { Knex } from "knex"
import { outboxEvents, outboxInsertSql } from "../payment-outbox"
import { ringOutbox } from "../../../lib/runtime/outbox-bell"
import { CryptoPaymentEvents, owedKey, PaymentEvent } from "../../../lib/domain/payment-events"
import { isNoOrderClaim, NO_ORDER_KEY, payoutUnderway } from "../../../lib/domain/checkout-payment"
import { baseFor, coinsBeyond, isZero, PaymentRate, sumCoins } from "../../../lib/domain/owed"
import type { OwedByRead } from "../../../lib/domain/decision-terms"
import { entityId } from "../../../lib/domain/entity-id"
import { sendableCoinsOf } from "../../../lib/domain/money"
import { LedgerCheckout, readCheckoutPayment, underRefundLock } from "./checkout"
import { ledgerError } from "./payment-reads"
import { LedgerRecords } from "./payment-records"
import type { LedgerRow, OwedRecord } from "./row"

/** A refund Medusa made, as an owed record: coins at the payment's rate (null while its coin amount is unknown). */
export type OwedRefund = {
  payment_id: string
  /** Unique per payment: Medusa's refund id. */
  key: string
  refund_id: string | null
  coin: string | null
  coin_amount: string | null
  base_amount: string
  base_currency: string
}

/** A record named to be marked sent was sent or withdrawn meanwhile: nothing is marked. */
class OwedChanged extends Error {}

/**
 * Whatever sets an owed record's coins runs under the checkout's refund lock (checkout.ts), so two
 * writers are capped one after the other.
 */
export class OwedRecords extends LedgerRecords {
  /** `work` gets the checkout read under the lock, and the transaction every write of it goes through. */
  async underRefundLock<T>(
    paymentId: string,
    work: (checkout: LedgerCheckout | undefined, trx: Knex.Transaction) => Promise<T>
  ): Promise<T> {
    return underRefundLock(this.db(), paymentId, (trx, checkout) => work(checkout, trx))
  }

  /**
   * Keyed by Medusa's refund id: a retry is the same record, a second refund another. `price` reads the
   * checkout under its refund lock, in the same transaction as the insert.
   */
  async recordRefund(
    sessionId: string,
    price: (checkout: LedgerCheckout) => OwedRefund
  ): Promise<OwedRefund | undefined> {
    const row = await this.forSession(sessionId)
    if (!row) return undefined
    let recorded = false
    const refund = await underRefundLock(this.db(), row.payment_id, async (trx, checkout) => {
      if (!checkout) return undefined
      const refund = price(checkout)
      const inserted = await this.rows(
        `insert into "crypto_owed_amount" ("id", "payment_id", "kind", "key", "refund_id", "coin", "coin_amount", "recorded_coin_amount", "base_amount", "base_currency")
         values (?, ?, 'refund', ?, ?, ?, ?, ?, ?, ?) on conflict do nothing returning "id"`,
        [
          entityId("cryptoowed"),
          refund.payment_id,
          refund.key,
          refund.refund_id,
          refund.coin,
          refund.coin_amount,
          refund.coin_amount,
          refund.base_amount,
          refund.base_currency,
        ],
        trx
      )
      if (!inserted.length) return refund
      const entry = {
        at: new Date().toISOString(),
        source: "refund",
        status: "REFUND",
        outcome: "refund_owed",
        confirmations: 0,
        received: "0",
        note: `Refund of ${refund.base_amount} ${refund.base_currency} recorded in Medusa; ${refund.coin_amount ? `${sendableCoinsOf(refund.coin, refund.coin_amount)} ${refund.coin}` : "the coins"} to send from the service's dashboard.`,
      }
      const event = { name: CryptoPaymentEvents.REFUND_OWED, key: owedKey(refund.payment_id, refund.key) }
      await this.rows(
        `with "flagged" as (update "crypto_payment" set "refund_owed" = true,
           "timeline" = jsonb_build_object('entries', coalesce("timeline"->'entries', '[]'::jsonb) || jsonb_build_array(?::jsonb)), "updated_at" = now()
         where "payment_id" = ? and "deleted_at" is null returning *), "events" as (${outboxInsertSql("flagged")}) select 1`,
        [JSON.stringify(entry), refund.payment_id, outboxEvents([event])],
        trx
      )
      recorded = true
      return refund
    }).catch((error) => {
      throw ledgerError(error)
    })
    if (recorded) ringOutbox()
    return refund
  }

  /**
   * Keyed by the amount received, so a repeated read adds nothing and more money adds the rest. Under the
   * refund lock, so a Medusa refund recorded meanwhile never claims the same coins.
   */
  async recordOwedByRead(
    paymentId: string,
    owed: OwedByRead,
    rate: PaymentRate,
    received: string
  ): Promise<OwedRecord | undefined> {
    const record = await this.underRefundLock(paymentId, (checkout, trx) =>
      this.insertOwedByRead(trx, checkout, { paymentId, owed, rate, received })
    )
    if (record) ringOutbox()
    return record
  }

  /**
   * What one read records, in one transaction under its checkout's refund lock, so a run cut anywhere
   * leaves all of it or none: the late records a remainder's capture completed withdrawn, a no-order claim
   * whose cart became an order withdrawn, the owed record written, then `save` writes the payment's own
   * row (given the record written, for its note) on the same connection.
   */
  async recordRead<T>(
    paymentId: string,
    changes: OwedChanges,
    save: (owedRecord: OwedRecord | undefined, trx: Knex.Transaction) => Promise<T>,
    now = new Date()
  ): Promise<T> {
    const result = await this.underRefundLock(paymentId, async (checkout, trx) => {
      const { completed, claimMetOrder } = changes
      const others = (completed?.paymentIds ?? []).filter((id) => id !== paymentId)
      for (const id of others) await this.completedByRemainder(trx, id, completed?.remainderId, now)
      if (claimMetOrder && checkout)
        for (const member of [checkout.first, ...checkout.remainders].filter((m) => m.payment_id !== paymentId))
          await this.withdrawNoOrderClaim(trx, member.payment_id, claimMetOrder, now)
      // the checkout as it stands after the withdrawals: what they freed is not taken as owed
      const current = others.length || claimMetOrder ? await readCheckoutPayment(trx, paymentId) : checkout
      const owed = changes.owed?.(current)
      const owedRecord = owed ? await this.insertOwedByRead(trx, current, owed) : undefined
      const saved = await save(owedRecord, trx)
      // its own row's withdrawals follow its record, so their timeline lines follow the read's
      if (completed?.paymentIds.includes(paymentId)) await this.completedByRemainder(trx, paymentId, undefined, now)
      if (claimMetOrder) await this.withdrawNoOrderClaim(trx, paymentId, claimMetOrder, now, { rowFields: false })
      return saved
    })
    ringOutbox()
    return result
  }

  private async insertOwedByRead(
    trx: Knex.Transaction,
    checkout: LedgerCheckout | undefined,
    { paymentId, owed, rate, received }: OwedByReadToRecord
  ): Promise<OwedRecord | undefined> {
    // the checkout read under the lock holds this payment's records already
    const existing = (checkout?.records ?? []).filter((r) => r.payment_id === paymentId && r.kind === owed.kind)
    const recorded = sumCoins(
      rate.coin,
      existing.map((r) => r.coin_amount)
    )
    const part = coinsBeyond(rate.coin, owed.coins, recorded)
    const key = `${owed.noOrder ? NO_ORDER_KEY : owed.kind}@${received}`
    if (isZero(part) || existing.some((r) => r.key === key)) return undefined
    // the record, the payment's flag and the refund_owed event in one statement: all or none
    const event: PaymentEvent = { name: CryptoPaymentEvents.REFUND_OWED, key: owedKey(paymentId, key) }
    const [record] = await this.rows<OwedRecord>(
      `with "owed" as (insert into "crypto_owed_amount" ("id", "payment_id", "kind", "key", "coin", "coin_amount", "recorded_coin_amount", "base_amount", "base_currency")
         values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing returning *),
       "flagged" as (update "crypto_payment" set "refund_owed" = true, "updated_at" = now()
         where "payment_id" = ? and "deleted_at" is null and exists (select 1 from "owed") returning *),
       "events" as (${outboxInsertSql("flagged")})
       select * from "owed"`,
      [
        entityId("cryptoowed"),
        paymentId,
        owed.kind,
        key,
        rate.coin,
        part,
        part,
        baseFor(rate, part),
        rate.baseCurrency,
        paymentId,
        outboxEvents([event]),
      ],
      trx
    )
    return record
  }

  /**
   * All of them, or none (undefined) when one was sent or withdrawn meanwhile. The timeline is appended in
   * the statement itself, so an entry a refund appends meanwhile is kept.
   */
  async markOwedSent(
    paymentId: string,
    owedIds: string[],
    reference: string | null,
    note: string,
    now = new Date()
  ): Promise<OwedRecord[] | undefined> {
    const ids = [...new Set(owedIds)]
    if (!ids.length) return []
    return this.db()
      .transaction(async (trx: Knex.Transaction) => {
        const sent = await this.rows<OwedRecord>(
          `update "crypto_owed_amount" set "sent_at" = ?, "reference" = ?, "updated_at" = now()
           where "id" = any(?) and "payment_id" = ? and "sent_at" is null and "deleted_at" is null returning *`,
          [now, reference, ids, paymentId],
          trx
        )
        if (sent.length !== ids.length) throw new OwedChanged()
        await this.rows(
          `update "crypto_payment" p set
             "refund_owed" = exists (select 1 from "crypto_owed_amount" o
               where o."payment_id" = p."payment_id" and o."sent_at" is null and o."deleted_at" is null),
             "timeline" = jsonb_build_object('entries', coalesce(p."timeline"->'entries', '[]'::jsonb) || jsonb_build_array(
               jsonb_build_object('at', ?::text, 'source', 'admin', 'status', p."status", 'outcome', 'refund_sent',
                 'confirmations', p."confirmations", 'received', coalesce(p."received_amount", '0'), 'note', ?::text))),
             "updated_at" = now()
           where p."payment_id" = ? and p."deleted_at" is null`,
          [now.toISOString(), note, paymentId],
          trx
        )
        return sent
      })
      .catch((error) => {
        if (error instanceof OwedChanged) return undefined
        throw error
      })
  }

  /**
   * A short payment whose remainder completed its session: no attention, nothing left to do, its
   * coins owed back as late withdrawn (they paid the order), and a line in its timeline saying which
   * payment finished it.
   */
  async recordCompletedByRemainder(paymentId: string, remainderId?: string, now = new Date()) {
    await this.db().transaction((trx) => this.completedByRemainder(trx, paymentId, remainderId, now))
  }

  private async completedByRemainder(trx: Knex.Transaction, paymentId: string, remainderId?: string, now = new Date()) {
    await this.withdrawOwed(
      trx,
      paymentId,
      (r) => r.kind === "late" && !isNoOrderClaim(r),
      `Completed by its remainder${remainderId ? ` ${remainderId}` : ""}: the session was captured in full with both payments.`,
      { needs_attention: false, attention: null, settled: true },
      now
    )
  }

  /**
   * The checkout's cart became order `orderId`, paid with the capture its no-order claim owed back: the
   * claim is withdrawn and the row no longer says "captured, no order" (`rowFields: false`: the read's own
   * record says so).
   */
  private async withdrawNoOrderClaim(
    trx: Knex.Transaction,
    paymentId: string,
    orderId: string,
    now: Date,
    { rowFields = true }: { rowFields?: boolean } = {}
  ) {
    await this.withdrawOwed(
      trx,
      paymentId,
      isNoOrderClaim,
      `Order ${orderId} was placed with this capture: no longer "captured, no order".`,
      rowFields ? { captured_no_order: false, needs_attention: false, attention: null } : {},
      now,
      { onlyIfFlagged: rowFields }
    )
  }

  /**
   * Owed records that are paid for after all: the open ones `which` picks are soft-deleted and the timeline
   * says why (never coins whose payout started: they are leaving). Also writes `fields` on the row.
   * `onlyIfFlagged`: only a row that says "captured, no order" or holds such records is touched.
   */
  private async withdrawOwed(
    trx: Knex.Transaction,
    paymentId: string,
    which: (record: OwedRecord) => boolean,
    why: string,
    fields: Partial<Pick<LedgerRow, "needs_attention" | "attention" | "settled" | "captured_no_order">> = {},
    now = new Date(),
    { onlyIfFlagged = false }: { onlyIfFlagged?: boolean } = {}
  ): Promise<OwedRecord[]> {
    const [row] = await this.rows<LedgerRow>(
      `select * from "crypto_payment" where "payment_id" = ? and "deleted_at" is null for update`,
      [paymentId],
      trx
    )
    if (!row) return []
    const owed = await this.rows<OwedRecord>(
      `select * from "crypto_owed_amount" where "payment_id" = ? and "deleted_at" is null order by "created_at" asc`,
      [paymentId],
      trx
    )
    const withdrawn = owed.filter((r) => which(r) && !payoutUnderway(r))
    if (onlyIfFlagged && !row.captured_no_order && !withdrawn.length) return []
    // said once: a later read of the same state withdraws nothing and writes nothing
    const unchanged = (Object.keys(fields) as Array<keyof typeof fields>).every((key) => row[key] === fields[key])
    if (!withdrawn.length && unchanged) return []
    if (withdrawn.length)
      await this.rows(
        `update "crypto_owed_amount" set "deleted_at" = now(), "updated_at" = now()
         where "id" = any(?) and "deleted_at" is null and "payout_started_at" is null and "sent_at" is null`,
        [withdrawn.map((r) => r.id)],
        trx
      )
    const entries = [...((row.timeline as { entries?: unknown[] } | null)?.entries ?? [])]
    const parts = withdrawn.map((r) => `${r.coin_amount ?? "?"} ${r.coin ?? ""}`.trim())
    entries.push({
      at: now.toISOString(),
      source: "ledger",
      status: row.status,
      outcome: row.outcome,
      confirmations: row.confirmations,
      received: row.received_amount ?? "0",
      note: parts.length ? `${why} No longer owed back: ${parts.join(", ")} (withdrawn).` : why,
    })
    const stillOwed = owed.some((r) => !r.sent_at && !withdrawn.includes(r))
    await this.saveRecord(row.id, { ...fields, refund_owed: stillOwed, timeline: { entries } }, [], trx)
    return withdrawn
  }
}

/** One read's owed record: on which payment, at which rate, keyed by what was received when it was seen. */
export type OwedByReadToRecord = { paymentId: string; owed: OwedByRead; rate: PaymentRate; received: string }

/** What one read changes of what its checkout owes (recordRead). */
export type OwedChanges = {
  /** The payments whose late records a remainder's capture completed (the remainder named). */
  completed?: { paymentIds: string[]; remainderId?: string }
  /** The order the checkout's cart became, paid with the capture its no-order claim owed back. */
  claimMetOrder?: string
  /** What the read owes, worked out from the checkout as it stands under the lock. */
  owed?: (checkout: LedgerCheckout | undefined) => OwedByReadToRecord | undefined
}
