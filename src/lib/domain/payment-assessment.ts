import { Coin, COIN_DECIMALS, isCoin, PaymentStatus, REQUIRED_CONFIRMATIONS } from "../crypto-api/constants"
import type { StatusRecord } from "../crypto-api/schemas"
import { coinText, coinUnits } from "./money"
import { upToChainUnit } from "./chains"
import type { AgreedTerms } from "./agreed-terms"

/**
 * The first half of one decision (the second is decideAction). The status comes from the service, never
 * from a webhook body; a record that does not match what the session agreed is never assessed paid.
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
  address?: string
  /** Decimal strings at the coin's precision (or as the service wrote them before a coin is known). */
  received: string
  required?: string
  /**
   * The decimal places the service wrote its required amount at (its own precision: "29.87" is 2), else
   * the agreed amount's. A remainder's ask is the shortfall at that precision (withEarlierPayments).
   */
  requiredPlaces?: number
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
  confirmed?: boolean
  /**
   * EXPIRED or FAILED with the full amount confirmed, taken as paid because the shop fulfils late
   * payments and the late-payment window is open (latePayments "fulfil").
   */
  late?: true
  /** The shop would still take such a late payment (see AssessTerms.acceptsLate). */
  acceptsLate?: true
  /**
   * A remainder assessed with its first payment (withFirstPayment): `received` and `required` are the
   * pair's; these are the remainder's own, which its ledger row keeps and which it owes on its own.
   */
  own?: { received: string; required?: string }
  /**
   * A remainder paid all the service asked of it, yet its checkout is still short by more than the
   * service's precision and the underpayment tolerance allow (outcome "mismatch"): what it asked, what
   * was short when it was judged (the first payment's coins less what arrived before it), what is missing.
   */
  remainderShort?: { asked: string; shortfall: string; missing: string }
}

/** A payment that expired short, within the shop's tolerance: the shortfall in coins and whether it is confirmed. */
export type ShortPayment = { shortfall: string; tolerancePercent: number; confirmed: boolean }

/** What the shop accepts when it judges a status record (its saved settings, else the provider's options). */
export type AssessTerms = {
  /** A payment that EXPIRED short by at most this percent of the required coins (two decimals) is paid once confirmed. */
  underpaymentTolerancePercent?: number
  /**
   * Inside the late-payment window, a payment the service keeps EXPIRED while its full amount arrives and
   * confirms is paid: the spec tells clients to stop polling at EXPIRED, so a service may never move it.
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

/** Decimal places of a decimal text ("29.87" → 2, "30" → 0). */
const placesOf = (text: string) => (text.split(".")[1] ?? "").length

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

  const units = unitsOf(record, expected, coin)
  if ("refused" in units) return mismatch(units.refused, units.withCoin ? { coin } : {})
  const { requiredUnits, receivedUnits } = units
  const requiredText =
    record.requiredAmount ?? (expected.kind === "payment" ? expected.cryptoAmount : expected.quotes?.[coin])

  const confirmed = record.confirmations >= REQUIRED_CONFIRMATIONS[coin]
  const assessed = {
    ...base,
    coin,
    ...(record.address ? { address: record.address } : {}),
    received: coinText(receivedUnits, coin),
    required: coinText(requiredUnits, coin),
    ...(requiredText !== undefined ? { requiredPlaces: placesOf(requiredText) } : {}),
    requiredConfirmations: REQUIRED_CONFIRMATIONS[coin],
    underpaid: receivedUnits > 0n && receivedUnits < requiredUnits,
    // what a wallet had to round up to its chain's unit is not more than asked
    overpaid: receivedUnits > upToChainUnit(coin, requiredUnits),
    covered: receivedUnits >= requiredUnits,
    confirmed,
    ...(terms.acceptsLate ? { acceptsLate: true as const } : {}),
    ...quoteDriftOf(coin, units.quotedUnits, requiredUnits),
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
    // where the shop fulfils late payments inside the window, assessed by the decision otherwise
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

type Units = { requiredUnits: bigint; receivedUnits: bigint; quotedUnits?: bigint }

/**
 * The amount the service asks for now is the term: quotes are not locked (a gateway may re-price when the
 * coin is chosen). Beyond native decimals, required rounds up and received down.
 */
function unitsOf(
  record: StatusRecord,
  expected: SessionExpectation,
  coin: Coin
): Units | { refused: string; withCoin: boolean } {
  const agreed = expected.kind === "payment" ? expected.cryptoAmount : expected.quotes?.[coin]
  try {
    const reported = record.requiredAmount !== undefined ? coinUnits(record.requiredAmount, coin, "up") : undefined
    const quotedUnits = agreed !== undefined ? coinUnits(agreed, coin, "up") : undefined
    const known = reported ?? quotedUnits
    if (known === undefined) return { refused: "no required amount is known for the coin", withCoin: false }
    if (known <= 0n) return { refused: "the service asks for no money", withCoin: true }
    return { requiredUnits: known, receivedUnits: coinUnits(record.currentBalance, coin, "down"), quotedUnits }
  } catch {
    return { refused: "the service reports an amount that is not a decimal", withCoin: true }
  }
}

function quoteDriftOf(coin: Coin, quotedUnits: bigint | undefined, requiredUnits: bigint) {
  if (quotedUnits === undefined || quotedUnits <= 0n || requiredUnits === quotedUnits) return {}
  return {
    quoteDrift: {
      coin,
      quoted: coinText(quotedUnits, coin),
      required: coinText(requiredUnits, coin),
      basisPoints: Number(((requiredUnits - quotedUnits) * 10_000n) / quotedUnits),
    },
  }
}

/** One unit of the coin at `places` decimals (the coin's smallest unit when the places are unknown or more). */
function unitAt(coin: Coin, places: number | undefined): bigint {
  const native = COIN_DECIMALS[coin]
  return places === undefined || places >= native ? 1n : 10n ** BigInt(native - places)
}

/**
 * The session is paid only when the remainder is paid (or expired within the tolerance), every coin of
 * the checkout is confirmed, and together they cover what the first payment required. A remainder paid
 * all it asked covers the rest when what is missing is at most one unit of the service's own precision
 * (the service wrote the shortfall at its places); short beyond that and the tolerance, it is a mismatch
 * the admin is told of with both figures (remainderShort), never pending with nothing to wait for.
 */
export function withEarlierPayments(
  remainder: PaymentAssessment,
  first: PaymentAssessment,
  others: PaymentAssessment[] = [],
  tolerancePercent = 0
): PaymentAssessment {
  if (remainder.outcome === "mismatch") return remainder
  const earlier = [first, ...others]
  if (!first.coin || first.required === undefined || earlier.some((a) => a.coin !== undefined && a.coin !== first.coin))
    return { ...remainder, outcome: "mismatch", reason: "the remainder's coin is not the first payment's" }
  if (remainder.coin !== first.coin)
    return { ...remainder, outcome: "mismatch", reason: "the remainder's coin is not the first payment's" }
  const coin = first.coin
  const all = [...earlier, remainder]
  const earlierUnits = earlier.reduce((sum, a) => sum + coinUnits(a.received, coin), 0n)
  const receivedUnits = earlierUnits + coinUnits(remainder.received, coin)
  const requiredUnits = coinUnits(first.required, coin)
  const missingUnits = requiredUnits > receivedUnits ? requiredUnits - receivedUnits : 0n
  // the remainder received all it asked (the service says COMPLETED, or took it late in full)
  const askPaid = remainder.outcome === "paid" && !!remainder.covered
  const covered = missingUnits === 0n || (askPaid && missingUnits <= unitAt(coin, remainder.requiredPlaces))
  // coins that are there must be confirmed; a payment that received nothing has nothing to confirm
  const confirmed = all.every((a) => !!a.confirmed || coinUnits(a.received, coin) === 0n)
  const settledAsked = remainder.outcome === "paid" || remainder.status === "EXPIRED"
  const short =
    settledAsked && !covered && withinTolerance(requiredUnits, receivedUnits, tolerancePercent)
      ? { shortfall: coinText(missingUnits, coin), tolerancePercent, confirmed }
      : undefined
  const remainderShort =
    askPaid && !covered && !short
      ? {
          asked: remainder.required ?? coinText(0n, coin),
          shortfall: coinText(requiredUnits > earlierUnits ? requiredUnits - earlierUnits : 0n, coin),
          missing: coinText(missingUnits, coin),
        }
      : undefined
  const outcome: PaymentOutcome = remainderShort
    ? "mismatch"
    : (remainder.outcome === "paid" && covered) || short
      ? confirmed
        ? "paid"
        : "pending"
      : remainder.outcome === "paid"
        ? "pending"
        : remainder.outcome
  return {
    ...remainder,
    own: { received: remainder.received, ...(remainder.required ? { required: remainder.required } : {}) },
    outcome,
    ...(remainderShort
      ? {
          remainderShort,
          reason: `the remainder asked ${remainderShort.asked} ${coin} where ${remainderShort.shortfall} ${coin} was short; ${remainderShort.missing} ${coin} of the ${first.required} ${coin} the first payment required is still missing`,
        }
      : {}),
    received: coinText(receivedUnits, coin),
    required: first.required,
    confirmations: Math.min(
      ...all.filter((a) => coinUnits(a.received, coin) > 0n).map((a) => a.confirmations),
      remainder.confirmations
    ),
    confirmed,
    covered,
    underpaid: receivedUnits > 0n && !covered,
    // what a wallet had to round up to its chain's unit is not more than asked
    overpaid: receivedUnits > upToChainUnit(coin, requiredUnits),
    short,
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
