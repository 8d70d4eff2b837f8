import { createHash } from "node:crypto"
import { isZero } from "./owed"

/**
 * One event per recorded transition (docs/events-and-emails.md). The outbox delivers at least once, so
 * a subscriber that must act once deduplicates on `event_key`, stable per transition.
 */
export const CryptoPaymentEvents = {
  /** The shop created an invoice or payment at the service (a checkout's, an order collection's, a remainder). */
  CREATED: "crypto_payment.created",
  /** The first coins were seen, not yet confirmed. */
  DETECTED: "crypto_payment.detected",
  /** The payment's capture was applied in Medusa. */
  PAID: "crypto_payment.paid",
  /** Expired or failed unpaid: its checkout order was canceled or its session closed. */
  EXPIRED: "crypto_payment.expired",
  UNDERPAID: "crypto_payment.underpaid",
  OVERPAID: "crypto_payment.overpaid",
  /** Paid after its invoice expired or its order was canceled: the admin decides. */
  PAID_LATE: "crypto_payment.paid_late",
  /** Coins are owed back to the customer (one event per owed record: a refund, an excess, late money). */
  REFUND_OWED: "crypto_payment.refund_owed",
  /** The admin should look at the payment (the reason is in the admin's view of it). */
  NEEDS_ATTENTION: "crypto_payment.needs_attention",
} as const

export type CryptoPaymentEventName = (typeof CryptoPaymentEvents)[keyof typeof CryptoPaymentEvents]
export const CRYPTO_PAYMENT_EVENT_NAMES = Object.values(CryptoPaymentEvents) as CryptoPaymentEventName[]

/** What every crypto_payment.* event carries: fetch the rest with `query.graph` through the module's links. */
export type CryptoPaymentEventData = {
  /** The ledger row's id (entity `crypto_payment`). */
  id: string
  /** The service's invoice or payment id. */
  payment_id: string
  payment_collection_id: string | null
  order_id?: string
  /** Stable per transition: the same transition delivered twice carries the same key. */
  event_key: string
}

export type PaymentEvent = { name: CryptoPaymentEventName; key: string }

export function eventSuffix(name: CryptoPaymentEventName): string {
  return name.slice("crypto_payment.".length)
}

/** The key of a transition that happens at most once in a payment's life. */
export function onceKey(paymentId: string, name: CryptoPaymentEventName): string {
  return `${paymentId}:${eventSuffix(name)}`
}

/**
 * The key of a need for attention: one per reason, so a payment that needs attention again for
 * another reason emits again, and the same reason raised by two processes is one event.
 */
export function attentionKey(paymentId: string, attention: string | null): string {
  const reason = createHash("sha256")
    .update(attention ?? "")
    .digest("hex")
    .slice(0, 16)
  return `${onceKey(paymentId, CryptoPaymentEvents.NEEDS_ATTENTION)}:${reason}`
}

/** The key of an owed record's event: one per record (its key is unique per payment). */
export function owedKey(paymentId: string, owedRecordKey: string): string {
  return `${onceKey(paymentId, CryptoPaymentEvents.REFUND_OWED)}:${owedRecordKey}`
}

/** The owed record's key a refund_owed event names (owedKey read back), or undefined for another key. */
export function owedRecordKeyOf(paymentId: string, eventKey: string): string | undefined {
  const prefix = `${onceKey(paymentId, CryptoPaymentEvents.REFUND_OWED)}:`
  return eventKey.startsWith(prefix) && eventKey.length > prefix.length ? eventKey.slice(prefix.length) : undefined
}

export type EventRowBefore = {
  payment_id: string
  status: string
  received_amount: string | null
  underpaid: boolean
  overpaid: boolean
  paid_late: boolean
  needs_attention: boolean
  attention: string | null
}

export type EventRecordFields = {
  status?: string
  outcome?: string
  received_amount?: string | null
  underpaid: boolean
  overpaid: boolean
  paid_late: boolean
  needs_attention: boolean
  attention: string | null
}

/** What was applied in Medusa for the read (after it happened), as far as events care. */
export type EventEffect = {
  /** The decision's action, applied: capture, cancel_order, cancel_session, or none. */
  action: string
  /** The payment pays its session and Medusa holds the capture (applied now, or earlier, or by the storefront). */
  captured: boolean
}

const FLAG_EVENTS = [
  ["underpaid", CryptoPaymentEvents.UNDERPAID],
  ["overpaid", CryptoPaymentEvents.OVERPAID],
  ["paid_late", CryptoPaymentEvents.PAID_LATE],
] as const

/**
 * The transitions a read's record makes. The same read recorded twice (a duplicate webhook, a retried
 * workflow, two processes) gives the same keys, and the outbox keeps one row per key. A first read that
 * is already COMPLETED emits paid, not detected.
 */
export function recordEventsOf(before: EventRowBefore, after: EventRecordFields, effect: EventEffect): PaymentEvent[] {
  const id = before.payment_id
  const events: PaymentEvent[] = []
  const once = (name: CryptoPaymentEventName) => events.push({ name, key: onceKey(id, name) })
  const status = after.status ?? before.status
  const receivedBefore = before.received_amount ?? "0"
  const receivedNow = after.received_amount ?? receivedBefore
  if (status === "PENDING" && isZero(receivedBefore) && !isZero(receivedNow)) once(CryptoPaymentEvents.DETECTED)
  for (const [flag, name] of FLAG_EVENTS) if (after[flag] && !before[flag]) once(name)
  if (effect.captured) once(CryptoPaymentEvents.PAID)
  if (
    (effect.action === "cancel_order" || effect.action === "cancel_session") &&
    (status === "EXPIRED" || status === "FAILED") &&
    after.outcome !== "paid"
  )
    once(CryptoPaymentEvents.EXPIRED)
  if (after.needs_attention && !before.needs_attention)
    events.push({ name: CryptoPaymentEvents.NEEDS_ATTENTION, key: attentionKey(id, after.attention) })
  return events
}
