import { Coin, COIN_DECIMALS, isCoin, PaymentStatus, REQUIRED_CONFIRMATIONS } from "./crypto-api/constants"
import type { StatusRecord } from "./crypto-api/schemas"
import { fromUnits, toUnits } from "./decimal"

/**
 * One decision, used by checkout (authorize), the webhook route, reconciliation and the admin:
 * what does the service's status record mean for the session that expects it? The status comes
 * from the service, never from a webhook body; a record that does not match what the session
 * agreed to (another payment, another coin, less money) is never treated as paid.
 */

/** What a session agreed with the service when it was created. */
export type SessionExpectation = {
  paymentId: string
  kind: "invoice" | "payment"
  /** Payment: the coin and amount the customer was asked for. */
  coin?: Coin
  cryptoAmount?: string
  /** Invoice: the amount quoted for each coin. */
  quotes?: Partial<Record<Coin, string>>
}

export type PaymentOutcome = "paid" | "pending" | "expired" | "failed" | "mismatch"

export type PaymentAssessment = {
  outcome: PaymentOutcome
  status: PaymentStatus
  coin?: Coin
  /** The address to pay, once a coin is chosen. */
  address?: string
  /** Decimal strings at the coin's precision (or as the service wrote them before a coin is known). */
  received: string
  required?: string
  confirmations: number
  requiredConfirmations?: number
  underpaid: boolean
  overpaid: boolean
  /** Why a record was not accepted as it stands (mismatch), for logs and the admin. */
  reason?: string
}

export function assessPayment(record: StatusRecord, expected: SessionExpectation): PaymentAssessment {
  const base = {
    status: record.status,
    received: record.currentBalance,
    confirmations: record.confirmations,
    underpaid: false,
    overpaid: false,
  }
  const mismatch = (reason: string, extra: Partial<PaymentAssessment> = {}): PaymentAssessment => ({
    ...base,
    ...extra,
    outcome: "mismatch",
    reason,
  })

  if (record.paymentId !== expected.paymentId) {
    return mismatch("the status record names another payment")
  }
  const statusOnly: PaymentOutcome | undefined =
    record.status === "EXPIRED" ? "expired" : record.status === "FAILED" ? "failed" : undefined

  const coinText = record.currency ?? (expected.kind === "payment" ? expected.coin : undefined)
  if (coinText === undefined || coinText === null) {
    // An invoice whose coin is not chosen yet: nothing can have been paid.
    if (record.status === "COMPLETED") return mismatch("completed without a coin")
    return { ...base, outcome: statusOnly ?? "pending" }
  }
  if (!isCoin(coinText)) {
    return mismatch("the service reports an unknown coin")
  }
  const coin = coinText
  if (expected.kind === "payment" && expected.coin && coin !== expected.coin) {
    return mismatch("the service reports another coin than the session's")
  }

  const decimals = COIN_DECIMALS[coin]
  const agreed = expected.kind === "payment" ? expected.cryptoAmount : expected.quotes?.[coin]
  let requiredUnits: bigint
  let receivedUnits: bigint
  try {
    const reported = record.requiredAmount !== undefined ? toUnits(record.requiredAmount, decimals) : undefined
    const agreedUnits = agreed !== undefined ? toUnits(agreed, decimals) : undefined
    if (agreedUnits === undefined && reported === undefined) {
      return mismatch("no required amount is known for the coin")
    }
    if (agreedUnits !== undefined && reported !== undefined && reported < agreedUnits) {
      return mismatch("the service asks for less than the session agreed", { coin })
    }
    requiredUnits = agreedUnits !== undefined && (reported === undefined || agreedUnits > reported) ? agreedUnits : reported!
    receivedUnits = toUnits(record.currentBalance, decimals)
  } catch {
    return mismatch("the service reports an amount that is not a decimal", { coin })
  }

  const assessed = {
    ...base,
    coin,
    ...(record.address ? { address: record.address } : {}),
    received: fromUnits(receivedUnits, decimals),
    required: fromUnits(requiredUnits, decimals),
    requiredConfirmations: REQUIRED_CONFIRMATIONS[coin],
    underpaid: receivedUnits > 0n && receivedUnits < requiredUnits,
    overpaid: receivedUnits > requiredUnits,
  }
  if (statusOnly) return { ...assessed, outcome: statusOnly }
  if (record.status === "COMPLETED") {
    return receivedUnits >= requiredUnits
      ? { ...assessed, outcome: "paid" }
      : { ...assessed, outcome: "mismatch", reason: "completed with less than the required amount" }
  }
  return { ...assessed, outcome: "pending" }
}

/** The public progress of a payment, as session data and the storefront show it. */
export function publicProgress(assessment: PaymentAssessment) {
  return {
    status: assessment.status,
    confirmations: assessment.confirmations,
    ...(assessment.requiredConfirmations !== undefined ? { requiredConfirmations: assessment.requiredConfirmations } : {}),
    receivedAmount: assessment.received,
    ...(assessment.required !== undefined ? { requiredAmount: assessment.required } : {}),
    ...(assessment.coin ? { currency: assessment.coin } : {}),
  }
}

/** Where the Medusa side of a payment stands when a status arrives. */
export type StoreSideState = {
  /** The payment session's status in Medusa. */
  sessionStatus: string
  /** A Payment exists for the session and is captured. */
  captured: boolean
  orderId?: string
  orderStatus?: string
}

export type PaymentAction = "capture" | "cancel_order" | "cancel_session" | "none"

export type PaymentDecision = {
  action: PaymentAction
  /** No further status reads are needed (polling stops). */
  settled: boolean
  paidLate: boolean
  /** Why the admin should look at this payment, if they should. */
  attention?: string
}

const CLOSED_SESSION = ["canceled", "error"]

/**
 * What to do about an assessed status, given the store's side. A paid order is never downgraded;
 * a payment that completes after its session or order was closed is flagged, never dropped.
 */
export function decideAction(a: PaymentAssessment, store: StoreSideState): PaymentDecision {
  const paidAlready = store.captured || store.sessionStatus === "captured" || store.sessionStatus === "authorized"
  const orderOpen = store.orderId !== undefined && store.orderStatus !== "canceled"
  switch (a.outcome) {
    case "paid": {
      if (paidAlready) {
        return { action: "none", settled: true, paidLate: false, ...(a.overpaid ? { attention: overpaidNote(a) } : {}) }
      }
      if (CLOSED_SESSION.includes(store.sessionStatus) || store.orderStatus === "canceled") {
        return {
          action: "none",
          settled: true,
          paidLate: true,
          attention: `Paid late: ${a.received} ${a.coin} arrived after the ${store.orderStatus === "canceled" ? "order was canceled" : "payment was closed"}. Refund it from the service's dashboard or fulfil the order by hand.`,
        }
      }
      return { action: "capture", settled: true, paidLate: false, ...(a.overpaid ? { attention: overpaidNote(a) } : {}) }
    }
    case "expired":
    case "failed": {
      const word = a.outcome === "expired" ? "expired" : "failed"
      if (paidAlready) {
        return { action: "none", settled: true, paidLate: false, attention: `The service reports ${a.status} for a payment already captured; nothing was changed.` }
      }
      const partial = a.underpaid ? { attention: `Underpaid and ${word}: ${a.received} of ${a.required} ${a.coin} arrived. Refund it from the service's dashboard.` } : {}
      if (orderOpen) return { action: "cancel_order", settled: true, paidLate: false, ...partial }
      if (!CLOSED_SESSION.includes(store.sessionStatus)) return { action: "cancel_session", settled: true, paidLate: false, ...partial }
      return { action: "none", settled: true, paidLate: false, ...partial }
    }
    case "mismatch":
      return { action: "none", settled: false, paidLate: false, attention: `Not accepted as paid: ${a.reason}.` }
    case "pending":
      return {
        action: "none",
        settled: false,
        paidLate: false,
        ...(a.underpaid ? { attention: `Underpaid so far: ${a.received} of ${a.required} ${a.coin}.` } : {}),
      }
  }
}

function overpaidNote(a: PaymentAssessment): string {
  return `Overpaid: ${a.received} ${a.coin} arrived for ${a.required} required.`
}

/** Medusa's session status for an outcome (getPaymentStatus, and the table checkout follows). */
export function sessionStatusFor(
  outcome: PaymentOutcome,
  placeOrder: "before_payment" | "after_payment"
): "captured" | "canceled" | "error" | "pending_authorization" | "pending" {
  switch (outcome) {
    case "paid":
      return "captured"
    case "expired":
      return "canceled"
    case "failed":
      return "error"
    default:
      return placeOrder === "before_payment" ? "pending_authorization" : "pending"
  }
}
