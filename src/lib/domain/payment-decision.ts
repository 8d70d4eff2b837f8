import { Coin, isCoin, PaymentStatus, REQUIRED_CONFIRMATIONS } from "../crypto-api/constants"
import type { StatusRecord } from "../crypto-api/schemas"
import { coinText, coinUnits } from "./money"
import type { AgreedTerms } from "./agreed-terms"
import { excessCoins, isZero, PaymentRate } from "./owed"

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

/** What a ledger row agreed, as the decision compares it. */
export function expectationOf(terms: AgreedTerms): SessionExpectation {
  if (terms.kind === "payment") {
    return {
      paymentId: terms.payment_id,
      kind: "payment",
      ...(isCoin(terms.coin) ? { coin: terms.coin } : {}),
      ...(terms.crypto_amount ? { cryptoAmount: terms.crypto_amount } : {}),
    }
  }
  const quotes: Partial<Record<Coin, string>> = {}
  for (const [coin, amount] of Object.entries(terms.quotes ?? {}))
    if (isCoin(coin) && typeof amount === "string") quotes[coin] = amount
  return { paymentId: terms.payment_id, kind: "invoice", quotes }
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
  /** The service asks for another coin amount than the creation quote said (a re-priced invoice). */
  quoteDrift?: QuoteDrift
  /**
   * EXPIRED short by no more than the shop's underpayment tolerance: with the coin's confirmations it
   * is paid (outcome "paid"); with fewer it is still confirming (outcome "pending").
   */
  short?: ShortPayment
  /** What arrived covers what is required (compared exactly in coin units). */
  covered?: boolean
  /** The coins have the confirmations their chain needs. */
  confirmed?: boolean
  /**
   * EXPIRED or FAILED with the full amount confirmed, taken as paid because the shop fulfils late
   * payments and the late-payment window is open (latePayments "fulfil").
   */
  late?: true
  /** The shop would still take such a late payment (see AssessTerms.acceptsLate). */
  acceptsLate?: true
  /**
   * A remainder judged with its first payment (withFirstPayment): `received` and `required` are the
   * pair's; these are the remainder's own, which its ledger row keeps and which it owes on its own.
   */
  own?: { received: string; required?: string }
}

/** A payment that expired short, within the shop's tolerance: the shortfall in coins and whether it is confirmed. */
export type ShortPayment = { shortfall: string; tolerancePercent: number; confirmed: boolean }

/** What the shop accepts when it judges a status record (its saved settings, else the provider's options). */
export type AssessTerms = {
  /** A payment that EXPIRED short by at most this percent of the required coins (two decimals) is paid once confirmed. */
  underpaymentTolerancePercent?: number
  /**
   * The shop fulfils late payments (latePayments "fulfil") and the payment's late-payment window is
   * open: a payment the service keeps EXPIRED (or FAILED) while its full amount arrives and confirms
   * is paid (a service may never move EXPIRED once coins arrive late: the spec tells clients to stop
   * polling there).
   */
  acceptsLate?: boolean
}

/**
 * The shortfall is at most `percent` of what was required, compared exactly in coin units: exactly
 * at the tolerance is within it, one smallest unit more is not.
 */
export function withinTolerance(requiredUnits: bigint, receivedUnits: bigint, percent: number): boolean {
  if (!(percent > 0) || receivedUnits <= 0n || receivedUnits >= requiredUnits) return false
  return (requiredUnits - receivedUnits) * 10_000n <= BigInt(Math.round(percent * 100)) * requiredUnits
}

/** A re-price: what was quoted at creation, what the service requires now, and the change in basis points (signed, toward zero). */
export type QuoteDrift = { coin: Coin; quoted: string; required: string; basisPoints: number }

/** The re-price is more than `percent` of the quote, compared exactly in coin units (percent to two decimals). */
export function driftBeyond(drift: QuoteDrift, percent: number): boolean {
  const quoted = coinUnits(drift.quoted, drift.coin)
  const change = coinUnits(drift.required, drift.coin) - quoted
  return (change < 0n ? -change : change) * 10_000n > BigInt(Math.round(percent * 100)) * quoted
}

/** A drift in basis points as signed percent text: -320 → "-3.20". */
export function driftPercentText(basisPoints: number): string {
  const sign = basisPoints < 0 ? "-" : ""
  const abs = Math.abs(basisPoints)
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`
}

export function assessPayment(
  record: StatusRecord,
  expected: SessionExpectation,
  terms: AssessTerms = {}
): PaymentAssessment {
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

  const named = record.currency ?? (expected.kind === "payment" ? expected.coin : undefined)
  if (named === undefined || named === null) {
    // An invoice whose coin is not chosen yet: nothing can have been paid.
    if (record.status === "COMPLETED") return mismatch("completed without a coin")
    return { ...base, outcome: statusOnly ?? "pending" }
  }
  if (!isCoin(named)) {
    return mismatch("the service reports an unknown coin")
  }
  const coin = named
  if (expected.kind === "payment" && expected.coin && coin !== expected.coin) {
    return mismatch("the service reports another coin than the session's")
  }

  const agreed = expected.kind === "payment" ? expected.cryptoAmount : expected.quotes?.[coin]
  let requiredUnits: bigint
  let receivedUnits: bigint
  let quotedUnits: bigint | undefined
  try {
    // The amount the service asks for now is the term: quotes are not locked (a gateway may re-price
    // when the coin is chosen); the base amount is what the shop agreed. Exact within the coin's native
    // decimals; digits beyond them (no chain has them) round required up and received down.
    const reported = record.requiredAmount !== undefined ? coinUnits(record.requiredAmount, coin, "up") : undefined
    quotedUnits = agreed !== undefined ? coinUnits(agreed, coin, "up") : undefined
    const known = reported ?? quotedUnits
    if (known === undefined) return mismatch("no required amount is known for the coin")
    if (known <= 0n) return mismatch("the service asks for no money", { coin })
    requiredUnits = known
    receivedUnits = coinUnits(record.currentBalance, coin, "down")
  } catch {
    return mismatch("the service reports an amount that is not a decimal", { coin })
  }
  const drift =
    quotedUnits !== undefined && quotedUnits > 0n && requiredUnits !== quotedUnits
      ? {
          quoteDrift: {
            coin,
            quoted: coinText(quotedUnits, coin),
            required: coinText(requiredUnits, coin),
            basisPoints: Number(((requiredUnits - quotedUnits) * 10_000n) / quotedUnits),
          },
        }
      : {}

  const confirmed = record.confirmations >= REQUIRED_CONFIRMATIONS[coin]
  const assessed = {
    ...base,
    coin,
    ...(record.address ? { address: record.address } : {}),
    received: coinText(receivedUnits, coin),
    required: coinText(requiredUnits, coin),
    requiredConfirmations: REQUIRED_CONFIRMATIONS[coin],
    underpaid: receivedUnits > 0n && receivedUnits < requiredUnits,
    overpaid: receivedUnits > requiredUnits,
    covered: receivedUnits >= requiredUnits,
    confirmed,
    ...(terms.acceptsLate ? { acceptsLate: true as const } : {}),
    ...drift,
  }
  const tolerance = terms.underpaymentTolerancePercent ?? 0
  if (record.status === "EXPIRED" && withinTolerance(requiredUnits, receivedUnits, tolerance)) {
    // the wallet's fee came out of the amount sent: paid once the coin's confirmations are there
    return {
      ...assessed,
      outcome: confirmed ? "paid" : "pending",
      short: { shortfall: coinText(requiredUnits - receivedUnits, coin), tolerancePercent: tolerance, confirmed },
    }
  }
  if (statusOnly) {
    // the full amount confirmed on a payment the service keeps EXPIRED or FAILED: late money, paid
    // where the shop fulfils late payments inside the window, judged by the decision otherwise
    if (terms.acceptsLate && assessed.covered && confirmed) return { ...assessed, outcome: "paid", late: true }
    return { ...assessed, outcome: statusOnly }
  }
  if (record.status === "COMPLETED") {
    return receivedUnits >= requiredUnits
      ? { ...assessed, outcome: "paid" }
      : { ...assessed, outcome: "mismatch", reason: "completed with less than the required amount" }
  }
  return { ...assessed, outcome: "pending" }
}

/**
 * A remainder judged with the short payment it completes (DESIGN §2.5): the session is paid only
 * when the remainder is paid, the first payment's coins are confirmed, and both together cover what
 * the first one required. Amounts, the rate and what is owed are the first payment's.
 */
export function withFirstPayment(remainder: PaymentAssessment, first: PaymentAssessment): PaymentAssessment {
  if (remainder.outcome === "mismatch") return remainder
  if (!first.coin || first.coin !== remainder.coin || first.required === undefined)
    return { ...remainder, outcome: "mismatch", reason: "the remainder's coin is not the first payment's" }
  const coin = first.coin
  const receivedUnits = coinUnits(first.received, coin) + coinUnits(remainder.received, coin)
  const requiredUnits = coinUnits(first.required, coin)
  const covered = receivedUnits >= requiredUnits
  const paid = remainder.outcome === "paid" && !!first.confirmed && covered
  return {
    ...remainder,
    own: { received: remainder.received, ...(remainder.required ? { required: remainder.required } : {}) },
    outcome: paid ? "paid" : remainder.outcome === "paid" ? "pending" : remainder.outcome,
    received: coinText(receivedUnits, coin),
    required: first.required,
    confirmations: Math.min(first.confirmations, remainder.confirmations),
    confirmed: !!first.confirmed && !!remainder.confirmed,
    covered,
    underpaid: receivedUnits > 0n && receivedUnits < requiredUnits,
    overpaid: receivedUnits > requiredUnits,
    quoteDrift: undefined,
  }
}

/** The public progress of a payment, as session data and the storefront show it. */
export function publicProgress(assessment: PaymentAssessment) {
  return {
    status: assessment.status,
    confirmations: assessment.confirmations,
    ...(assessment.requiredConfirmations !== undefined
      ? { requiredConfirmations: assessment.requiredConfirmations }
      : {}),
    receivedAmount: assessment.received,
    ...(assessment.required !== undefined ? { requiredAmount: assessment.required } : {}),
    ...(assessment.coin ? { currency: assessment.coin } : {}),
  }
}

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
  /** Its base amount and currency cover what the cart or order asks now. */
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
   * owed and never pays the customer's next attempt (one state only, DESIGN §2.5).
   */
  owedLate?: boolean
  /** It was captured but no order holds it (captured, no order): nothing more is done with it automatically. */
  capturedNoOrder?: boolean
  /** Another payment of the collection still confirms the full amount: nothing is canceled while it does. */
  othersConfirming?: boolean
  /** The order is paid through another of its collections: this payment never cancels it. */
  orderPaidElsewhere?: boolean
  /** The late-payment window (the row's watch_until: expiry + lateWindowHours) has ended. */
  lateWindowOver?: boolean
  /** What the shop asked at creation, in the store currency (its base amount): with the service's required coins, the payment's rate. */
  base?: { amount: string; currency: string }
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
  /** Nothing is canceled before the late-payment window ends: read again no later than its end. */
  holdUntilWindowEnd?: true
  /**
   * Its coins paid the order with its remainder: the late records of the first payment (this one, or
   * the one this remainder completes) are withdrawn, kept in the log with why.
   */
  completesFirst?: true
  /**
   * Nothing can ever arrive that the shop would act on (an invoice that expired before a coin was
   * chosen has no address; a replaced session's unpaid invoice): it leaves the due index, only a
   * webhook brings it back.
   */
  stopReading?: true
}

const amountOf = (a: PaymentAssessment) => `${a.received} ${a.coin ?? ""}`.trim()

const acceptedShortNote = (a: PaymentAssessment, short: ShortPayment) =>
  `Accepted short: ${a.received} of ${a.required} ${a.coin} arrived, ${short.shortfall} short, within the ${short.tolerancePercent} % underpayment tolerance.`

/**
 * What to do about an assessed status, given the store's side. A paid order is never downgraded;
 * money that arrives after its session was replaced pays the cart it was made for when it covers
 * it; money that arrives late, twice or short is flagged for the admin and owed back, never dropped,
 * and every coin is in one state only: it pays an order or it is owed, never both.
 */
export function decideAction(
  a: PaymentAssessment,
  store: StoreSideState,
  policy: DecisionPolicy = { quoteDriftAlertPercent: 2 }
): PaymentDecision {
  // short within the tolerance and still confirming: once the window has ended it is judged as expired
  if (a.outcome === "pending" && a.short && store.lateWindowOver)
    return decideAction({ ...a, outcome: "expired", short: undefined }, store, policy)
  const judge = new Judgement(a, store, policy)
  // captured with no order: every coin that arrived is owed (beyond a refund Medusa's compensation
  // recorded) and the admin decides; no read captures it again
  if (store.capturedNoOrder) return judge.none({ flags: judge.sizeFlags, ...judge.all("late") })
  switch (a.outcome) {
    case "paid":
      return judge.paid()
    case "expired":
    case "failed":
      return judge.closed()
    case "mismatch":
      return judge.none({
        settled: false,
        flags: { ...judge.sizeFlags, mismatch: true },
        attention: `Not accepted as paid: ${a.reason}.`,
      })
    case "pending":
      // expired short within the tolerance, confirming: nothing is canceled while the confirmations arrive
      if (a.short)
        return judge.none({ settled: false, watchLate: true, holdUntilWindowEnd: true, flags: judge.sizeFlags })
      return judge.none({
        settled: false,
        flags: judge.sizeFlags,
        ...(a.underpaid ? { attention: `Underpaid so far: ${a.received} of ${a.required} ${a.coin}.` } : {}),
      })
  }
}

/** The parts of one decision (DESIGN §2.5): what a payment's coins pay for, and what is owed of them. */
class Judgement {
  readonly sizeFlags: DecisionFlags
  private readonly rate?: PaymentRate

  constructor(
    private readonly a: PaymentAssessment,
    private readonly store: StoreSideState,
    private readonly policy: DecisionPolicy
  ) {
    const drifted = !!a.quoteDrift && driftBeyond(a.quoteDrift, policy.quoteDriftAlertPercent)
    this.sizeFlags = {
      // short within the tolerance is not underpaid for the shop: accepted once confirmed
      ...(a.underpaid && !a.short ? { underpaid: true } : {}),
      ...(a.outcome === "paid" && a.short ? { accepted_short: true } : {}),
      ...(a.overpaid ? { overpaid: true } : {}),
      ...(drifted ? { quote_drift: true } : {}),
    }
    this.rate =
      a.coin && a.required && store.base
        ? { coin: a.coin, required: a.required, baseAmount: store.base.amount, baseCurrency: store.base.currency }
        : undefined
  }

  none(rest: Partial<PaymentDecision> = {}): PaymentDecision {
    return { action: "none", settled: true, watchLate: false, flags: {}, ...rest }
  }

  /** Coins beyond what the order took, when there are any (with a remainder: both payments' coins). */
  private excess(received = this.a.received): { owed?: OwedByRead } {
    if (!this.rate) return {}
    const coins = excessCoins(this.rate, received, this.store.takenBase)
    const pair = this.store.remainder || this.store.completedByRemainder ? { pair: true as const } : {}
    return isZero(coins) ? {} : { owed: { kind: "excess", coins, ...pair } }
  }

  /** All the coins this payment received (a remainder: its own), owed back. */
  all(kind: OwedByRead["kind"]): { owed?: OwedByRead } {
    const coins = this.a.own?.received ?? this.a.received
    return isZero(coins) ? {} : { owed: { kind, coins } }
  }

  /** A short payment whose remainder completed the session: only what both sent beyond it is owed. */
  private completedByRemainder(): PaymentDecision {
    const { a, store } = this
    const both =
      a.coin && store.remainderReceived !== undefined
        ? coinText(coinUnits(a.received, a.coin) + coinUnits(store.remainderReceived, a.coin), a.coin)
        : a.received
    const beyond = this.excess(both)
    return this.none({
      flags: { ...this.sizeFlags, ...(beyond.owed ? { overpaid: true } : {}) },
      completesFirst: true,
      ...beyond,
    })
  }

  /** Paid after it could be taken (order canceled, session closed, owed already): flagged, all of it owed. */
  private paidLate(rest: Partial<PaymentDecision> = {}): PaymentDecision {
    const { a, store } = this
    const what = store.orderStatus === "canceled" ? "order was canceled" : "payment was closed or expired"
    return this.none({
      ...this.all("late"),
      flags: { ...this.sizeFlags, paid_late: true },
      attention: `Paid late: ${amountOf(a)} arrived after the ${what}. Refund it from the service's dashboard or fulfil the order by hand.`,
      ...rest,
    })
  }

  paid(): PaymentDecision {
    const { a, store } = this
    const beyond = this.excess()
    const flagsOf = (extra: DecisionFlags = {}) => ({
      ...this.sizeFlags,
      ...(beyond.owed ? { overpaid: true as const } : {}),
      ...extra,
    })
    // the excess is an owed record (the admin's "owed to customers"), not a reason to hold anything
    if (store.capturedByThis && store.captureUnrecorded)
      return {
        action: "capture",
        sessionId: store.captureUnrecorded,
        settled: true,
        watchLate: false,
        flags: flagsOf(),
        note: "Captured in Medusa by an earlier run that failed before its order recorded the capture; recorded now.",
        ...beyond,
      }
    // a remainder whose capture stands (made here or by the storefront's own completion) completes its first payment
    const completes = store.remainder ? { completesFirst: true as const } : {}
    if (store.capturedByThis) return this.none({ flags: flagsOf(), ...completes, ...beyond })
    if (store.completedByRemainder) return this.completedByRemainder()
    // owed back already: never also the payment of the customer's next attempt
    if (store.owedLate) return this.paidLate()
    if (store.paidByOther) {
      return this.none({
        ...this.all("excess"),
        flags: { ...this.sizeFlags, paid_twice: true, ...(store.current ? {} : { replaced_session: true }) },
        attention: `Paid twice: ${amountOf(a)} arrived for ${store.orderId ? `order ${store.orderId}` : "a cart"} that another payment had already paid. Refund it from the service's dashboard.`,
      })
    }
    if (store.orderStatus === "canceled" || (store.current && !store.sessionOpen && !store.remainder))
      return this.paidLate()
    // taken late under "fulfil" only for the checkout's own order: an order collection's is never held
    if (a.late && store.orderCollection)
      return this.paidLate(store.sessionOpen ? { action: "cancel_session", sessionId: store.targetSessionId } : {})
    const lateNote = a.late
      ? ` Paid after its expiry: the service still says ${a.status}; taken under latePayments "fulfil" inside the late-payment window.`
      : ""
    if (store.current)
      return {
        action: "capture",
        sessionId: store.targetSessionId,
        settled: true,
        watchLate: false,
        flags: flagsOf(),
        ...completes,
        ...(a.short || a.late ? { note: `${a.short ? acceptedShortNote(a, a.short) : ""}${lateNote}`.trim() } : {}),
        ...beyond,
      }
    // paid for a session that was replaced (another coin, another cart total)
    const what = store.orderId ? `order ${store.orderId}` : "its cart"
    if (!store.targetSessionId) {
      return this.none({
        ...this.all("late"),
        flags: { ...this.sizeFlags, replaced_session: true },
        attention: `Paid for a replaced payment: ${amountOf(a)} arrived for ${what}, which no longer has a crypto payment to capture it with. Create the order by hand or refund it from the service's dashboard.`,
      })
    }
    if (!store.covers) {
      return this.none({
        ...this.all("late"),
        flags: { ...this.sizeFlags, replaced_session: true, underpaid: true },
        attention: `Underpaid: ${amountOf(a)} arrived for a replaced payment that does not cover ${what} any more. Ask the customer for the difference or refund it from the service's dashboard.`,
      })
    }
    return {
      action: "capture",
      sessionId: store.targetSessionId,
      settled: true,
      watchLate: false,
      flags: flagsOf({ replaced_session: true }),
      note: `Paid for a replaced payment: ${amountOf(a)} covers ${what}, captured with it.${a.short ? ` ${acceptedShortNote(a, a.short)}` : ""}${lateNote}`,
      ...beyond,
    }
  }

  /** EXPIRED or FAILED (not taken as paid): cancel what waits for it, and owe back what arrived. */
  closed(): PaymentDecision {
    const { a, store, policy } = this
    const watchLate = a.outcome === "expired"
    const word = a.outcome === "expired" ? "expired" : "failed"
    if (store.capturedByThis) {
      return this.none({
        flags: this.sizeFlags,
        attention: `The service reports ${a.status} for a payment already captured; nothing was changed.`,
      })
    }
    // short, and its remainder paid the rest: the session was captured in full with both
    if (store.completedByRemainder) return this.completedByRemainder()
    const fullLate = !!a.covered && !!a.confirmed
    // a replaced payment closes nothing: the cart or order waits for the payment that replaced it
    if (store.paidByOther || !store.current) {
      if (fullLate && store.paidByOther) return this.paid()
      if (fullLate) return this.paidLate()
      // nothing arrived for a replaced session (or no coin was ever chosen): nothing to watch for
      if (isZero(a.received)) return this.none({ flags: this.sizeFlags, stopReading: true })
      // its session closed or paid by another: what arrived is owed back (and then never pays anything)
      return this.none({
        watchLate,
        settled: !watchLate,
        flags: this.sizeFlags,
        ...this.shortNote(word),
        ...this.all("late"),
      })
    }
    // what this payment cancels when nothing holds it: the checkout's own awaiting order, else its open session
    const cancel: Partial<PaymentDecision> =
      store.orderId && store.orderStatus !== "canceled" && !store.orderCollection && !store.orderPaidElsewhere
        ? { action: "cancel_order", sessionId: store.targetSessionId }
        : store.sessionOpen
          ? { action: "cancel_session", sessionId: store.targetSessionId }
          : {}
    const cancelsOrder = cancel.action === "cancel_order"
    // another payment of the collection still confirms the full amount: it may pay the order yet
    if (store.othersConfirming && cancel.action)
      return this.none({
        settled: false,
        watchLate: true,
        flags: this.sizeFlags,
        note: `Payment ${word}; another payment of the same ${store.orderId ? `order ${store.orderId}` : "cart"} is confirming the full amount, so nothing is canceled yet.`,
      })
    // the full amount confirmed on a payment the service keeps EXPIRED/FAILED, and the shop does not take it
    if (fullLate) return this.paidLate({ ...cancel, settled: true })
    // "fulfil": the order stays awaiting (its stock reserved) until the late-payment window ends
    if (cancelsOrder && policy.latePayments === "fulfil" && !store.lateWindowOver)
      return this.none({
        watchLate: true,
        settled: false,
        holdUntilWindowEnd: true,
        flags: this.sizeFlags,
        note: `Payment ${word}; order ${store.orderId} stays awaiting payment until the late-payment window ends (latePayments: "fulfil"), then it is canceled.`,
        ...this.shortNote(word),
      })
    // short coins whose order or session is (being) closed: owed back (withdrawn if a remainder completes it)
    const closesAll = !!cancel.action || store.orderStatus === "canceled" || !store.sessionOpen
    const owed = a.underpaid && closesAll ? this.all("late") : {}
    if (!a.coin && isZero(a.received))
      // an invoice that expired before a coin was chosen has no address: nothing can ever arrive
      return this.none({ ...cancel, flags: this.sizeFlags, stopReading: true })
    return this.none({
      ...cancel,
      watchLate,
      settled: !watchLate,
      flags: this.sizeFlags,
      ...this.shortNote(word),
      ...owed,
    })
  }

  private shortNote(word: string): Partial<PaymentDecision> {
    const { a } = this
    return a.underpaid
      ? {
          attention: `Underpaid and ${word}: ${a.received} of ${a.required} ${a.coin} arrived. Refund it from the service's dashboard.`,
        }
      : {}
  }
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
