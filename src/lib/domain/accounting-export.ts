import { isCoin } from "../crypto-api/constants"
import type { CsvColumn } from "./csv"
import { storeDecimals } from "./money"
import { baseFor, rateOf, sumAmounts, sumCoins } from "./owed"

/**
 * The accounting export's two files. Amounts are the ledger's exact decimal texts, never rounded. A
 * refund is in the file of the period it was created or sent in (a March refund of a January payment).
 */

export type PaymentExportRow = {
  created_at: string
  settled_at: string | null
  payment_id: string
  kind: string
  order_id: string | null
  order_display_id: number | string | null
  status: string
  outcome: string
  coin: string | null
  /** Coins the service requires (its required amount, else the coins asked at creation). */
  required: string | null
  received: string | null
  confirmations: number | null
  base_currency: string
  base_amount: string
  usd_amount: string | null
  exchange_rate: string | null
  rate_source: string | null
  rate_published_on: string | null
  /** The true flags, space separated. */
  flags: string
  owed: OwedTotals | null
  /**
   * A remainder: the first payment of its checkout (the end of its remainder_of chain), else null. A
   * checkout's totals are its rows whose payment_id or remainder_of is that first payment.
   */
  remainder_of?: string | null
  /**
   * A remainder: its checkout's first payment's store amount and the coins it required, which price the
   * remainder (docs/money.md: the checkout's rate, whatever the remainder's row was written with).
   */
  checkout?: CheckoutTerms | null
}

/** A checkout's first payment's terms: its store amount and the coins it required (its rate). */
export type CheckoutTerms = { base_amount: string | null; required: string | null }

/**
 * A payment's store amount and coin price: a remainder's at its checkout's rate (its coins worth what the
 * first payment's price makes them), every other payment's as recorded.
 */
export function pricedAtCheckout(row: PaymentExportRow): { storeAmount: string; coinPrice: string | null } {
  const own = { storeAmount: row.base_amount, coinPrice: coinPrice(row.base_amount, row.required) }
  const terms = row.checkout
  if (!row.remainder_of || !terms?.base_amount || !terms.required || !row.required) return own
  const rate = exactOrUndefined(() =>
    rateOf({
      coin: row.coin,
      required_amount: terms.required,
      crypto_amount: null,
      base_amount: terms.base_amount!,
      base_currency: row.base_currency,
    })
  )
  const storeAmount = rate && exactOrUndefined(() => baseFor(rate, row.required!))
  return storeAmount ? { storeAmount, coinPrice: coinPrice(terms.base_amount, terms.required) } : own
}

export type OwedForTotals = {
  kind: string
  coin_amount: string | null
  base_amount: string
  sent_at: string | null
  reference: string | null
}

/**
 * A payment's owed records summed, in coins and in the store currency. A coin sum is null when its coin
 * or one record's coin amount is unknown (a refund recorded before the coin was chosen).
 */
export type OwedTotals = Record<
  `${"owed" | "excess" | "late" | "refunded" | "sent"}_${"coin" | "store"}`,
  string | null
> & { last_sent_at: string | null; references: string | null }

const GROUPS = {
  owed: (r: OwedForTotals) => !r.sent_at,
  excess: (r: OwedForTotals) => r.kind === "excess",
  late: (r: OwedForTotals) => r.kind === "late",
  refunded: (r: OwedForTotals) => r.kind === "refund",
  sent: (r: OwedForTotals) => !!r.sent_at,
} as const

export function owedTotals(
  coin: string | null,
  baseCurrency: string,
  records: readonly OwedForTotals[]
): OwedTotals | null {
  if (!records.length) return null
  const places = storeDecimals(baseCurrency) ?? 2
  const totals = {} as OwedTotals
  for (const [group, holds] of Object.entries(GROUPS) as Array<[keyof typeof GROUPS, (r: OwedForTotals) => boolean]>) {
    const of = records.filter(holds)
    totals[`${group}_coin`] =
      of.length && isCoin(coin) && of.every((r) => r.coin_amount !== null)
        ? exactOrNull(() =>
            sumCoins(
              coin,
              of.map((r) => r.coin_amount)
            )
          )
        : null
    totals[`${group}_store`] = of.length
      ? exactOrNull(() =>
          sumAmounts(
            places,
            of.map((r) => r.base_amount)
          )
        )
      : null
  }
  const sent = records.filter((r) => r.sent_at)
  totals.last_sent_at = sent.reduce<string | null>((last, r) => (!last || r.sent_at! > last ? r.sent_at : last), null)
  const references = [...new Set(sent.map((r) => r.reference?.trim()).filter((ref): ref is string => !!ref))]
  totals.references = references.length ? references.join("; ") : null
  return totals
}

/** A sum of texts the ledger wrote; null rather than a failed export for one that is not a decimal. */
function exactOrNull(sum: () => string): string | null {
  try {
    return sum()
  } catch {
    return null
  }
}

function exactOrUndefined<T>(work: () => T): T | undefined {
  try {
    return work()
  } catch {
    return undefined
  }
}

/** Places of the implied coin price: enough for a price per coin in any store currency. */
export const COIN_PRICE_DECIMALS = 8

const DECIMAL = /^(\d+)(?:\.(\d+))?$/
const POWERS_OF_TEN = Array.from({ length: 64 }, (_, n) => 10n ** BigInt(n))
const tenTo = (n: number) => POWERS_OF_TEN[n] ?? 10n ** BigInt(n)

/**
 * Store currency per coin (store amount ÷ coins required), rounded half-up, in integers: no float, and
 * no fraction reduced, as it runs for every line of the file.
 */
export function coinPrice(storeAmount: string | null, coins: string | null): string | null {
  if (!storeAmount || !coins) return null
  const amount = DECIMAL.exec(storeAmount)
  const required = DECIMAL.exec(coins)
  if (!amount || !required) return null
  const amountFraction = amount[2] ?? ""
  const requiredFraction = required[2] ?? ""
  // each as an integer of its own last decimal place: 25.00 → 2500 (×10^-2)
  const a = BigInt(amount[1] + amountFraction)
  const c = BigInt(required[1] + requiredFraction)
  if (a === 0n || c === 0n) return null
  // price × 10^P = a × 10^(cp + P) / (c × 10^ap), rounded half-up
  const num = a * tenTo(requiredFraction.length + COIN_PRICE_DECIMALS)
  const den = c * tenTo(amountFraction.length)
  const digits = ((2n * num + den) / (2n * den)).toString().padStart(COIN_PRICE_DECIMALS + 1, "0")
  return `${digits.slice(0, -COIN_PRICE_DECIMALS)}.${digits.slice(-COIN_PRICE_DECIMALS)}`
}

/** The USD amount of a payment: the USD asked for a converted store currency, the store amount in USD itself. */
function usdAmount(row: PaymentExportRow): string | null {
  if (row.usd_amount) return row.usd_amount
  return row.base_currency.trim().toUpperCase() === "USD" ? pricedAtCheckout(row).storeAmount : null
}

const owedCell = (key: keyof OwedTotals) => (row: PaymentExportRow) => row.owed?.[key] ?? null

export const PAYMENT_COLUMNS: readonly CsvColumn<PaymentExportRow>[] = [
  { header: "created_at", cell: (r) => r.created_at },
  { header: "settled_at", cell: (r) => r.settled_at },
  { header: "payment_id", cell: (r) => r.payment_id },
  { header: "kind", cell: (r) => r.kind },
  { header: "order_id", cell: (r) => r.order_id },
  { header: "order_display_id", cell: (r) => r.order_display_id },
  { header: "status", cell: (r) => r.status },
  { header: "verdict", cell: (r) => r.outcome },
  { header: "coin", cell: (r) => r.coin },
  { header: "required", cell: (r) => r.required },
  { header: "received", cell: (r) => r.received ?? "0" },
  { header: "confirmations", cell: (r) => r.confirmations },
  { header: "store_currency", cell: (r) => r.base_currency },
  { header: "store_amount", cell: (r) => pricedAtCheckout(r).storeAmount },
  { header: "usd_amount", cell: usdAmount },
  { header: "exchange_rate", cell: (r) => r.exchange_rate },
  { header: "rate_source", cell: (r) => r.rate_source },
  { header: "rate_published_on", cell: (r) => r.rate_published_on },
  { header: "coin_price", cell: (r) => pricedAtCheckout(r).coinPrice },
  { header: "flags", cell: (r) => r.flags },
  { header: "owed_coin", cell: owedCell("owed_coin") },
  { header: "owed_store", cell: owedCell("owed_store") },
  { header: "excess_coin", cell: owedCell("excess_coin") },
  { header: "excess_store", cell: owedCell("excess_store") },
  { header: "late_coin", cell: owedCell("late_coin") },
  { header: "late_store", cell: owedCell("late_store") },
  { header: "refunded_coin", cell: owedCell("refunded_coin") },
  { header: "refunded_store", cell: owedCell("refunded_store") },
  { header: "sent_coin", cell: owedCell("sent_coin") },
  { header: "sent_store", cell: owedCell("sent_store") },
  { header: "last_sent_at", cell: owedCell("last_sent_at") },
  { header: "references", cell: owedCell("references") },
  // last: columns before it keep their places for files read by position
  { header: "remainder_of", cell: (r) => r.remainder_of ?? null },
]

export type RefundExportRow = {
  id: string
  payment_id: string
  order_id: string | null
  order_display_id: number | string | null
  kind: string
  coin: string | null
  coin_amount: string | null
  base_currency: string
  base_amount: string
  created_at: string
  sent_at: string | null
  reference: string | null
  refund_address: string | null
  refund_coin: string | null
  basis: string | null
  fee_percent: string | null
  /** Created in the period; sent in the period; sent before the file's "as of". */
  created_in: boolean
  sent_in: boolean
  sent_by_as_of: boolean
  /**
   * The payment's terms: its store amount, the coins it required, its exchange rate (null: none); a
   * remainder's are its checkout's first payment's (the rate its owed coins are priced at).
   */
  payment_base_amount: string | null
  payment_required: string | null
  payment_exchange_rate: string | null
}

/**
 * The refunds file's columns "as of" `asOf` (the period's end, or now when that is later). A record sent
 * after it shows as not sent yet: a later period's file shows the sending.
 */
export function refundColumns(asOf: string): readonly CsvColumn<RefundExportRow>[] {
  const sent = (r: RefundExportRow) => r.sent_at !== null && r.sent_by_as_of
  return [
    { header: "as_of", cell: () => asOf },
    { header: "owed_id", cell: (r) => r.id },
    { header: "payment_id", cell: (r) => r.payment_id },
    { header: "order_id", cell: (r) => r.order_id },
    { header: "order_display_id", cell: (r) => r.order_display_id },
    { header: "kind", cell: (r) => r.kind },
    { header: "in_period", cell: (r) => (r.created_in ? (r.sent_in ? "created sent" : "created") : "sent") },
    { header: "coin", cell: (r) => r.coin },
    { header: "coin_amount", cell: (r) => r.coin_amount },
    { header: "store_currency", cell: (r) => r.base_currency },
    { header: "store_amount", cell: (r) => r.base_amount },
    { header: "created_at", cell: (r) => r.created_at },
    { header: "sent_at", cell: (r) => (sent(r) ? r.sent_at : null) },
    { header: "reference", cell: (r) => (sent(r) ? r.reference : null) },
    { header: "refund_address", cell: (r) => r.refund_address },
    { header: "refund_coin", cell: (r) => r.refund_coin },
    { header: "basis", cell: (r) => r.basis },
    { header: "fee_percent", cell: (r) => r.fee_percent },
    { header: "payment_coin_price", cell: (r) => coinPrice(r.payment_base_amount, r.payment_required) },
    { header: "payment_exchange_rate", cell: (r) => r.payment_exchange_rate },
  ]
}

export const EXPORT_KINDS = ["payments", "refunds"] as const
export type ExportKind = (typeof EXPORT_KINDS)[number]

/**
 * `crypto-payments-<from>-<to>.csv`, each bound in the offset the admin gave it: "2026-11-01" at midnight,
 * else "2026-11-01T153000". Only digits, letters and dashes: safe in a header and on every file system.
 */
export function exportFileName(kind: ExportKind, from: string, to: string): string {
  const stamp = (iso: string) => {
    const date = iso.slice(0, 10)
    const time = iso.slice(11, 19).replace(/:/g, "")
    return /^0*$/.test(time) ? date : `${date}T${time}`
  }
  return `crypto-${kind}-${stamp(from)}-${stamp(to)}.csv`.replace(/[^0-9A-Za-z.-]/g, "-")
}
