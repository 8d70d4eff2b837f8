/**
 * The terms of one decision, apart from the rules, so the facts the rules read (decision-facts.ts) and
 * the rules themselves both depend on them, not on each other.
 */

/** Where the Medusa side of one ledger payment stands when its status arrives. */
export type StoreSideState = {
  /** The payment is its session's current one: the session exists and no newer payment replaced it. */
  current: boolean
  /** Its own session exists and is not closed (canceled / error). */
  sessionOpen: boolean
  /**
   * The session its money would pay: its own while current, else the cart's open crypto session
   * (the one that replaced it). Undefined when there is none.
   */
  targetSessionId?: string
  /** A captured Medusa payment exists that this payment paid for. */
  capturedByThis: boolean
  /**
   * That capture's session, when its order holds no transaction for it (a run that failed between
   * Medusa's capture and the order's record): capturing again records it and captures nothing twice.
   */
  captureUnrecorded?: string
  /** The cart or order was already paid, or claimed, by another payment (ours or another provider's). */
  paidByOther: boolean
  covers: boolean
  orderId?: string
  orderStatus?: string
  /**
   * The collection was created on an existing order (order edit, claim, exchange, admin request),
   * not by a cart's checkout: its payment never cancels or refunds the order.
   */
  orderCollection: boolean
  /** This payment asks the rest of a short one (a remainder): its session was closed when that one expired. */
  remainder?: boolean
  /** A remainder of this short payment completed its session: nothing of it is owed back but what both sent beyond it. */
  completedByRemainder?: boolean
  /** What this short payment's remainder received (coins), once it has one: the pair's excess counts both. */
  remainderReceived?: string
  /**
   * Its coins are already owed back as a late payment (a record of kind late, open or sent): it stays
   * owed and never pays the customer's next attempt (one state only, docs/money.md).
   */
  owedLate?: boolean
  /**
   * Medusa holds a capture of the checkout's coins, and its cart has no order (captured, no order), derived
   * from Medusa's state on every read: nothing more is done with it automatically.
   */
  capturedNoOrder?: boolean
  /** The checkout holds a no-order claim, and its cart has become an order paid with its capture since. */
  claimMeetsOrder?: boolean
  /** ... and that claim's coins are being paid out or were sent back: the admin decides. */
  claimUnderway?: boolean
  /** Another payment of the collection still confirms the full amount: nothing is canceled while it does. */
  othersConfirming?: boolean
  /** The order is paid through another of its collections: this payment never cancels it. */
  orderPaidElsewhere?: boolean
  /** The late-payment window (the row's watch_until: expiry + lateWindowHours) has ended. */
  lateWindowOver?: boolean
  /**
   * What the shop asked at creation, in the store currency (its base amount): with the service's
   * required coins, the payment's rate. A remainder's is its checkout's: the first payment's store
   * amount, with the coins it required (`required`).
   */
  base?: { amount: string; currency: string; required?: string }
  /**
   * The base amount the session this payment pays asks (its own, or the cheaper cart a replaced
   * invoice pays): what the order takes of the coins received.
   */
  takenBase?: string
}

/** What the shop's policy says about reads that are not wrong but worth knowing. */
export type DecisionPolicy = {
  /** A re-price beyond this share of the creation quote raises the informational quote_drift flag. */
  quoteDriftAlertPercent: number
  /**
   * What an expired or failed checkout payment does to its awaiting order: "flag" cancels it (a late
   * payment is flagged); "fulfil" keeps it awaiting until the late-payment window ends, so a late
   * payment inside it is an ordinary capture.
   */
  latePayments?: LatePayments
}

export const LATE_PAYMENTS = ["flag", "fulfil"] as const
export type LatePayments = (typeof LATE_PAYMENTS)[number]

export type PaymentAction = "capture" | "cancel_order" | "cancel_session" | "none"

/** Flags a decision raises on the ledger row (never lowers: a flag once true stays for the admin). */
export type DecisionFlags = Partial<
  Record<
    | "paid_late"
    | "paid_twice"
    | "replaced_session"
    | "underpaid"
    | "overpaid"
    | "mismatch"
    | "quote_drift"
    | "accepted_short",
    true
  >
>

/** Money owed to the customer as this read shows it: the total of one kind for the payment (records hold the parts). */
export type OwedByRead = {
  kind: "excess" | "late"
  coins: string
  /** What a remainder and its first payment sent beyond the amount: owed on the first payment (its rate, one total). */
  pair?: true
  /** Every coin of a capture that made no order: a claim of its own, never withdrawn by a remainder's completion. */
  noOrder?: true
}

export type PaymentDecision = {
  action: PaymentAction
  /** Medusa's session the action applies to (capture: the session paid; cancels: its own). */
  sessionId?: string
  /** Nothing left to do: no further status reads are needed for this outcome. */
  settled: boolean
  /** Expired: keep reading with a growing interval for the late-payment window. */
  watchLate: boolean
  flags: DecisionFlags
  /** Why the admin should look at this payment and what to do, if they should. */
  attention?: string
  /** Something the shop should know even though nothing needs doing (logged at warn once). */
  note?: string
  /** Coins owed back: beyond what the order took (excess), or all of a payment that came too late. */
  owed?: OwedByRead
  /**
   * Coins beyond what the order took that are less than one unit of the chain (a wallet rounded up an amount the
   * service wrote at more places): kept as rounding on the timeline, never owed back or emailed.
   */
  rounding?: string
  /** Nothing is canceled before the late-payment window ends: read again no later than its end. */
  holdUntilWindowEnd?: true
  /**
   * Its coins paid the order with its remainder: the late records of the first payment (this one, or
   * the one this remainder completes) are withdrawn, kept in the log with why.
   */
  completesFirst?: true
  /**
   * Its capture already stands in Medusa (made by an earlier run, or by the storefront's completion):
   * nothing to apply, and the payment is paid (its crypto_payment.paid event).
   */
  captured?: true
  /**
   * Nothing can ever arrive that the shop would act on (an invoice that expired before a coin was
   * chosen has no address; a replaced session's unpaid invoice): it leaves the due index, only a
   * webhook brings it back.
   */
  stopReading?: true
  /**
   * The full amount arrived and is not confirmed yet: read until its confirmations decide it (paid, or
   * owed back as late), also after the watch window, which would otherwise stop the reads.
   */
  untilConfirmed?: true
  /**
   * The checkout's cart became an order paid with the capture a no-order claim owed back: the claim is
   * withdrawn (kept in the log with why) as this read records the order's capture.
   */
  withdrawNoOrderClaim?: true
}
