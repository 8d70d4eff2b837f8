import { ContainerRegistrationKeys, MathBN, MedusaError, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { StoreSideState } from "../../lib/domain/payment-decision"
import { coinUnits, coversAmount, storeDecimals } from "../../lib/domain/money"
import { isCoin } from "../../lib/crypto-api/constants"
import { CRYPTO_PAYMENT_MODULE } from "../../modules/crypto-payment"
import { capturesNotOnOrder } from "./order-captures"
import type CryptoPaymentModuleService from "../../modules/crypto-payment/service"

/** A Medusa payment session, as the close step needs it to write it back. */
export type SessionSnapshot = {
  id: string
  status: string
  amount: number
  currency_code: string
  data: Record<string, unknown>
}

export type CryptoPaymentContext = {
  payment: {
    payment_id: string
    status: string
    expires_at: string | null
    watch_until: string | null
    /** The session this payment was claimed for (claim step), if any. */
    capture_session_id: string | null
  }
  /** Its own session, when it still exists. */
  ownSession?: SessionSnapshot
  /** The session the money would pay (own, or the one that replaced it). */
  targetSession?: SessionSnapshot
  store: StoreSideState
}

type SessionRow = SessionSnapshot & {
  provider_id: string
  created_at: string | Date
  payment?: { id: string; captured_at?: unknown; canceled_at?: unknown } | null
}

const CLOSED = ["canceled", "error"]
/** Payment collection statuses that mean the money was taken. */
const PAID_COLLECTION = ["authorized", "partially_authorized", "partially_captured", "completed"]

/** Whether a captured payment has a capture its order holds no transaction for. */
async function captureMissingOnOrder(container: MedusaContainer, orderId: string, paymentId: string) {
  const captures = await container.resolve(Modules.PAYMENT).listCaptures({ payment_id: paymentId }, { select: ["id"] })
  return (await capturesNotOnOrder(container, orderId, captures)).length > 0
}

/**
 * A ledger payment and the Medusa side it belongs to: its session (which may be gone), the payment
 * collection it was made for with its sessions and payments, the order, and which payment of the
 * ledger paid what. Everything the decision needs, read from the ledger and Medusa, never from
 * session data a storefront could write.
 */
export const loadCryptoPaymentStep = createStep(
  "load-crypto-payment",
  async (input: { payment_id: string }, { container }) => {
    const ledger: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const row = await ledger.retrieveByPaymentId(input.payment_id)
    if (!row)
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Crypto payment ${input.payment_id} is not in the ledger.`)

    const collectionId = row.payment_collection_id
    // the collection with its sessions and payments, its order, its cart and the ledger's payments for
    // it: four independent reads, made at once
    const [collections, orderLinks, cartLinks, siblings] = collectionId
      ? await Promise.all([
          query.graph({
            entity: "payment_collection",
            fields: [
              "id",
              "amount",
              "currency_code",
              "payment_sessions.id",
              "payment_sessions.status",
              "payment_sessions.amount",
              "payment_sessions.currency_code",
              "payment_sessions.provider_id",
              "payment_sessions.data",
              "payment_sessions.created_at",
              "payment_sessions.payment.id",
              "payment_sessions.payment.captured_at",
              "payment_sessions.payment.canceled_at",
            ],
            filters: { id: collectionId },
          }),
          query.graph({
            entity: "order_payment_collection",
            fields: ["order.id", "order.status", "order.payment_collections.id", "order.payment_collections.status"],
            filters: { payment_collection_id: collectionId },
          }),
          // a checkout's collection belongs to its cart; one Medusa created on an existing order has none
          query.graph({
            entity: "cart_payment_collection",
            fields: ["cart_id"],
            filters: { payment_collection_id: collectionId },
          }),
          ledger.listCryptoPayments(
            { payment_collection_id: collectionId },
            {
              select: [
                "payment_id",
                "session_id",
                "capture_session_id",
                "remainder_of",
                "created_at",
                "status",
                "settled",
                "coin",
                "received_amount",
                "required_amount",
                "base_amount",
                "base_currency",
              ],
              order: { created_at: "ASC" },
              take: 1000,
            }
          ),
        ])
      : [{ data: [] }, { data: [] }, { data: [] }, [row]]
    const [collection] = collections.data
    const order = (
      orderLinks.data[0] as
        | { order?: { id: string; status: string; payment_collections?: Array<{ id: string; status: string }> } }
        | undefined
    )?.order
    const cartLink = cartLinks.data[0]

    // per session: its newest payment, and the payment that claimed it (a replaced one paying for it)
    const latestOf = new Map<string, string>()
    const claimOf = new Map<string, string>()
    for (const sibling of siblings) {
      latestOf.set(sibling.session_id, sibling.payment_id)
      if (sibling.capture_session_id) claimOf.set(sibling.capture_session_id, sibling.payment_id)
    }
    const payerOf = (sessionId: string | undefined) =>
      sessionId ? (claimOf.get(sessionId) ?? latestOf.get(sessionId)) : undefined

    const sessions = ((collection?.payment_sessions ?? []) as SessionRow[]).map((s) => ({
      ...s,
      amount: Number(s.amount),
      data: s.data ?? {},
    }))
    const own = sessions.find((s) => s.id === row.session_id)
    const current = !!own && latestOf.get(row.session_id) === row.payment_id
    const openCrypto = sessions
      .filter((s) => latestOf.has(s.id) && !CLOSED.includes(s.status))
      .sort((a, b) => new Date(b.created_at).getTime() - new Date(a.created_at).getTime())[0]
    const target = current ? own : openCrypto
    // sessions whose Medusa payment is captured (a payment always belongs to one session)
    const captured = sessions.filter((s) => !!s.payment?.captured_at && !s.payment.canceled_at).map((s) => s.id)
    const targetClaim = target ? claimOf.get(target.id) : undefined
    const remainder = siblings.find((s) => s.remainder_of === row.payment_id)
    // another payment of the collection (a replaced one) whose full amount is arriving, and which covers
    // what the collection asks: it may pay yet
    const othersConfirming = siblings.some(
      (s) =>
        s.payment_id !== row.payment_id &&
        s.status === "PENDING" &&
        !s.settled &&
        isCoin(s.coin) &&
        !!s.required_amount &&
        !!s.received_amount &&
        coinUnits(s.received_amount, s.coin) >= coinUnits(s.required_amount, s.coin) &&
        !!collection &&
        coversAmount(
          { amount: s.base_amount, currency: s.base_currency },
          { amount: collection.amount as number, currency: String(collection.currency_code) }
        )
    )
    // the order took its money through another of its collections (paid before, or by another provider)
    const orderPaidElsewhere = (order?.payment_collections ?? []).some(
      (c) => c.id !== collectionId && PAID_COLLECTION.includes(c.status)
    )
    // a remainder is priced at its first payment's rate: what the session asked, and the coins for it
    const first = row.remainder_of ? await ledger.retrieveByPaymentId(row.remainder_of) : undefined
    const terms = first ?? row
    // owed back as late money: its own coins, or (a remainder) its first payment's already sent back
    const owedLate = (await ledger.listOwed(first ? [row.payment_id, first.payment_id] : [row.payment_id])).some(
      (r) => r.kind === "late" && (r.payment_id === row.payment_id || !!r.sent_at)
    )
    const ownCapture = sessions.find((s) => captured.includes(s.id) && payerOf(s.id) === row.payment_id)
    const unrecorded =
      order && ownCapture?.payment && (await captureMissingOnOrder(container, order.id, ownCapture.payment.id))

    // amounts at the store currency's precision (a BTC cart compares satoshis, not cents; JPY yen)
    const baseCurrency = terms.base_currency.trim().toUpperCase()
    const places = storeDecimals(baseCurrency)
    const inBase = (amount: unknown) => MathBN.convert(amount as number).toFixed(places ?? 2)
    const covers =
      !!collection &&
      coversAmount(
        { amount: terms.base_amount, currency: terms.base_currency },
        { amount: collection.amount as number, currency: String(collection.currency_code) }
      )
    // the session this payment's coins pay: the one it claimed, else the one it would capture
    const paid = sessions.find((s) => s.id === row.capture_session_id) ?? target

    const snapshot = (s: (typeof sessions)[number] | undefined): SessionSnapshot | undefined =>
      s && { id: s.id, status: s.status, amount: s.amount, currency_code: s.currency_code, data: s.data }
    const context: CryptoPaymentContext = {
      payment: {
        payment_id: row.payment_id,
        status: row.status,
        expires_at: row.expires_at ? new Date(row.expires_at).toISOString() : null,
        watch_until: row.watch_until ? new Date(row.watch_until).toISOString() : null,
        capture_session_id: row.capture_session_id ?? null,
      },
      ownSession: snapshot(own),
      targetSession: snapshot(target),
      store: {
        current,
        sessionOpen: !!own && !CLOSED.includes(own.status),
        ...(target ? { targetSessionId: target.id } : {}),
        capturedByThis: !!ownCapture,
        ...(unrecorded ? { captureUnrecorded: ownCapture!.id } : {}),
        paidByOther:
          captured.some((sessionId) => payerOf(sessionId) !== row.payment_id) ||
          (!!targetClaim && targetClaim !== row.payment_id),
        covers,
        ...(order ? { orderId: order.id, orderStatus: order.status } : {}),
        orderCollection: !!order && !cartLink,
        // the window ends at watch_until (expiry + lateWindowHours); a row without one has none to wait for
        lateWindowOver: !row.watch_until || Date.now() >= new Date(row.watch_until).getTime(),
        remainder: !!row.remainder_of,
        completedByRemainder: !!remainder && captured.some((sessionId) => payerOf(sessionId) === remainder.payment_id),
        ...(remainder?.received_amount ? { remainderReceived: remainder.received_amount } : {}),
        ...(owedLate ? { owedLate } : {}),
        ...(row.captured_no_order ? { capturedNoOrder: true } : {}),
        ...(othersConfirming ? { othersConfirming } : {}),
        ...(orderPaidElsewhere ? { orderPaidElsewhere } : {}),
        ...(places !== undefined ? { base: { amount: terms.base_amount, currency: baseCurrency } } : {}),
        ...(paid ? { takenBase: inBase(paid.amount) } : {}),
      },
    }
    return new StepResponse(context)
  }
)
