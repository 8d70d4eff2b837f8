import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { LEDGER_FLAGS, LedgerFlag } from "../../../modules/crypto-payment/types"
import { qrPayload } from "../../../lib/domain/qr-payload"
import { walletUriOf } from "../../../lib/domain/wallet-uri"
import { addressForCoin } from "../../../lib/domain/evm-address"
import { refundLinkExpiry } from "../../../lib/domain/refund-link"
import { webUrlOrNull } from "../../../lib/domain/web-url"
import { shownUrl } from "../../../lib/domain/exchange-rates/rates-state"
import { isCoin } from "../../../lib/crypto-api/constants"
import { sendableCoinsOf, storeDecimals } from "../../../lib/domain/money"
import { baseFor, coinsBeyond, coinsOfRecords, rateOf, sumAmounts } from "../../../lib/domain/owed"
import { CRYPTO_PAYMENT_MODULE } from "../../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../../modules/crypto-payment/service"
import type { LedgerRow, OwedRecord } from "../../../modules/crypto-payment/ledger"
import type { CheckoutPayment } from "../../../lib/domain/checkout-payment"

type Row = LedgerRow

/**
 * An owed record as the admin shows it, with Medusa's refund reason and note beside a refund. Who acted
 * is kept as recorded (`…_by`: "customer" or an admin's user id) and, beside it, named (`…_by_name`).
 */
export type OwedView = {
  id: string
  kind: OwedRecord["kind"]
  coin: string | null
  /** The coins owed, exact: what the books keep, and what "mark sent" names (or coin_amount_sendable). */
  coin_amount: string | null
  /** The same coins as the shop sends them: rounded down to the places a wallet sends (SENDABLE_DECIMALS). */
  coin_amount_sendable: string | null
  base_amount: string
  base_currency: string
  refund_id: string | null
  reason: string | null
  note: string | null
  created_at: string | null
  sent_at: string | null
  reference: string | null
  /** Where the coins go back: the address (in full, for the admin), its coin and network, who gave it and when. */
  refund_address: string | null
  refund_coin: string | null
  address_given_at: string | null
  address_given_by: string | null
  address_given_by_name: string | null
  /** The admin started sending: the address is frozen. */
  payout_started_at: string | null
  payout_started_by: string | null
  payout_started_by_name: string | null
  /** The refund's basis (null: the rate the payment was priced at), its fee, who chose it and when. */
  basis: string | null
  fee_percent: string | null
  basis_chosen_by: string | null
  basis_chosen_by_name: string | null
  basis_chosen_at: string | null
  link_expires_at: string
  /** Every address given, oldest first; `id` is the change's (a confirmation email's sent-record names it). */
  address_changes: Array<{ id: string; coin: string; address: string; actor: string; actor_name: string; at: string }>
}

const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null)

/** A ledger row as the admin API shows it: exact decimal strings, flags as a list, what is owed to the customer. */
export function adminPaymentView(row: Row, owed: OwedView[] = [], checkout?: CheckoutPayment) {
  const flags = LEDGER_FLAGS.filter((flag) => (row as unknown as Record<LedgerFlag, boolean>)[flag])
  const qrCode = row.qr_code ?? qrPayload(row.coin, row.address, row.required_amount)
  return {
    id: row.payment_id,
    kind: row.kind,
    status: row.status,
    outcome: row.outcome,
    coin: row.coin,
    address: row.address && addressForCoin(row.coin, row.address),
    qr_code: qrCode,
    /** BIP-21 / EIP-681 for what the address still has to receive, while the payment is open. */
    wallet_uri: walletUriOf({
      status: row.status,
      coin: row.coin,
      address: row.address,
      required: row.required_amount ?? row.crypto_amount,
      received: row.received_amount,
    }),
    invoice_url: webUrlOrNull(row.invoice_url),
    amount_required: row.required_amount ?? row.crypto_amount,
    amount_received: row.received_amount ?? "0",
    confirmations: row.confirmations,
    required_confirmations: row.required_confirmations,
    base_amount: storeAmountOf(row, checkout),
    base_currency: row.base_currency,
    exchange: exchangeView(row),
    expires_at: iso(row.expires_at),
    flags,
    attention: row.attention,
    applied: row.applied,
    settled: row.settled,
    order_id: row.order_id,
    /** The number the dashboard shows for the order (#1042); null until known. */
    order_display_id: row.order_display_id ?? null,
    session_id: row.session_id,
    payment_collection_id: row.payment_collection_id,
    paid_session_id: row.capture_session_id,
    quote_drift: (row.drift as { coin: string; quoted: string; required: string; percent: string } | null) ?? null,
    accepted_short: acceptedShortView(row, checkout),
    settled_by: row.settled_by,
    settled_at: iso(row.settled_at),
    refund: refundView(row, owed),
    timeline: ((row.timeline as { entries?: unknown[] } | null)?.entries ?? []) as unknown[],
    last_checked_at: iso(row.last_checked_at),
    next_check_at: iso(row.next_check_at),
    created_at: iso(row.created_at),
  }
}
export type AdminCryptoPaymentView = ReturnType<typeof adminPaymentView>

/**
 * A payment's store amount: a remainder's is its coins at its checkout's rate (the first payment's required
 * coins for its store amount), whatever rate its row was written with; any other payment's as recorded.
 */
function storeAmountOf(row: Row, checkout?: CheckoutPayment): string {
  const coins = row.required_amount ?? row.crypto_amount
  if (!row.remainder_of || !checkout?.rate || !coins || checkout.first.payment_id === row.payment_id)
    return row.base_amount
  return baseFor(checkout.rate, coins)
}

/** How a store amount in a currency the service does not take was priced; null when it took it itself. */
function exchangeView(row: Row) {
  if (!row.usd_amount || !row.exchange_rate) return null
  return {
    usd_amount: row.usd_amount,
    rate: row.exchange_rate,
    source: row.rate_source,
    // as the settings panel shows it: never credentials or a query the url may carry
    url: row.rate_url ? shownUrl(row.rate_url) : null,
    published_on: row.rate_published_on,
    markup_percent: row.rate_markup_percent,
  }
}

/**
 * A payment accepted short (within the underpayment tolerance): what the shop did not receive, in coins
 * and base currency. A remainder's is its checkout's: the first payment's coins less what arrived on all.
 */
function acceptedShortView(row: Row, checkout?: CheckoutPayment) {
  if (!row.accepted_short) return null
  const rate = checkout?.rate ?? rateOf(row)
  if (!rate) return null
  const received = checkout?.received ?? row.received_amount ?? "0"
  const shortfall = coinsBeyond(rate.coin, rate.required, received)
  return { coin: rate.coin, shortfall, shortfall_base: baseFor(rate, shortfall), base_currency: rate.baseCurrency }
}

function refundView(row: Row, owed: OwedView[]) {
  const open = owed.filter((r) => !r.sent_at)
  const coin = isCoin(row.coin) ? row.coin : null
  const places = storeDecimals(row.base_currency)
  const owedNow = coinsOfRecords(coin, open)
  const owedNowBase =
    places !== undefined && open.length
      ? sumAmounts(
          places,
          open.map((r) => r.base_amount)
        )
      : null
  const lastSent = [...owed].filter((r) => r.sent_at).sort((a, b) => (a.sent_at! < b.sent_at! ? 1 : -1))[0]
  return {
    owed: open.length > 0,
    owed_now: owedNow,
    /** What to send now: owed_now rounded down to the places a wallet sends (one sending for them all). */
    owed_now_sendable: sendableCoinsOf(coin, owedNow),
    owed_now_base: owedNowBase,
    coin,
    base_currency: row.base_currency,
    records: owed,
    // the fields before owed records: what to send now, and the last sending
    amount: owedNow,
    base_amount: owedNowBase,
    sent_at: lastSent?.sent_at ?? null,
    reference: lastSent?.reference ?? null,
  }
}

/** An admin user's id: an actor that is neither "customer" nor an id of another kind. */
const isUserId = (actor: string | null): actor is string => !!actor && actor.startsWith("user_")

/**
 * Who acted, by name: an admin as "First Last" when both names are set, else by email, in one read of
 * Medusa's users; "customer" and an id no user has (deleted, say) stay as recorded.
 */
async function actorNames(container: MedusaContainer, actors: Array<string | null>) {
  const ids = [...new Set(actors.filter(isUserId))]
  const users = ids.length
    ? await container
        .resolve(Modules.USER)
        .listUsers({ id: ids }, { select: ["id", "email", "first_name", "last_name"] })
    : []
  const names = new Map(
    users.map((u) => [u.id, u.first_name && u.last_name ? `${u.first_name} ${u.last_name}` : u.email])
  )
  return (actor: string | null): string | null => (isUserId(actor) ? (names.get(actor) ?? actor) : actor)
}

/** The owed records of some payments, with Medusa's refund reason and note beside each refund, and who acted by name. */
export async function owedViews(container: MedusaContainer, paymentIds: string[]): Promise<Map<string, OwedView[]>> {
  const cryptoPayment: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
  const records = await cryptoPayment.ledger.listOwed(paymentIds)
  const changes = await cryptoPayment.refundAddresses.changes(records.map((r) => r.id))
  const nameOf = await actorNames(container, [
    ...records.flatMap((r) => [r.address_given_by, r.payout_started_by, r.basis_chosen_by]),
    ...changes.map((c) => c.actor),
  ])
  const refundIds = records.map((r) => r.refund_id).filter((id): id is string => !!id)
  const refunds = new Map<string, { note?: string | null; refund_reason?: { label?: string | null } | null }>()
  if (refundIds.length) {
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const { data } = await query.graph({
      entity: "refund",
      fields: ["id", "note", "refund_reason.label"],
      filters: { id: refundIds },
    })
    for (const refund of data as Array<{
      id: string
      note?: string | null
      refund_reason?: { label?: string | null } | null
    }>)
      refunds.set(refund.id, refund)
  }
  const byPayment = new Map<string, OwedView[]>()
  for (const r of records) {
    const refund = r.refund_id ? refunds.get(r.refund_id) : undefined
    const view: OwedView = {
      id: r.id,
      kind: r.kind,
      coin: r.coin,
      coin_amount: r.coin_amount,
      coin_amount_sendable: sendableCoinsOf(r.coin, r.coin_amount),
      base_amount: r.base_amount,
      base_currency: r.base_currency,
      refund_id: r.refund_id,
      reason: refund?.refund_reason?.label ?? null,
      note: refund?.note ?? null,
      created_at: iso(r.created_at),
      sent_at: iso(r.sent_at),
      reference: r.reference,
      refund_address: r.refund_address,
      refund_coin: r.refund_coin,
      address_given_at: iso(r.address_given_at),
      address_given_by: r.address_given_by,
      address_given_by_name: nameOf(r.address_given_by),
      payout_started_at: iso(r.payout_started_at),
      payout_started_by: r.payout_started_by,
      payout_started_by_name: nameOf(r.payout_started_by),
      basis: r.basis,
      fee_percent: r.fee_percent,
      basis_chosen_by: r.basis_chosen_by,
      basis_chosen_by_name: nameOf(r.basis_chosen_by),
      basis_chosen_at: iso(r.basis_chosen_at),
      link_expires_at: refundLinkExpiry(r).toISOString(),
      address_changes: changes
        .filter((c) => c.owed_id === r.id)
        .map((c) => ({
          id: c.id,
          coin: c.coin,
          address: c.address,
          actor: c.actor,
          actor_name: nameOf(c.actor) ?? c.actor,
          at: iso(c.created_at)!,
        })),
    }
    byPayment.set(r.payment_id, [...(byPayment.get(r.payment_id) ?? []), view])
  }
  return byPayment
}

export async function adminPaymentViews(container: MedusaContainer, rows: Row[]) {
  const owed = await owedViews(
    container,
    rows.map((row) => row.payment_id)
  )
  // a remainder is priced at its checkout's rate, and one accepted short is short on its checkout: read for
  // those few rows only
  const cryptoPayment: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
  const checkouts = new Map(
    await Promise.all(
      rows
        .filter((row) => row.remainder_of)
        .map(async (row) => [row.payment_id, await cryptoPayment.ledger.checkoutOf(row.payment_id)] as const)
    )
  )
  return rows.map((row) => adminPaymentView(row, owed.get(row.payment_id), checkouts.get(row.payment_id) ?? undefined))
}

export type EventView = { name: string; event_key: string; at: string; delivered_at: string | null }

export type EmailView = {
  kind: string
  template: string
  status: string
  to: string | null
  locale: string | null
  reason: string | null
  at: string
}

/**
 * `emails_enabled`: false when the plugin's `notifications` option is not set, or no notification provider
 * serves its channel.
 */
async function notificationsOf(container: MedusaContainer, paymentId: string) {
  const cryptoPayment: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
  const [events, emails] = await Promise.all([
    cryptoPayment.outbox.of([paymentId]),
    cryptoPayment.emails.of([paymentId]),
  ])
  const settings = cryptoPayment.customerEmails()
  return {
    events: events.map((e): EventView => ({
      name: e.name,
      event_key: e.event_key,
      at: new Date(e.created_at).toISOString(),
      delivered_at: e.delivered_at ? new Date(e.delivered_at).toISOString() : null,
    })),
    emails: emails.map((e): EmailView => ({
      kind: e.kind,
      template: e.template,
      status: e.status,
      to: e.to,
      locale: e.locale,
      reason: e.reason,
      at: new Date(e.updated_at).toISOString(),
    })),
    emails_enabled: !!settings && settings.served !== false,
  }
}

/** One payment with the cart and order it belongs to, its events and its customer emails. */
export async function adminPaymentDetail(container: MedusaContainer, row: Row) {
  const [[view], notifications] = await Promise.all([
    adminPaymentViews(container, [row]),
    notificationsOf(container, row.payment_id),
  ])
  if (!row.payment_collection_id) return { ...view, ...notifications, cart_id: null }
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
    ...notifications,
    cart_id: (carts[0] as { cart_id?: string } | undefined)?.cart_id ?? null,
    order_id: view.order_id ?? (orders[0] as { order_id?: string } | undefined)?.order_id ?? null,
  }
}
