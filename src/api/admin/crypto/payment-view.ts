import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { InferTypeOf } from "@medusajs/framework/types"
import type CryptoPayment from "../../../modules/crypto-payment/models/crypto-payment"
import { LEDGER_FLAGS, LedgerFlag } from "../../../modules/crypto-payment/types"
import { qrPayload } from "../../../lib/payment-view"

type Row = InferTypeOf<typeof CryptoPayment>

const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null)

/** A ledger row as the admin API shows it: exact decimal strings, flags as a list, the refund state. */
export function adminPaymentView(row: Row) {
  const flags = LEDGER_FLAGS.filter((flag) => (row as unknown as Record<LedgerFlag, boolean>)[flag])
  const qrCode = row.qr_code ?? qrPayload(row.coin, row.address, row.required_amount)
  return {
    id: row.payment_id,
    kind: row.kind,
    status: row.status,
    outcome: row.outcome,
    coin: row.coin,
    address: row.address,
    qr_code: qrCode,
    invoice_url: row.invoice_url,
    amount_required: row.required_amount ?? row.crypto_amount,
    amount_received: row.received_amount ?? "0",
    confirmations: row.confirmations,
    required_confirmations: row.required_confirmations,
    base_amount: row.base_amount,
    base_currency: row.base_currency,
    expires_at: iso(row.expires_at),
    flags,
    attention: row.attention,
    applied: row.applied,
    settled: row.settled,
    order_id: row.order_id,
    session_id: row.session_id,
    payment_collection_id: row.payment_collection_id,
    paid_session_id: row.capture_session_id,
    refund: {
      owed: row.refund_owed,
      amount: row.refund_amount,
      base_amount: row.refunded_base_amount,
      sent_at: iso(row.refund_sent_at),
      reference: row.refund_reference,
    },
    timeline: ((row.timeline as { entries?: unknown[] } | null)?.entries ?? []) as unknown[],
    last_checked_at: iso(row.last_checked_at),
    next_check_at: iso(row.next_check_at),
    created_at: iso(row.created_at),
  }
}
export type AdminCryptoPaymentView = ReturnType<typeof adminPaymentView>

/** One payment with the cart and order it belongs to. */
export async function adminPaymentDetail(container: MedusaContainer, row: Row) {
  const view = adminPaymentView(row)
  if (!row.payment_collection_id) return { ...view, cart_id: null }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const [{ data: carts }, { data: orders }] = await Promise.all([
    query.graph({
      entity: "cart_payment_collection",
      fields: ["cart_id"],
      filters: { payment_collection_id: row.payment_collection_id },
    }),
    query.graph({
      entity: "order_payment_collection",
      fields: ["order_id"],
      filters: { payment_collection_id: row.payment_collection_id },
    }),
  ])
  return {
    ...view,
    cart_id: (carts[0] as { cart_id?: string } | undefined)?.cart_id ?? null,
    order_id: view.order_id ?? (orders[0] as { order_id?: string } | undefined)?.order_id ?? null,
  }
}
