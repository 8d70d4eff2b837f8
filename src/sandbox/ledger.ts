import { randomBytes } from "node:crypto"
import { Coin, COIN_DECIMALS, COINS, PaymentStatus, REQUIRED_CONFIRMATIONS } from "./spec-facts"
import { fromUnits, scaleByPercent, toUnits } from "./decimal"
import { convertAt, DEFAULT_PRICES } from "./market"
import { generateAddress } from "./addresses"
import { balanceEntry } from "./balances"

export type Transaction = { units: bigint; confirmations: number; at: string }

export type LedgerRecord = {
  paymentId: string
  kind: "invoice" | "payment"
  baseAmount: number
  baseCurrency: string
  orderId?: string
  description?: string
  coin?: Coin
  address?: string
  /** Units of the coin required, once a coin is known. */
  requiredUnits?: bigint
  conversionRates?: Record<Coin, { cryptoAmount: number; price: number }>
  /** This invoice's re-price at coin choice, in percent of the creation quote (POST /__sandbox/payments/:id/reprice). */
  repricePercent?: number
  transactions: Transaction[]
  status: PaymentStatus
  createdAt: string
  expiresAt: string
  completedAt?: string
  webhookUrl?: string
}

export type StatusChange = { record: LedgerRecord; from: PaymentStatus; to: PaymentStatus }

/** How a status record shows currency/address before a coin is chosen. */
export type UnselectedStyle = "absent" | "null"

function id(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("hex")}`
}

/**
 * The in-memory state of the simulated service: invoices, payments, their transactions
 * on the simulated chains, a clock that tests can move forward, and balances derived from them.
 */
/** What create_invoice and create_payment have in common, validated. */
type CreateRequest = {
  amount: number
  amountCurrency: string
  orderId?: string
  description?: string
  expirationMinutes: number
  webhookUrl?: string
}

export class Ledger {
  private records = new Map<string, LedgerRecord>()
  private addresses = new Set<string>()
  private clockOffsetMs = 0
  prices: Record<Coin, string> = { ...DEFAULT_PRICES }
  readonly merchantId = "merchant_sandbox"
  readonly businessName = "Sandbox Merchant"

  constructor(private readonly onStatusChange: (change: StatusChange) => void = () => {}) {}

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

  all(): LedgerRecord[] {
    return [...this.records.values()]
  }

  get(paymentId: string): LedgerRecord | undefined {
    const record = this.records.get(paymentId)
    if (record) this.settle(record)
    return record
  }

  /** The amount of `coin` worth `amount` of `amountCurrency`, rounded up at the coin's precision. */
  convert(amount: number, amountCurrency: string, coin: Coin): bigint {
    return convertAt(this.prices, amount, amountCurrency, coin)
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

  createInvoice(input: CreateRequest): LedgerRecord {
    const conversionRates = {} as Record<Coin, { cryptoAmount: number; price: number }>
    for (const coin of COINS) {
      conversionRates[coin] = {
        cryptoAmount: Number(fromUnits(this.convert(input.amount, input.amountCurrency, coin), COIN_DECIMALS[coin])),
        price: Number(this.prices[coin]),
      }
    }
    return this.store("invoice", input, { conversionRates })
  }

  createPayment(input: CreateRequest & { currency: Coin }): LedgerRecord {
    return this.store("payment", input, {
      coin: input.currency,
      address: this.uniqueAddress(input.currency),
      requiredUnits: this.convert(input.amount, input.amountCurrency, input.currency),
    })
  }

  private store(kind: LedgerRecord["kind"], input: CreateRequest, specifics: Partial<LedgerRecord>): LedgerRecord {
    const record: LedgerRecord = {
      paymentId: id(kind === "invoice" ? "inv" : "pay"),
      kind,
      baseAmount: input.amount,
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
  selectCoin(record: LedgerRecord, coin: Coin, defaultRepricePercent: number | null = null): void {
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
  reprice(record: LedgerRecord, percent: number | null, defaultRepricePercent: number | null = null): void {
    this.assertQuotable(record)
    if (percent === null) delete record.repricePercent
    else record.repricePercent = percent
    if (record.coin) record.requiredUnits = this.quotedUnits(record, record.coin, defaultRepricePercent)
  }

  /** Whether an invoice's amount may still be (re)quoted: an open invoice that has received nothing. */
  private assertQuotable(record: LedgerRecord): void {
    if (record.kind !== "invoice") throw new SandboxConflict("only an invoice lets the customer choose a coin")
    if (record.status !== "PENDING") throw new SandboxConflict(`the invoice is ${record.status}`)
    if (record.transactions.length) throw new SandboxConflict("the invoice already received funds")
  }

  /** The creation quote of `coin` in units, re-priced by the invoice's percent or else the default one. */
  private quotedUnits(record: LedgerRecord, coin: Coin, defaultRepricePercent: number | null): bigint {
    // the number itself, not String(number): a tiny quote prints with an exponent ("1.6e-7")
    const quote = toUnits(record.conversionRates![coin].cryptoAmount, COIN_DECIMALS[coin])
    const percent = record.repricePercent ?? defaultRepricePercent
    return percent ? scaleByPercent(quote, percent) : quote
  }

  /** A transaction to the record's address, unconfirmed. Accepted whatever the status (late payments exist). */
  pay(record: LedgerRecord, amount?: string): Transaction {
    if (!record.coin || record.requiredUnits === undefined) {
      throw new SandboxConflict("choose a coin before paying")
    }
    const decimals = COIN_DECIMALS[record.coin]
    const units = amount === undefined ? this.remainingUnits(record) : toUnits(amount, decimals)
    if (units <= 0n) throw new SandboxConflict("nothing left to pay; give an amount to overpay")
    const tx = { units, confirmations: 0, at: this.now().toISOString() }
    record.transactions.push(tx)
    this.settle(record)
    return tx
  }

  remainingUnits(record: LedgerRecord): bigint {
    const remaining = (record.requiredUnits ?? 0n) - this.receivedUnits(record)
    return remaining > 0n ? remaining : 0n
  }

  receivedUnits(record: LedgerRecord): bigint {
    return record.transactions.reduce((sum, tx) => sum + tx.units, 0n)
  }

  /** The confirmations of the least confirmed transaction (0 before any). */
  confirmations(record: LedgerRecord): number {
    if (!record.transactions.length) return 0
    return Math.min(...record.transactions.map((tx) => tx.confirmations))
  }

  /** New blocks on the record's chain: every transaction gains `blocks` confirmations. */
  confirm(record: LedgerRecord, blocks: number): void {
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

  expire(record: LedgerRecord): void {
    if (record.status !== "PENDING") throw new SandboxConflict(`the payment is ${record.status}`)
    const now = this.now()
    if (new Date(record.expiresAt) > now) record.expiresAt = now.toISOString()
    this.transition(record, "EXPIRED")
  }

  fail(record: LedgerRecord): void {
    if (record.status !== "PENDING") throw new SandboxConflict(`the payment is ${record.status}`)
    this.transition(record, "FAILED")
  }

  /** Applies the service's rules to one record: completion by confirmations, expiry by time. */
  settle(record: LedgerRecord): void {
    if (record.status === "FAILED" || record.status === "COMPLETED") return
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

  private transition(record: LedgerRecord, to: PaymentStatus): void {
    const from = record.status
    if (from === to) return
    record.status = to
    this.onStatusChange({ record, from, to })
  }

  /** The public status record, exactly the fields of the spec. */
  statusRecord(record: LedgerRecord, unselected: UnselectedStyle = "absent"): Record<string, unknown> {
    this.settle(record)
    const coin = record.coin
    const decimals = coin ? COIN_DECIMALS[coin] : 2
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
