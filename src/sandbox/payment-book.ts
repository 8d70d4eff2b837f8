import { randomBytes } from "node:crypto"
import { AmountPrecision, Coin, coinDecimals, COINS, PaymentStatus, REQUIRED_CONFIRMATIONS } from "./spec-facts"
import { fromUnits, scaleByPercent, toUnits } from "./decimal"
import { decimalText, JsonDecimal } from "./json"
import { convertAt, DEFAULT_PRICES } from "./market"
import { generateAddress } from "./addresses"
import { balanceEntry } from "./balances"
import type { BookEntry, Transaction } from "./book-entry"

export type StatusChange = { record: BookEntry; from: PaymentStatus; to: PaymentStatus }

/** How a status record shows currency/address before a coin is chosen. */
export type UnselectedStyle = "absent" | "null"

/** What the spec leaves open in the payment book's own rules, read when they apply (PUT /__sandbox/config changes them). */
export type PaymentBookRules = {
  /**
   * An EXPIRED record stays EXPIRED, however much arrives and confirms later (the spec: a client stops
   * polling at EXPIRED, so a service need never move it); false: it completes once fully paid and confirmed.
   */
  expiredStays: boolean
  /** The precision of the amounts of records created from now on (a record keeps its own). */
  decimals: AmountPrecision
}

export const DEFAULT_PAYMENT_BOOK_RULES: Readonly<PaymentBookRules> = { expiredStays: false, decimals: "quoted" }

/**
 * An amount as the service writes it in a JSON number: at the quoted precision a JS number, as it always
 * was; at the native precision its exact decimal text (18 places do not survive a JS number).
 */
export function amountNumber(units: bigint, decimals: number, precision: AmountPrecision): number | JsonDecimal {
  const text = fromUnits(units, decimals)
  return precision === "native" ? new JsonDecimal(text) : Number(text)
}

function id(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("hex")}`
}

/** What create_invoice and create_payment have in common, validated. */
type CreateRequest = {
  /** A number, or the exact decimal text of the request's number (digits beyond a JS number's are kept). */
  amount: number | string
  amountCurrency: string
  orderId?: string
  description?: string
  expirationMinutes: number
  webhookUrl?: string
}

/**
 * The in-memory state of the simulated service, its own book of what it was asked for and what it received:
 * invoices, payments, their transactions on the simulated chains, a clock that tests can move forward, and
 * balances derived from them.
 */
export class PaymentBook {
  private records = new Map<string, BookEntry>()
  private addresses = new Set<string>()
  private clockOffsetMs = 0
  prices: Record<Coin, string> = { ...DEFAULT_PRICES }
  readonly merchantId = "merchant_sandbox"
  readonly businessName = "Sandbox Merchant"

  constructor(
    private readonly onStatusChange: (change: StatusChange) => void = () => {},
    private readonly rules: Readonly<PaymentBookRules> = DEFAULT_PAYMENT_BOOK_RULES
  ) {}

  now(): Date {
    return new Date(Date.now() + this.clockOffsetMs)
  }

  advanceClock(ms: number): void {
    this.clockOffsetMs += ms
    this.sweep()
  }

  reset(): void {
    this.records.clear()
    this.addresses.clear()
    this.clockOffsetMs = 0
    this.prices = { ...DEFAULT_PRICES }
  }

  all(): BookEntry[] {
    return [...this.records.values()]
  }

  get(paymentId: string): BookEntry | undefined {
    const record = this.records.get(paymentId)
    if (record) this.settle(record)
    return record
  }

  /** The amount of `coin` worth `amount` of `amountCurrency`, rounded up at the coin's `precision`. */
  convert(amount: number | string, amountCurrency: string, coin: Coin, precision: AmountPrecision): bigint {
    return convertAt(this.prices, amount, amountCurrency, coin, coinDecimals(coin, precision))
  }

  /** Decimal places of the record's amounts: its coin's at the record's precision; 2 (its base amount) before a coin. */
  decimals(record: BookEntry): number {
    return record.coin ? coinDecimals(record.coin, record.precision) : 2
  }

  private expiry(minutes: number): { createdAt: string; expiresAt: string } {
    const now = this.now()
    return {
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + minutes * 60_000).toISOString(),
    }
  }

  private uniqueAddress(coin: Coin): string {
    let address = generateAddress(coin)
    while (this.addresses.has(address)) address = generateAddress(coin)
    this.addresses.add(address)
    return address
  }

  createInvoice(input: CreateRequest): BookEntry {
    const precision = this.rules.decimals
    const conversionRates = {} as NonNullable<BookEntry["conversionRates"]>
    for (const coin of COINS) {
      const units = this.convert(input.amount, input.amountCurrency, coin, precision)
      conversionRates[coin] = {
        cryptoAmount: amountNumber(units, coinDecimals(coin, precision), precision),
        price: Number(this.prices[coin]),
      }
    }
    return this.store("invoice", input, { precision, conversionRates })
  }

  createPayment(input: CreateRequest & { currency: Coin }): BookEntry {
    const precision = this.rules.decimals
    return this.store("payment", input, {
      precision,
      coin: input.currency,
      address: this.uniqueAddress(input.currency),
      requiredUnits: this.convert(input.amount, input.amountCurrency, input.currency, precision),
    })
  }

  private store(
    kind: BookEntry["kind"],
    input: CreateRequest,
    specifics: Partial<BookEntry> & Pick<BookEntry, "precision">
  ): BookEntry {
    const record: BookEntry = {
      paymentId: id(kind === "invoice" ? "inv" : "pay"),
      kind,
      baseAmount: Number(input.amount),
      baseCurrency: input.amountCurrency,
      orderId: input.orderId,
      description: input.description,
      transactions: [],
      status: "PENDING",
      webhookUrl: input.webhookUrl,
      ...this.expiry(input.expirationMinutes),
      ...specifics,
    }
    this.records.set(record.paymentId, record)
    return record
  }

  /**
   * The customer picks a coin on an invoice: the amount is the invoice's creation quote for that coin,
   * re-priced by the invoice's own percent, else by `defaultRepricePercent` (a service whose quotes are not locked).
   */
  selectCoin(record: BookEntry, coin: Coin, defaultRepricePercent: number | null = null): void {
    this.assertQuotable(record)
    if (record.coin === coin) return
    record.coin = coin
    record.address = this.uniqueAddress(coin)
    record.requiredUnits = this.quotedUnits(record, coin, defaultRepricePercent)
  }

  /**
   * Sets (a number) or clears (null) the invoice's re-price. Once its coin is chosen, the required
   * amount is re-quoted at once, as a gateway re-quoting before any funds arrive.
   */
  reprice(record: BookEntry, percent: number | null, defaultRepricePercent: number | null = null): void {
    this.assertQuotable(record)
    if (percent === null) delete record.repricePercent
    else record.repricePercent = percent
    if (record.coin) record.requiredUnits = this.quotedUnits(record, record.coin, defaultRepricePercent)
  }

  /** Whether an invoice's amount may still be (re)quoted: an open invoice that has received nothing. */
  private assertQuotable(record: BookEntry): void {
    if (record.kind !== "invoice") throw new SandboxConflict("only an invoice lets the customer choose a coin")
    if (record.status !== "PENDING") throw new SandboxConflict(`the invoice is ${record.status}`)
    if (record.transactions.length) throw new SandboxConflict("the invoice already received funds")
  }

  /** The creation quote of `coin` in units, re-priced by the invoice's percent or else the default one. */
  private quotedUnits(record: BookEntry, coin: Coin, defaultRepricePercent: number | null): bigint {
    // the exact text (never String(number): a tiny quote prints with an exponent, "1.6e-7")
    const quote = toUnits(decimalText(record.conversionRates![coin].cryptoAmount), coinDecimals(coin, record.precision))
    const percent = record.repricePercent ?? defaultRepricePercent
    return percent ? scaleByPercent(quote, percent) : quote
  }

  /** A transaction to the record's address, unconfirmed. Accepted whatever the status (late payments exist). */
  pay(record: BookEntry, amount?: string): Transaction {
    if (!record.coin || record.requiredUnits === undefined) {
      throw new SandboxConflict("choose a coin before paying")
    }
    const units = amount === undefined ? this.remainingUnits(record) : toUnits(amount, this.decimals(record))
    if (units <= 0n) throw new SandboxConflict("nothing left to pay; give an amount to overpay")
    const tx = { units, confirmations: 0, at: this.now().toISOString() }
    record.transactions.push(tx)
    this.settle(record)
    return tx
  }

  remainingUnits(record: BookEntry): bigint {
    const remaining = (record.requiredUnits ?? 0n) - this.receivedUnits(record)
    return remaining > 0n ? remaining : 0n
  }

  receivedUnits(record: BookEntry): bigint {
    return record.transactions.reduce((sum, tx) => sum + tx.units, 0n)
  }

  /** The confirmations of the least confirmed transaction (0 before any). */
  confirmations(record: BookEntry): number {
    if (!record.transactions.length) return 0
    return Math.min(...record.transactions.map((tx) => tx.confirmations))
  }

  /** New blocks on the record's chain: every transaction gains `blocks` confirmations. */
  confirm(record: BookEntry, blocks: number): void {
    if (!record.transactions.length) throw new SandboxConflict("no transaction to confirm")
    for (const tx of record.transactions) tx.confirmations += blocks
    this.settle(record)
  }

  /** A block on every chain: used by the automatic miner. */
  mineBlock(): void {
    for (const record of this.records.values()) {
      if (record.transactions.length && record.status !== "FAILED") {
        for (const tx of record.transactions) tx.confirmations += 1
        this.settle(record)
      }
    }
  }

  expire(record: BookEntry): void {
    if (record.status !== "PENDING") throw new SandboxConflict(`the payment is ${record.status}`)
    const now = this.now()
    if (new Date(record.expiresAt) > now) record.expiresAt = now.toISOString()
    this.transition(record, "EXPIRED")
  }

  fail(record: BookEntry): void {
    if (record.status !== "PENDING") throw new SandboxConflict(`the payment is ${record.status}`)
    this.transition(record, "FAILED")
  }

  /**
   * Applies the service's rules to one record: completion by confirmations (of a late payment, too, unless
   * expiredStays), expiry by time.
   */
  settle(record: BookEntry): void {
    if (record.status === "FAILED" || record.status === "COMPLETED") return
    if (record.status === "EXPIRED" && this.rules.expiredStays) return
    const coin = record.coin
    const fullyPaid =
      coin !== undefined &&
      record.requiredUnits !== undefined &&
      record.transactions.length > 0 &&
      this.receivedUnits(record) >= record.requiredUnits
    if (fullyPaid && this.confirmations(record) >= REQUIRED_CONFIRMATIONS[coin]) {
      record.completedAt = this.now().toISOString()
      this.transition(record, "COMPLETED")
      return
    }
    if (record.status === "PENDING" && !fullyPaid && new Date(record.expiresAt) <= this.now()) {
      this.transition(record, "EXPIRED")
    }
  }

  /** Re-evaluates every open record (expiry happens with time, not only on reads). */
  sweep(): void {
    for (const record of this.records.values()) this.settle(record)
  }

  private transition(record: BookEntry, to: PaymentStatus): void {
    const from = record.status
    if (from === to) return
    record.status = to
    this.onStatusChange({ record, from, to })
  }

  /** The public status record, exactly the fields of the spec. */
  statusRecord(record: BookEntry, unselected: UnselectedStyle = "absent"): Record<string, unknown> {
    this.settle(record)
    const coin = record.coin
    const decimals = this.decimals(record)
    const out: Record<string, unknown> = {
      paymentId: record.paymentId,
      status: record.status,
      currentBalance: fromUnits(this.receivedUnits(record), decimals),
      confirmations: this.confirmations(record),
      requiredAmount: coin
        ? fromUnits(record.requiredUnits ?? 0n, decimals)
        : fromUnits(toUnits(record.baseAmount, 2), 2),
    }
    if (coin) {
      out.currency = coin
      out.address = record.address
    } else if (unselected === "null") {
      out.currency = null
      out.address = null
    }
    out.expiresAt = record.expiresAt
    out.createdAt = record.createdAt
    if (record.status === "COMPLETED" && record.completedAt) out.completedAt = record.completedAt
    return out
  }

  /** Balance entry of one coin; null when the coin never saw activity. */
  balance(coin: Coin, withResetAt: boolean): Record<string, unknown> | null {
    return balanceEntry(this.records.values(), coin, withResetAt, () => this.now())
  }
}

/** A control action that the record's state does not allow (409 on the control API). */
export class SandboxConflict extends Error {}
