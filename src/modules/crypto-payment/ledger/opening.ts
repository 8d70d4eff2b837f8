import { CryptoPaymentEvents, eventSuffix } from "../../../lib/domain/payment-events"
import { entityId } from "../../../lib/domain/entity-id"
import { OUTBOX_TABLE } from "../payment-outbox"

/** What the core writes when the service has created an invoice or payment. */
export type OpenedPayment = {
  payment_id: string
  session_id: string
  kind: "invoice" | "payment"
  base_amount: string
  base_currency: string
  crypto_amount?: string
  quotes?: Record<string, string>
  coin?: string
  address?: string
  invoice_url: string
  qr_code?: string
  /** Null when the service's expiry could not be read (the watch window then counts from creation). */
  expires_at: string | null
  watch_until: Date
  next_check_at: Date
  /** The short payment this one asks the rest of (a remainder). */
  remainder_of?: string
  /** A converted store currency: how base_amount became the USD amount asked (see the model). */
  exchange?: PaymentExchange
}

export type PaymentExchange = {
  usd_amount: string
  exchange_rate: string
  rate_source: string
  rate_url: string | null
  rate_published_on: string | null
  rate_markup_percent: string
}

/**
 * $1: the session; $2..$24: the row, as openingValues lists them; with `writesSession`, $25: the session's
 * data. The row's crypto_payment.created event is written by the same statement.
 */
export function openingStatement(writesSession: boolean): string {
  const session = writesSession
    ? `update "payment_session" set "data" = $25::jsonb, "updated_at" = now() where "id" = $1
         returning "payment_collection_id", "provider_id"`
    : `select "payment_collection_id", "provider_id" from "payment_session" where "id" = $1`
  return `with "session" as (${session}), "link" as (
    select l."order_id", o."display_id" from "order_payment_collection" l left join "order" o on o."id" = l."order_id"
    where l."deleted_at" is null and l."payment_collection_id" = (select "payment_collection_id" from "session") limit 1
  ), "opened" as (
    insert into "crypto_payment" ("id", "payment_id", "session_id", "payment_collection_id", "provider_id", "order_id", "order_display_id", "kind",
      "base_amount", "base_currency", "crypto_amount", "quotes", "coin", "address", "invoice_url", "qr_code", "expires_at",
      "watch_until", "next_check_at", "remainder_of", "timeline", "usd_amount", "exchange_rate", "rate_source", "rate_url",
      "rate_published_on", "rate_markup_percent")
    values ($2, $3, $4, (select "payment_collection_id" from "session"), (select "provider_id" from "session"),
      (select "order_id" from "link"), (select "display_id" from "link"),
      $5, $6, $7, $8, $9::jsonb, $10, $11, $12, $13, $14, $15, $16, $17, $18::jsonb, $19, $20, $21, $22, $23, $24)
    on conflict do nothing
    returning "id", "payment_id", "payment_collection_id", "order_id")
    insert into "${OUTBOX_TABLE}" ("id", "event_key", "name", "crypto_payment_id", "payment_id", "payment_collection_id", "order_id")
    select replace(o."id", 'cryptopay_', 'cryptoevt_'), o."payment_id" || ':${eventSuffix(CryptoPaymentEvents.CREATED)}',
      '${CryptoPaymentEvents.CREATED}', o."id", o."payment_id", o."payment_collection_id", o."order_id"
    from "opened" o
    on conflict ("event_key") do nothing`
}

/** openingStatement's $1..$24 for a payment: its session, then its row with a first timeline entry. */
export function openingValues(payment: OpenedPayment, now = new Date()): unknown[] {
  const entry = {
    at: now.toISOString(),
    source: "checkout",
    status: "PENDING",
    outcome: "pending",
    confirmations: 0,
    received: "0",
  }
  return [
    payment.session_id,
    entityId("cryptopay"),
    payment.payment_id,
    payment.session_id,
    payment.kind,
    payment.base_amount,
    payment.base_currency,
    payment.crypto_amount ?? null,
    payment.quotes ? JSON.stringify(payment.quotes) : null,
    payment.coin ?? null,
    payment.address ?? null,
    payment.invoice_url,
    payment.qr_code ?? null,
    payment.expires_at,
    payment.watch_until,
    payment.next_check_at,
    payment.remainder_of ?? null,
    JSON.stringify({ entries: [entry] }),
    payment.exchange?.usd_amount ?? null,
    payment.exchange?.exchange_rate ?? null,
    payment.exchange?.rate_source ?? null,
    payment.exchange?.rate_url ?? null,
    payment.exchange?.rate_published_on ?? null,
    payment.exchange?.rate_markup_percent ?? null,
  ]
}
