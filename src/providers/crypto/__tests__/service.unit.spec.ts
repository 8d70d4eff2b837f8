import http from "node:http"
import { checkoutPaymentOf } from "../../../lib/domain/checkout-payment"
import type { AddressInfo } from "node:net"
import { asValue, createContainer } from "@medusajs/framework/awilix"
import { MedusaError, PaymentActions, PaymentSessionStatus } from "@medusajs/framework/utils"
import type { Logger, ProviderWebhookPayload, WebhookActionResult } from "@medusajs/framework/types"
import CryptoPaymentProviderService from "../service"
import type { CoreLedger, CryptoServiceClient, Freshness, PolicySource } from "../../../modules/crypto-payment/core"
import type { LedgerCheckout, LedgerRow, OpenedPayment, OwedRefund } from "../../../modules/crypto-payment/ledger"
import { CryptoOptionsInput, parseCryptoOptions, PLACE_ORDER } from "../../../modules/crypto-payment/core/options"
import { CryptoApiClient } from "../../../lib/crypto-api/client"
import { CryptoApiError, CryptoApiErrorKind } from "../../../lib/crypto-api/errors"
import type { Coin } from "../../../lib/crypto-api/constants"
import type {
  CreateInvoiceRequest,
  CreatePaymentRequest,
  CurrencyBalance,
  Invoice,
  MerchantSummary,
  Payment,
  StatusRecord,
  WebhookTarget,
} from "../../../lib/crypto-api/schemas"
import type { PaymentOutcome } from "../../../lib/domain/payment-assessment"
import { signWebhookToken, webhookSigningKey } from "../../../lib/domain/webhook-token"
import type { SavedPolicy } from "../../../lib/domain/merchant-policy"
import { RECORD_FLAGS, type RecordFlag } from "../../../lib/domain/payment-read"

/*
 * Every method of the provider against a fake service and an in-memory ledger, handed in through
 * the constructor's dependencies as a test of Medusa would register them: no database, no HTTP.
 */

/** A notification at the plugin's webhook URL: the token from its path and the body. */
const webhookPayload = (token: string, body: unknown) => ({ token, body })
const notify = (provider: CryptoPaymentProviderService, { token, body }: { token: string; body: unknown }) =>
  provider.core.notified(token, body)

const API_KEY = "sk_live_unit_7f3a9c_do_not_leak"
const OPTIONS: CryptoOptionsInput = {
  apiKey: API_KEY,
  baseUrl: "https://pay.example.test",
  backendUrl: "https://shop.example.test",
}
const SESSION = "payses_01"
/** An address in EIP-55 (the standard's own example). */
const EIP55 = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
const EXPIRES_AT = "2026-11-22T09:00:00.000Z"
/** What the fake service asks in BTC for 25 USD. */
const BTC_DUE = "0.00038462"
const COIN_AMOUNT: Record<Coin, number> = { BTC: 0.00038462, ETH: 0.0076923, LTC: 0.3, USDT_ERC20: 25, USDT_BEP20: 25 }
const LIMITS = { daily: { limit: 10, used: 0, remaining: 10 }, monthly: { limit: 100, used: 0, remaining: 100 } }
const ENTRY = { availableBalance: 1.5, totalEarned: 2, totalWithdrawn: 0.5, pendingBalance: 0, limits: LIMITS }
const SUMMARY: MerchantSummary = { merchantId: "merchant_1", businessName: "Unit Shop", balances: { BTC: ENTRY } }

const { INVALID_DATA, NOT_ALLOWED, NOT_FOUND, UNEXPECTED_STATE, UNAUTHORIZED } = MedusaError.Types

afterEach(() => jest.restoreAllMocks())

/** A client error as the real client makes it, here with the API key in its texts: a MedusaError must not repeat them. */
function apiError(kind: CryptoApiErrorKind, status?: number, details?: Record<string, string>): CryptoApiError {
  return new CryptoApiError(kind, `failed with ${API_KEY}`, {
    method: "GET",
    path: "/v1/x",
    status,
    details,
    serviceError: `bad key ${API_KEY}`,
  })
}

/** The crypto payment service: creates invoices and payments with numbered ids, and reports what a test says. */
class FakeService implements CryptoServiceClient {
  readonly worstReadMs = 10_000
  /** What the service answers as expiresAt. */
  expiresAt = EXPIRES_AT
  readonly created: Array<{
    kind: "invoice" | "payment"
    input: CreateInvoiceRequest | CreatePaymentRequest
    webhook?: WebhookTarget
  }> = []
  readonly reads: string[] = []
  readonly balanceReads: Array<Coin | "all"> = []
  /** Every create and balance call fails with this while it is set. */
  failure?: Error
  /** The invoice's baseAmount, when the service should answer another than it was asked. */
  invoiceBaseAmount?: number
  /** The coin amounts the next payments answer, in order (then COIN_AMOUNT's). */
  readonly amounts: string[] = []
  /** The addresses the next payments answer, in order (then `<coin>_address_<id>`). */
  readonly addresses: string[] = []
  private readonly statuses = new Map<string, StatusRecord | Error>()
  private count = 0

  /** What the service reports for a payment from now on: a pending BTC payment changed by `report`, or the error it fails with. */
  reports(paymentId: string, report: Partial<StatusRecord> | Error = {}): void {
    const pending = {
      paymentId,
      status: "PENDING",
      currentBalance: "0",
      confirmations: 0,
      requiredAmount: BTC_DUE,
      currency: "BTC",
    } as const
    this.statuses.set(paymentId, report instanceof Error ? report : { ...pending, ...report })
  }

  async createInvoice(input: CreateInvoiceRequest, webhook?: WebhookTarget): Promise<Invoice> {
    const paymentId = this.create("invoice", input, webhook)
    const conversionRates = {
      BTC: { cryptoAmount: "0.000384615", price: 65_000 },
      ETH: { cryptoAmount: "0.0076923", price: 3_250 },
      DOGE: { cryptoAmount: "160", price: 0.16 },
    }
    const invoiceUrl = `https://pay.example.test/i/${paymentId}`
    return {
      paymentId,
      baseAmount: this.invoiceBaseAmount ?? Number(input.amount),
      baseCurrency: input.amountCurrency,
      conversionRates,
      invoiceUrl,
      expiresAt: this.expiresAt,
    }
  }

  async createPayment(input: CreatePaymentRequest, webhook?: WebhookTarget): Promise<Payment> {
    const paymentId = this.create("payment", input, webhook)
    const amount = this.amounts.shift() ?? COIN_AMOUNT[input.currency]
    const address = this.addresses.shift() ?? `${input.currency.toLowerCase()}_address_${paymentId}`
    const qrCode = `${input.currency.toLowerCase()}:${address}?amount=${amount}`
    return {
      paymentId,
      amount: String(amount),
      currency: input.currency,
      address,
      qrCode,
      invoiceUrl: `https://pay.example.test/p/${paymentId}`,
      expiresAt: this.expiresAt,
    }
  }

  async getStatus(paymentId: string): Promise<StatusRecord> {
    this.reads.push(paymentId)
    const reported = this.statuses.get(paymentId) ?? apiError("http", 404)
    if (reported instanceof Error) throw reported
    return reported
  }

  async getBalances(): Promise<MerchantSummary> {
    this.balanceReads.push("all")
    if (this.failure) throw this.failure
    return SUMMARY
  }

  async getBalance(currency: Coin): Promise<CurrencyBalance> {
    this.balanceReads.push(currency)
    if (this.failure) throw this.failure
    return { currency, balance: ENTRY }
  }

  private create(
    kind: "invoice" | "payment",
    input: CreateInvoiceRequest | CreatePaymentRequest,
    webhook?: WebhookTarget
  ): string {
    if (this.failure) throw this.failure
    this.created.push({ kind, input, webhook })
    return `${kind === "invoice" ? "inv" : "pay"}_${++this.count}`
  }
}

/** The ledger's table and the saved policies in memory, answering as Ledger and MerchantSettings do; rows are kept in the order they were written. */
class MemoryLedger implements CoreLedger, PolicySource {
  readonly rows: LedgerRow[] = []
  readonly opened: OpenedPayment[] = []
  readonly soon: string[] = []
  /** The floor each readSoon was asked with (seconds after the last read). */
  readonly soonFloors: number[] = []
  readonly refunds: OwedRefund[] = []
  lookups = 0
  /** Every call fails with this while it is set (a database down, a missing table). */
  failure?: Error

  async open(payment: OpenedPayment): Promise<void> {
    this.check()
    this.opened.push(payment)
    if (!this.rows.some((row) => row.payment_id === payment.payment_id))
      this.rows.push(rowOf(payment, this.rows.length))
  }

  async byPaymentId(paymentId: string): Promise<LedgerRow | undefined> {
    this.check()
    this.lookups++
    return this.rows.find((row) => row.payment_id === paymentId)
  }

  async forSession(sessionId: string): Promise<LedgerRow | undefined> {
    this.check()
    return (
      newest(this.rows.filter((row) => row.capture_session_id === sessionId)) ??
      newest(this.rows.filter((row) => row.session_id === sessionId))
    )
  }

  async latestOfSession(sessionId: string): Promise<LedgerRow | undefined> {
    this.check()
    return newest(this.rows.filter((row) => row.session_id === sessionId))
  }

  async recordRefund(sessionId: string, price: (checkout: LedgerCheckout) => OwedRefund) {
    const row = await this.forSession(sessionId)
    if (!row) return undefined
    const refund = price((await this.checkoutOf(row.payment_id))!)
    if (this.refunds.some((r) => r.payment_id === refund.payment_id && r.key === refund.key)) return refund
    this.refunds.push(refund)
    this.row(refund.payment_id).refund_owed = true
    return refund
  }

  async checkoutOf(paymentId: string): Promise<LedgerCheckout | undefined> {
    this.check()
    const records = this.refunds.map((r, i) => ({ ...r, id: `owed_${i}`, kind: "refund" }))
    return checkoutPaymentOf(this.rows as LedgerCheckout["first"][], records as never, paymentId)
  }

  async keepRead(paymentId: string, read: { record: unknown; readAt: string }): Promise<void> {
    this.check()
    const row = this.row(paymentId)
    if (!row.last_read || String(row.last_read.readAt) < read.readAt) row.last_read = { ...read }
  }

  async readSoon(paymentIds: string[], floorSeconds: number): Promise<void> {
    this.check()
    this.soon.push(...paymentIds)
    this.soonFloors.push(floorSeconds)
  }

  async remainderOf(paymentId: string): Promise<LedgerRow | undefined> {
    this.check()
    return newest(this.rows.filter((row) => row.remainder_of === paymentId))
  }

  /** What the admin saved per provider (setPolicy). */
  readonly policies = new Map<string, SavedPolicy>()

  async savedPolicy(providerId: string): Promise<SavedPolicy | undefined> {
    this.check()
    return this.policies.get(providerId)
  }

  async openOfSession(sessionId: string, except: string): Promise<string[]> {
    this.check()
    return this.rows
      .filter((row) => row.session_id === sessionId && row.payment_id !== except && !row.settled)
      .map((row) => row.payment_id)
      .reverse()
  }

  row(paymentId: string): LedgerRow {
    const row = this.rows.find((r) => r.payment_id === paymentId)
    if (!row) throw new Error(`no ledger row ${paymentId}`)
    return row
  }

  private check(): void {
    if (this.failure) throw this.failure
  }
}

const newest = (rows: LedgerRow[]) => rows[rows.length - 1]

function rowOf(opened: OpenedPayment, n: number): LedgerRow {
  const { crypto_amount, quotes, coin, address, qr_code, remainder_of, exchange, expires_at, ...rest } = opened
  const created = new Date(Date.UTC(2026, 10, 22, 8, 0, n))
  return {
    ...rest,
    ...ABSENT_EXCHANGE,
    ...exchange,
    ...UNFLAGGED,
    id: `cryptopay_${n}`,
    expires_at: expires_at ? new Date(expires_at) : null,
    coin: coin ?? null,
    crypto_amount: crypto_amount ?? null,
    quotes: quotes ?? null,
    address: address ?? null,
    qr_code: qr_code ?? null,
    payment_collection_id: null,
    provider_id: null,
    status: "PENDING",
    outcome: "pending",
    received_amount: null,
    required_amount: null,
    confirmations: 0,
    required_confirmations: null,
    last_read: null,
    capture_session_id: null,
    remainder_of: remainder_of ?? null,
    order_id: null,
    order_display_id: null,
    applied: null,
    settled: false,
    settled_at: null,
    settled_by: null,
    drift: null,
    warned: null,
    attention: null,
    timeline: null,
    last_webhook_at: null,
    last_checked_at: null,
    check_failures: 0,
    created_at: created,
    updated_at: created,
    deleted_at: null,
  }
}

const ABSENT_EXCHANGE = {
  usd_amount: null,
  exchange_rate: null,
  rate_source: null,
  rate_url: null,
  rate_published_on: null,
  rate_markup_percent: null,
}

const UNFLAGGED = {
  ...(Object.fromEntries(RECORD_FLAGS.map((flag) => [flag, false])) as Record<RecordFlag, false>),
  needs_attention: false,
  refund_owed: false,
  captured_no_order: false,
}

type LogLine = ["debug" | "info" | "warn" | "error", string]

function memoryLogger(lines: LogLine[]): Logger {
  const at = (level: LogLine[0]) => (message: string) => void lines.push([level, message])
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") } as unknown as Logger
}

function setup(options: Partial<CryptoOptionsInput> = {}) {
  const service = new FakeService()
  const ledger = new MemoryLedger()
  const logs: LogLine[] = []
  const provider = new CryptoPaymentProviderService(
    { logger: memoryLogger(logs), cryptoClient: service, cryptoLedger: ledger, cryptoSettings: ledger },
    { ...OPTIONS, ...options }
  )
  const logged = (level: LogLine[0]) => logs.filter(([l]) => l === level).map(([, line]) => line)
  return { provider, service, ledger, logged }
}

type Setup = ReturnType<typeof setup>

/** A session starts paying 25 USD: with a coin a payment (pay_n), without one an invoice (inv_n). */
async function start({ provider }: Setup, coin?: Coin, sessionId = SESSION) {
  const { data } = await provider.initiatePayment({
    amount: 25,
    currency_code: "usd",
    data: { session_id: sessionId, ...(coin ? { currency: coin } : {}) },
  })
  return data!
}

/** A provider whose session SESSION started a BTC payment of 25 USD (pay_1). */
async function started(options: Partial<CryptoOptionsInput> = {}) {
  const setUp = setup(options)
  return { ...setUp, data: await start(setUp, "BTC") }
}

type Refused = [type: string, fragment: string]

/** A MedusaError of `type` that says every fragment, and never the API key. */
async function expectRefusal(call: Promise<unknown>, type: string, ...fragments: string[]): Promise<void> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(MedusaError)
  expect((error as MedusaError).type).toBe(type)
  for (const fragment of fragments) expect((error as MedusaError).message).toContain(fragment)
  expect((error as MedusaError).message).not.toContain(API_KEY)
}

/** The status a call answers, or its refusal. */
async function expectAnswer(
  call: Promise<{ status?: string }>,
  expected: PaymentSessionStatus | Refused
): Promise<void> {
  if (Array.isArray(expected)) return expectRefusal(call, ...expected)
  expect((await call).status).toBe(expected)
}

/** What the BTC payment's status says for each outcome. */
const REPORTS: Record<PaymentOutcome, Partial<StatusRecord>> = {
  paid: { status: "COMPLETED", currentBalance: BTC_DUE, confirmations: 3 },
  pending: { status: "PENDING", currentBalance: BTC_DUE, confirmations: 1 },
  mismatch: { status: "COMPLETED", currentBalance: "0.0002", confirmations: 3 },
  expired: { status: "EXPIRED" },
  failed: { status: "FAILED" },
}

const webhook = (
  data: Record<string, unknown>,
  headers: Record<string, unknown> = {}
): ProviderWebhookPayload["payload"] => ({ data, rawData: "", headers })
const tokenFor = (sessionId: string, options: CryptoOptionsInput = OPTIONS) =>
  signWebhookToken(sessionId, webhookSigningKey(parseCryptoOptions(options)))
/** What the plugin's token route hands the provider: the URL's token inside the door's webhook operation. */
const signed = (sessionId: string, body: Record<string, unknown> = {}) => webhookPayload(tokenFor(sessionId), body)

describe("the crypto provider's dependencies", () => {
  it("builds the real client and ledger under Medusa's container, which throws on an unregistered key", async () => {
    const container = createContainer()
    container.register({ logger: asValue(memoryLogger([])) })
    const provider = new CryptoPaymentProviderService(container.cradle, OPTIONS)
    expect(provider.core.client).toBeInstanceOf(CryptoApiClient)
    // no __pg_connection__ registered: the real ledger asks for it without awilix throwing, and says so
    await expectRefusal(
      provider.updatePayment({ amount: 25, currency_code: "usd", data: { session_id: SESSION } }),
      UNEXPECTED_STATE,
      "no database connection"
    )
  })

  it("builds the real ledger when only the logger is given, and says when it has no database", async () => {
    const provider = new CryptoPaymentProviderService({ logger: memoryLogger([]) }, OPTIONS)
    await expectRefusal(
      provider.authorizePayment({ data: { session_id: SESSION } }),
      UNEXPECTED_STATE,
      "no database connection for the crypto payment ledger"
    )
  })

  it.each<[string, Partial<CryptoOptionsInput>, string[]]>([
    ["https with a backendUrl", {}, []],
    ["http to another machine", { baseUrl: "http://pay.example.test" }, ["travels unencrypted"]],
    ["http to the loopback", { baseUrl: "http://127.0.0.1:4010" }, []],
    ["no backendUrl", { backendUrl: undefined }, ["backendUrl is not set"]],
  ])("warns at construction about %s", (_, options, warnings) => {
    const { logged } = setup(options)
    expect(logged("warn")).toHaveLength(warnings.length)
    warnings.forEach((fragment, i) => expect(logged("warn")[i]).toContain(fragment))
  })
})

describe("initiatePayment", () => {
  it.each<
    [string, Partial<CryptoOptionsInput>, Record<string, unknown>, string, "invoice" | "payment", Coin | undefined]
  >([
    ["invoice mode, no coin: an invoice", {}, {}, "usd", "invoice", undefined],
    ["invoice mode, a USDT cart: an invoice in USDT", {}, { currency: null }, "USDT", "invoice", undefined],
    ["invoice mode, a coin: a payment in it", {}, { currency: "ETH" }, "usd", "payment", "ETH"],
    [
      "payment mode, a coin given",
      { mode: "payment", defaultCoin: "BTC" },
      { currency: "LTC" },
      "usd",
      "payment",
      "LTC",
    ],
    [
      "payment mode, no coin: the default coin",
      { mode: "payment", defaultCoin: "USDT_ERC20" },
      {},
      "usd",
      "payment",
      "USDT_ERC20",
    ],
    [
      "payment mode, a null coin: the default coin",
      { mode: "payment", defaultCoin: "USDT_BEP20" },
      { currency: null },
      "usd",
      "payment",
      "USDT_BEP20",
    ],
    ["a BTC cart paying in BTC", {}, { currency: "BTC" }, "btc", "payment", "BTC"],
  ])("%s", async (_, options, data, currencyCode, kind, coin) => {
    const { provider, service, ledger } = setup(options)
    const out = await provider.initiatePayment({
      amount: 25,
      currency_code: currencyCode,
      data: { session_id: SESSION, ...data },
    })
    const amountCurrency = currencyCode.toUpperCase()
    expect(service.created).toHaveLength(1)
    expect(service.created[0]).toMatchObject({
      kind,
      // the exact decimal text, written into the body as a JSON number
      input: {
        amount: amountCurrency === "BTC" ? "25.00000000" : "25.00",
        amountCurrency,
        orderId: SESSION,
        ...(coin ? { currency: coin } : {}),
      },
    })
    expect(out).toMatchObject({ id: out.data!.paymentId, status: PaymentSessionStatus.PENDING })
    expect(out.data).toMatchObject({
      session_id: SESSION,
      kind,
      status: "PENDING",
      baseCurrency: amountCurrency,
      expiresAt: EXPIRES_AT,
    })
    expect(ledger.rows).toEqual([
      expect.objectContaining({
        payment_id: out.id,
        session_id: SESSION,
        kind,
        coin: coin ?? null,
        base_currency: amountCurrency,
      }),
    ])
  })

  it("keeps what was agreed for a payment in the session and the ledger", async () => {
    const { data, ledger } = await started()
    expect(data).toEqual({
      session_id: SESSION,
      status: "PENDING",
      placeOrder: "before_payment",
      baseAmount: "25.00",
      baseCurrency: "USD",
      paymentId: "pay_1",
      kind: "payment",
      invoiceUrl: "https://pay.example.test/p/pay_1",
      expiresAt: EXPIRES_AT,
      cryptoAmount: "0.00038462",
      amount: 0.00038462,
      currency: "BTC",
      address: "btc_address_pay_1",
      qrCode: "btc:btc_address_pay_1?amount=0.00038462",
    })
    expect(ledger.row("pay_1")).toMatchObject({
      crypto_amount: BTC_DUE,
      coin: "BTC",
      address: "btc_address_pay_1",
      base_amount: "25.00",
      quotes: null,
    })
  })

  it.each<[Coin, string, string]>([
    // coin, the address as the service writes it, as the session data carries it
    ["ETH", EIP55.toLowerCase(), EIP55],
    ["USDT_ERC20", EIP55.toLowerCase(), EIP55],
    ["USDT_BEP20", EIP55.toUpperCase().replace("0X", "0x"), EIP55],
    // a checksum is Ethereum's: never applied to another coin's address, whatever it looks like
    ["BTC", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"],
    ["LTC", EIP55.toLowerCase(), EIP55.toLowerCase()],
  ])(
    "hands out a %s address as the views show it, and keeps the service's in the ledger",
    async (coin, written, shown) => {
      const setUp = setup()
      setUp.service.addresses.push(written)
      const data = await start(setUp, coin)
      expect(data.address).toBe(shown)
      expect(setUp.ledger.row(data.paymentId as string).address).toBe(written)
      if (coin !== "BTC" && coin !== "LTC") expect(data.walletUri).toContain(EIP55)
    }
  )

  it("gives a session written before in lowercase its EVM address in EIP-55 at its next read, and leaves the rest as it was", async () => {
    const { provider, service } = setup()
    service.addresses.push(EIP55.toLowerCase())
    const data = await start({ provider, service } as Setup, "ETH")
    service.reports("pay_1", { currency: "ETH", requiredAmount: "0.0076923" })
    const older = { ...data, address: EIP55.toLowerCase() }
    expect((await provider.retrievePayment({ data: older })).data).toMatchObject({ ...older, address: EIP55 })
    expect((await provider.getPaymentStatus({ data: older })).data).toMatchObject({ address: EIP55 })
  })

  it("tells the storefront when the order is placed, as the shop configured it", async () => {
    for (const placeOrder of ["before_payment", "after_payment"] as const) {
      const { data } = await started({ placeOrder })
      expect(data.placeOrder).toBe(placeOrder)
    }
  })

  it("keeps an invoice's quotes at each known coin's precision, and drops coins it does not know", async () => {
    const setUp = setup()
    const data = await start(setUp)
    expect(data.quotes).toEqual({ BTC: "0.00038462", ETH: "0.00769230" })
    expect(setUp.ledger.row("inv_1")).toMatchObject({
      kind: "invoice",
      quotes: data.quotes,
      coin: null,
      crypto_amount: null,
    })
  })

  it("gives the service a webhook URL whose token names the session, and keeps the token out of the session data", async () => {
    const { service, data } = await started({ webhookUrlField: "callbackUrl" })
    const token = tokenFor(SESSION)
    expect(service.created[0].webhook).toEqual({
      field: "callbackUrl",
      url: `https://shop.example.test/hooks/crypto/${token}`,
    })
    expect(JSON.stringify(data)).not.toContain(token)
    expect(JSON.stringify(data)).not.toContain(API_KEY)
  })

  it("gives no webhook URL without a backendUrl", async () => {
    const { service } = await started({ backendUrl: undefined })
    expect(service.created[0].webhook).toBeUndefined()
  })

  it("takes the session id from the idempotency key, and passes expirationMinutes when set", async () => {
    const { provider, service, ledger } = setup({ expirationMinutes: 45 })
    await provider.initiatePayment({
      amount: "19.999",
      currency_code: "usd",
      context: { idempotency_key: "payses_ctx" },
    })
    expect(service.created[0].input).toEqual({
      amount: "20.00",
      amountCurrency: "USD",
      orderId: "payses_ctx",
      expirationMinutes: 45,
    })
    expect(ledger.rows[0]).toMatchObject({ session_id: "payses_ctx", base_amount: "20.00" })
  })

  it("watches the payment until the late window after its expiry, and reads it after the reconcile interval", async () => {
    const before = Date.now()
    const { ledger } = await started({ lateWindowHours: 2, reconcileIntervalSeconds: 90 })
    const [opened] = ledger.opened
    expect(opened.watch_until).toEqual(new Date(Date.parse(EXPIRES_AT) + 2 * 3_600_000))
    expect(opened.next_check_at.getTime()).toBeGreaterThanOrEqual(before + 90_000)
    expect(opened.next_check_at.getTime()).toBeLessThanOrEqual(Date.now() + 90_000)
  })

  it.each<
    [
      string,
      Partial<CryptoOptionsInput>,
      { amount: number; currency_code: string; data: Record<string, unknown> },
      string,
    ]
  >([
    ["no session id", {}, { amount: 25, currency_code: "usd", data: {} }, "needs a payment session id"],
    [
      "an unknown coin",
      {},
      { amount: 25, currency_code: "usd", data: { session_id: SESSION, currency: "DOGE" } },
      'Unknown coin "DOGE": choose one of BTC, ETH, LTC',
    ],
    [
      "an odd coin name, not repeated",
      {},
      { amount: 25, currency_code: "usd", data: { session_id: SESSION, currency: "<b>x</b>" } },
      "Unknown coin the coin given",
    ],
    [
      "payment mode without a coin or a default",
      { mode: "payment" },
      { amount: 25, currency_code: "usd", data: { session_id: SESSION } },
      "Choose the coin to pay with",
    ],
    [
      "an amount of 0",
      {},
      { amount: 0, currency_code: "usd", data: { session_id: SESSION } },
      "the amount must be greater than 0",
    ],
    [
      "a negative amount",
      {},
      { amount: -5, currency_code: "usd", data: { session_id: SESSION, currency: "BTC" } },
      "the amount must be greater than 0",
    ],
    [
      "less than a cent",
      {},
      { amount: 0.004, currency_code: "usd", data: { session_id: SESSION } },
      "the amount must be greater than 0",
    ],
    [
      "a EUR cart with conversion off",
      { exchangeRates: false },
      { amount: 25, currency_code: "eur", data: { session_id: SESSION } },
      "not available for EUR carts: the crypto payment service accepts invoices in USD, USDT",
    ],
    [
      "a GBP cart whose fixed rates list no GBP",
      { exchangeRates: { source: "fixed", rates: { EUR: "1.0842" } } },
      { amount: 25, currency_code: "gbp", data: { session_id: SESSION } },
      "not available for GBP carts: there is no exchange rate from GBP to USD",
    ],
    [
      "a cart in a currency Medusa does not know",
      { exchangeRates: { source: "fixed", rates: { XYZ: "2" } } },
      { amount: 25, currency_code: "xyz", data: { session_id: SESSION } },
      "not available for XYZ carts: the crypto payment service accepts invoices in USD, USDT",
    ],
    [
      "a BTC cart for an invoice",
      {},
      { amount: 1, currency_code: "btc", data: { session_id: SESSION } },
      "accepts invoices in USD, USDT.",
    ],
    [
      "a EUR cart for a payment with conversion off",
      { exchangeRates: false },
      { amount: 25, currency_code: "eur", data: { session_id: SESSION, currency: "ETH" } },
      "accepts payments in USD, USDT, BTC, ETH, LTC",
    ],
  ])("refuses %s before calling the service", async (_, options, input, fragment) => {
    const { provider, service, ledger } = setup(options)
    await expectRefusal(provider.initiatePayment(input), INVALID_DATA, fragment)
    expect(service.created).toEqual([])
    expect(ledger.rows).toEqual([])
  })

  it.each<[string, Error, string, string]>([
    [
      "the key refused (401)",
      apiError("http", 401),
      UNEXPECTED_STATE,
      "the shop's access to the payment service was refused",
    ],
    [
      "the key forbidden (403)",
      apiError("http", 403),
      UNEXPECTED_STATE,
      "the shop's access to the payment service was refused",
    ],
    [
      "a refused request (400)",
      apiError("http", 400, { amount: "too small" }),
      INVALID_DATA,
      "the crypto payment service refused the request (amount)",
    ],
    ["an unknown payment (404)", apiError("http", 404), NOT_FOUND, "does not know this payment"],
    ["the rate limit (429)", apiError("http", 429), UNEXPECTED_STATE, "is busy. Please try again in a minute"],
    ["a server error (502)", apiError("http", 502), UNEXPECTED_STATE, "had a problem"],
    ["a timeout", apiError("timeout"), UNEXPECTED_STATE, "is not reachable right now"],
    ["a network failure", apiError("network"), UNEXPECTED_STATE, "is not reachable right now"],
    ["an answer off the spec", apiError("invalid_response"), UNEXPECTED_STATE, "gave an unexpected answer"],
    [
      "a request the client refused",
      apiError("invalid_request", undefined, { expirationMinutes: "too big" }),
      INVALID_DATA,
      "is not valid for the crypto payment service (expirationMinutes)",
    ],
    ["a bug", new TypeError(`cannot read ${API_KEY}`), UNEXPECTED_STATE, "Please try again in a moment"],
  ])("maps %s at the service to a MedusaError, writing nothing to the ledger", async (_, error, type, fragment) => {
    const setUp = setup()
    setUp.service.failure = error
    await expectRefusal(start(setUp), type, "Could not start the crypto invoice", fragment)
    expect(setUp.ledger.rows).toEqual([])
    expect(setUp.logged(error instanceof CryptoApiError ? "warn" : "error")).toContainEqual(
      expect.stringContaining(`could not create a crypto invoice for session ${SESSION}`)
    )
  })

  it.each<[string, Error, string, string]>([
    [
      "a database failure",
      new Error("connection terminated"),
      UNEXPECTED_STATE,
      "Could not record the crypto payment pay_1. Please try again.",
    ],
    [
      "a missing table",
      new MedusaError(NOT_ALLOWED, "the plugin's crypto_payment table is missing"),
      NOT_ALLOWED,
      "table is missing",
    ],
  ])("refuses when the ledger cannot keep the payment (%s)", async (_, error, type, fragment) => {
    const setUp = setup()
    setUp.ledger.failure = error
    await expectRefusal(start(setUp, "BTC"), type, fragment)
    expect(setUp.service.created).toHaveLength(1)
  })
})

describe("an expiry the service wrote in a form no one reads", () => {
  it("still starts the payment: the ledger holds no expiry and watches it from creation for the longest window", async () => {
    const setUp = setup()
    setUp.service.expiresAt = "next tuesday"
    const before = Date.now()
    const data = await start(setUp, "BTC")
    expect(data).toMatchObject({ paymentId: "pay_1", expiresAt: "next tuesday" })
    const [opened] = setUp.ledger.opened
    expect(opened.expires_at).toBeNull()
    // 1440 minutes (the spec's longest window) + the 24 h late window
    expect(opened.watch_until.getTime()).toBeGreaterThanOrEqual(before + (1440 + 24 * 60) * 60_000)
  })
})

describe("updatePayment", () => {
  it.each<[string, number | string, string]>([
    ["the same amount", 25, "usd"],
    ["an amount that rounds to the same cents", "25.004", "USD"],
  ])("with %s keeps the payment and answers the data as given", async (_, amount, currencyCode) => {
    const { provider, service, data } = await started()
    const out = await provider.updatePayment({ amount, currency_code: currencyCode, data })
    expect(out).toEqual({ data })
    expect(service.created).toHaveLength(1)
  })

  it.each<[string, Coin | undefined, "invoice" | "payment", string]>([
    ["a payment: a new payment in the same coin", "LTC", "payment", "pay_2"],
    ["an invoice: a new invoice", undefined, "invoice", "inv_2"],
  ])("with a new amount, for %s; the old one stays in the ledger", async (_, coin, kind, newId) => {
    const setUp = setup()
    const data = await start(setUp, coin)
    const out = await setUp.provider.updatePayment({ amount: 30, currency_code: "usd", data })
    expect(out.status).toBe(PaymentSessionStatus.PENDING)
    expect(out.data).toMatchObject({ session_id: SESSION, paymentId: newId, kind, baseAmount: "30.00" })
    expect(setUp.service.created[1]).toMatchObject({
      kind,
      input: { amount: "30.00", orderId: SESSION, ...(coin ? { currency: coin } : {}) },
    })
    expect(setUp.ledger.rows.map((row) => [row.payment_id, row.base_amount])).toEqual([
      [data.paymentId, "25.00"],
      [newId, "30.00"],
    ])
    expect(setUp.logged("info")).toContainEqual(
      expect.stringContaining(`changed from 25.00 USD to 30.00 USD; ${data.paymentId} replaced by a new ${kind}`)
    )
  })

  it("with another currency of the same amount creates a new payment", async () => {
    const { provider, service, data } = await started()
    const out = await provider.updatePayment({ amount: 25, currency_code: "usdt", data })
    expect(out.data).toMatchObject({ paymentId: "pay_2", baseCurrency: "USDT" })
    expect(service.created[1].input).toMatchObject({ amountCurrency: "USDT", currency: "BTC" })
  })

  it.each<[string, Record<string, unknown> | undefined, string, Refused]>([
    ["no session data", undefined, "usd", [INVALID_DATA, "holds no crypto payment"]],
    [
      "a session the ledger does not know",
      { session_id: "payses_other" },
      "usd",
      [INVALID_DATA, "holds no crypto payment"],
    ],
    [
      "a currency the service does not take",
      { session_id: SESSION },
      "eur",
      [INVALID_DATA, "not available for EUR carts"],
    ],
  ])("refuses %s", async (_, data, currencyCode, [type, fragment]) => {
    const { provider, service } = await started({ exchangeRates: false })
    await expectRefusal(provider.updatePayment({ amount: 30, currency_code: currencyCode, data }), type, fragment)
    expect(service.created).toHaveLength(1)
  })

  it("maps a service failure for the new payment, and a ledger failure", async () => {
    const { provider, service, ledger, data } = await started()
    service.failure = apiError("http", 503)
    await expectRefusal(
      provider.updatePayment({ amount: 30, currency_code: "usd", data }),
      UNEXPECTED_STATE,
      "Could not start the crypto payment"
    )
    ledger.failure = new Error("connection terminated")
    await expectRefusal(
      provider.updatePayment({ amount: 30, currency_code: "usd", data }),
      UNEXPECTED_STATE,
      "Could not update the crypto payment. Please try again."
    )
  })
})

describe("a store currency the service does not take (issue 33)", () => {
  const FIXED = { source: "fixed", rates: { EUR: "1.0842", JPY: "0.00667", GBP: "1.2592" } } as const
  const initiate = (setUp: Setup, amount: number | string, currency_code: string, coin?: Coin) =>
    setUp.provider.initiatePayment({
      amount,
      currency_code,
      data: { session_id: SESSION, ...(coin ? { currency: coin } : {}) },
    })

  it.each<[string, number | string, string, number, string, Record<string, unknown>]>([
    ["EUR", 46, "eur", 0, "49.88", { baseAmount: "46.00", baseCurrency: "EUR" }],
    ["EUR with a 1.5 % markup", 46, "EUR", 1.5, "50.63", { baseAmount: "46.00", baseCurrency: "EUR" }],
    ["JPY (no decimals)", 5000, "jpy", 0, "33.35", { baseAmount: "5000", baseCurrency: "JPY" }],
    ["GBP, an exact cent not bumped", "86.10", "gbp", 0, "108.42", { baseAmount: "86.10", baseCurrency: "GBP" }],
  ])("%s: asks USD rounded up to the cent and records the rate", async (_, amount, code, markup, usd, base) => {
    const setUp = setup({ exchangeRates: { ...FIXED, markupPercent: markup } })
    const { data } = await initiate(setUp, amount, code)
    expect(setUp.service.created[0].input).toMatchObject({ amount: usd, amountCurrency: "USD" })
    const rate = FIXED.rates[String(base.baseCurrency) as keyof typeof FIXED.rates]
    expect(data).toMatchObject({
      ...base,
      exchange: { usdAmount: usd, rate, source: "fixed", publishedOn: null, markupPercent: String(markup) },
    })
    expect(setUp.ledger.opened[0]).toMatchObject({
      base_amount: base.baseAmount,
      base_currency: base.baseCurrency,
      exchange: {
        usd_amount: usd,
        exchange_rate: rate,
        rate_source: "fixed",
        rate_url: null,
        rate_published_on: null,
        rate_markup_percent: String(markup),
      },
    })
  })

  it("never converts a USD or USDT cart", async () => {
    const setUp = setup({ exchangeRates: FIXED })
    const { data } = await initiate(setUp, 25, "usdt", "BTC")
    expect(setUp.service.created[0].input).toMatchObject({ amount: "25.00", amountCurrency: "USDT" })
    expect(data).not.toHaveProperty("exchange")
    expect(setUp.ledger.opened[0]).not.toHaveProperty("exchange")
  })

  it("updates a session: the same store amount creates nothing, another one is priced anew", async () => {
    const setUp = setup({ exchangeRates: FIXED })
    const { data } = await initiate(setUp, 46, "eur")
    expect(await setUp.provider.updatePayment({ amount: "46.00", currency_code: "eur", data: data! })).toEqual({ data })
    expect(setUp.service.created).toHaveLength(1)
    const out = await setUp.provider.updatePayment({ amount: 50, currency_code: "eur", data: data! })
    expect(out.data).toMatchObject({ paymentId: "inv_2", baseAmount: "50.00", exchange: { usdAmount: "54.21" } })
    expect(setUp.service.created[1].input).toMatchObject({ amount: "54.21", amountCurrency: "USD" })
  })

  it("refunds in the store currency the ledger holds, at the payment's coins per store unit", async () => {
    const setUp = setup({ exchangeRates: FIXED })
    const { data } = await initiate(setUp, 46, "eur", "BTC")
    Object.assign(setUp.ledger.row("pay_1"), { received_amount: "0.00092", required_amount: "0.00092" })
    // Medusa passes no currency: half of the 46.00 EUR is half the coins
    await setUp.provider.refundPayment({ amount: 23, data: data!, context: { idempotency_key: "ref_1" } } as never)
    expect(setUp.ledger.refunds[0]).toMatchObject({
      coin_amount: "0.00046000",
      base_amount: "23.00",
      base_currency: "EUR",
    })
  })

  it("refuses an invoice the service made for another amount than it was asked", async () => {
    const setUp = setup({ exchangeRates: FIXED })
    setUp.service.invoiceBaseAmount = 49.87
    await expectRefusal(initiate(setUp, 46, "eur"), UNEXPECTED_STATE, "gave an unexpected answer")
    expect(setUp.ledger.rows).toEqual([])
  })
})

describe("authorizePayment", () => {
  const [BEFORE, AFTER] = PLACE_ORDER
  const { CAPTURED, PENDING_AUTHORIZATION } = PaymentSessionStatus

  it.each<[string, (typeof PLACE_ORDER)[number], Partial<StatusRecord> | Error, PaymentSessionStatus | Refused]>([
    ["paid", BEFORE, REPORTS.paid, CAPTURED],
    ["paid", AFTER, REPORTS.paid, CAPTURED],
    ["pending", BEFORE, REPORTS.pending, PENDING_AUTHORIZATION],
    [
      "pending",
      AFTER,
      REPORTS.pending,
      [NOT_ALLOWED, "not confirmed yet (1 of 3 confirmations). The order is placed as soon as"],
    ],
    [
      "pending, underpaid",
      AFTER,
      { currentBalance: "0.0001" },
      [NOT_ALLOWED, "not confirmed yet (received 0.00010000 of 0.00038462 BTC)"],
    ],
    ["mismatch", BEFORE, REPORTS.mismatch, PENDING_AUTHORIZATION],
    ["mismatch", AFTER, REPORTS.mismatch, [NOT_ALLOWED, "received 0.00020000 of 0.00038462 BTC"]],
    ["expired", BEFORE, REPORTS.expired, [NOT_ALLOWED, "expired before the full amount arrived"]],
    ["expired", AFTER, REPORTS.expired, [NOT_ALLOWED, "expired before the full amount arrived"]],
    ["failed", BEFORE, REPORTS.failed, [NOT_ALLOWED, "failed at the payment service"]],
    ["failed", AFTER, REPORTS.failed, [NOT_ALLOWED, "failed at the payment service"]],
    ["a timeout", BEFORE, apiError("timeout"), PENDING_AUTHORIZATION],
    [
      "a timeout",
      AFTER,
      apiError("timeout"),
      [UNEXPECTED_STATE, "Could not confirm the crypto payment: the crypto payment service is not reachable"],
    ],
    ["a 503", BEFORE, apiError("http", 503), PENDING_AUTHORIZATION],
    [
      "a 503",
      AFTER,
      apiError("http", 503),
      [UNEXPECTED_STATE, "Could not confirm the crypto payment: the crypto payment service had a problem"],
    ],
    ["a 429", BEFORE, apiError("http", 429), PENDING_AUTHORIZATION],
    [
      "a 404 (not transient)",
      BEFORE,
      apiError("http", 404),
      [NOT_FOUND, "Could not confirm the crypto payment: the crypto payment service does not know"],
    ],
    [
      "an answer off the spec (not transient)",
      BEFORE,
      apiError("invalid_response"),
      [UNEXPECTED_STATE, "gave an unexpected answer"],
    ],
  ])("%s with placeOrder %s", async (_, placeOrder, report, expected) => {
    const { provider, service, data } = await started({ placeOrder })
    service.reports("pay_1", report)
    await expectAnswer(provider.authorizePayment({ data }), expected)
    expect(service.reads).toEqual(["pay_1"])
  })

  it("answers the service's progress in the session data when paid", async () => {
    const { provider, service, data } = await started()
    service.reports("pay_1", REPORTS.paid)
    const out = await provider.authorizePayment({ data })
    expect(out.data).toEqual({
      ...data,
      status: "COMPLETED",
      confirmations: 3,
      requiredConfirmations: 3,
      receivedAmount: BTC_DUE,
      requiredAmount: BTC_DUE,
      currency: "BTC",
    })
  })

  it("places the order on a transient failure keeping the data as it was, and logs why", async () => {
    const { provider, service, data, logged } = await started()
    service.reports("pay_1", apiError("network"))
    expect(await provider.authorizePayment({ data })).toEqual({ status: PENDING_AUTHORIZATION, data })
    expect(logged("warn")).toContainEqual(expect.stringContaining(`status of session ${SESSION} unknown at checkout`))
  })

  it("logs why a mismatch is not accepted as paid", async () => {
    const { provider, service, data, logged } = await started()
    service.reports("pay_1", REPORTS.mismatch)
    await provider.authorizePayment({ data })
    expect(logged("warn")).toContainEqual(
      "medusa-payment-crypto: pay_1 not accepted as paid: completed with less than the required amount"
    )
  })

  it("reuses a final status the ledger holds (a webhook read it) instead of reading again", async () => {
    const { provider, service, data } = await started()
    service.reports("pay_1", REPORTS.paid)
    await provider.core.report("pay_1", "fresh")
    expect((await provider.authorizePayment({ data })).status).toBe(CAPTURED)
    expect(service.reads).toEqual(["pay_1"])
  })

  it("tells an invoice without a coin yet to choose one", async () => {
    const setUp = setup({ placeOrder: AFTER })
    const data = await start(setUp)
    setUp.service.reports("inv_1", { currency: null, requiredAmount: undefined })
    await expectRefusal(
      setUp.provider.authorizePayment({ data }),
      NOT_ALLOWED,
      "has not been received yet. Choose a coin and pay on the payment page"
    )
  })

  it("accepts an invoice paid in a coin at its quote", async () => {
    const setUp = setup()
    const data = await start(setUp)
    setUp.service.reports("inv_1", {
      status: "COMPLETED",
      currency: "ETH",
      requiredAmount: "0.0076923",
      currentBalance: "0.0076923",
      confirmations: 12,
    })
    expect((await setUp.provider.authorizePayment({ data })).status).toBe(CAPTURED)
  })

  it("judges the payment the ledger names for the session, never an id in the session data", async () => {
    const setUp = await started()
    await start(setUp, "BTC", "payses_02")
    setUp.service.reports("pay_1", REPORTS.pending)
    setUp.service.reports("pay_2", REPORTS.paid)
    const out = await setUp.provider.authorizePayment({ data: { ...setUp.data, paymentId: "pay_2" } })
    expect(out.status).toBe(PENDING_AUTHORIZATION)
    expect(setUp.service.reads).toEqual(["pay_1"])
  })

  it.each<[string, Record<string, unknown> | undefined, Error | undefined, Refused]>([
    ["no session data", undefined, undefined, [INVALID_DATA, "holds no crypto payment"]],
    ["a session id that is not a string", { session_id: 7 }, undefined, [INVALID_DATA, "holds no crypto payment"]],
    [
      "a session the ledger does not know",
      { session_id: "payses_other" },
      undefined,
      [INVALID_DATA, "holds no crypto payment"],
    ],
    [
      "a ledger failure",
      { session_id: SESSION },
      new Error("connection terminated"),
      [UNEXPECTED_STATE, "Could not read the crypto payment ledger"],
    ],
  ])("refuses %s without reading the service", async (_, data, ledgerFailure, [type, fragment]) => {
    const { provider, service, ledger } = await started()
    ledger.failure = ledgerFailure
    await expectRefusal(provider.authorizePayment({ data }), type, fragment)
    expect(service.reads).toEqual([])
  })
})

describe("getPaymentStatus, retrievePayment and capturePayment", () => {
  const S = PaymentSessionStatus

  it.each<[PaymentOutcome, PaymentSessionStatus, PaymentSessionStatus]>([
    ["paid", S.CAPTURED, S.CAPTURED],
    ["pending", S.PENDING_AUTHORIZATION, S.PENDING],
    ["mismatch", S.PENDING_AUTHORIZATION, S.PENDING],
    ["expired", S.CANCELED, S.CANCELED],
    ["failed", S.ERROR, S.ERROR],
  ])("getPaymentStatus of a %s payment: %s before payment, %s after", async (outcome, before, after) => {
    for (const [placeOrder, expected] of [
      ["before_payment", before],
      ["after_payment", after],
    ] as const) {
      const { provider, service, data } = await started({ placeOrder })
      service.reports("pay_1", REPORTS[outcome])
      const out = await provider.getPaymentStatus({ data })
      expect(out.status).toBe(expected)
      expect(out.data).toMatchObject({ ...data, status: REPORTS[outcome].status })
    }
  })

  it("retrievePayment answers the session data with the service's progress", async () => {
    const { provider, service, data } = await started()
    service.reports("pay_1", { currentBalance: "0.0001", confirmations: 1 })
    expect(await provider.retrievePayment({ data })).toEqual({
      data: {
        ...data,
        status: "PENDING",
        confirmations: 1,
        requiredConfirmations: 3,
        receivedAmount: "0.00010000",
        requiredAmount: BTC_DUE,
        currency: "BTC",
      },
    })
  })

  it.each<[PaymentOutcome, string | undefined]>([
    ["paid", undefined],
    ["pending", "the service reports it PENDING."],
    ["mismatch", "the service reports it COMPLETED (completed with less than the required amount)."],
    ["expired", "the service reports it EXPIRED."],
    ["failed", "the service reports it FAILED."],
  ])("capturePayment of a %s payment", async (outcome, refusal) => {
    const { provider, service, data } = await started()
    service.reports("pay_1", REPORTS[outcome])
    const call = provider.capturePayment({ data })
    if (refusal) return expectRefusal(call, NOT_ALLOWED, `The crypto payment cannot be captured: ${refusal}`)
    expect((await call).data).toMatchObject({ ...data, status: "COMPLETED", receivedAmount: BTC_DUE })
  })

  it.each<[string, Record<string, unknown> | undefined, Error | undefined, string, string]>([
    ["no session data", undefined, undefined, INVALID_DATA, "holds no crypto payment"],
    [
      "a timeout",
      { session_id: SESSION },
      apiError("timeout"),
      UNEXPECTED_STATE,
      "the crypto payment service is not reachable",
    ],
    [
      "a payment the service does not know",
      { session_id: SESSION },
      apiError("http", 404),
      NOT_FOUND,
      "does not know this payment",
    ],
    ["the rate limit", { session_id: SESSION }, apiError("http", 429), UNEXPECTED_STATE, "is busy"],
  ])("all three refuse %s, saying what could not be done", async (_, data, failure, type, fragment) => {
    const { provider, service } = await started({ placeOrder: "before_payment" })
    if (failure) service.reports("pay_1", failure)
    const calls: Array<[() => Promise<unknown>, string]> = [
      [() => provider.getPaymentStatus({ data }), "read the crypto payment's status"],
      [() => provider.retrievePayment({ data }), "read the crypto payment"],
      [() => provider.capturePayment({ data }), "capture the crypto payment"],
    ]
    for (const [call, action] of calls) {
      await expectRefusal(call(), type, ...(failure ? [`Could not ${action}: `] : []), fragment)
    }
  })

  it("polls share a pending read; checkout reads afresh; capture reuses a final read", async () => {
    const { provider, service, data } = await started()
    // a second apart, as the ledger keeps a read only when it is newer than the one it holds
    let clock = Date.now()
    jest.spyOn(Date, "now").mockImplementation(() => (clock += 1_000))
    service.reports("pay_1", REPORTS.pending)
    await provider.getPaymentStatus({ data })
    await provider.retrievePayment({ data })
    expect(service.reads).toEqual(["pay_1"])
    service.reports("pay_1", REPORTS.paid)
    expect((await provider.authorizePayment({ data })).status).toBe(S.CAPTURED)
    await provider.capturePayment({ data })
    await provider.getPaymentStatus({ data })
    expect(service.reads).toEqual(["pay_1", "pay_1"])
  })
})

describe("cancelPayment and deletePayment", () => {
  it.each<[string, Record<string, unknown> | undefined]>([
    ["no data", undefined],
    ["empty data", {}],
    ["the session's data", { session_id: SESSION, paymentId: "pay_1" }],
    ["odd data", { session_id: 42, paymentId: ["x"], nested: { deep: null } }],
  ])("answer %s as given, touching neither the service nor the ledger", async (_, data) => {
    const { provider, service, ledger } = await started()
    expect(await provider.cancelPayment({ data })).toEqual({ data: data ?? {} })
    expect(await provider.deletePayment({ data })).toEqual({ data: data ?? {} })
    expect(await provider.cancelPayment({ data })).toEqual({ data: data ?? {} })
    expect(service.reads).toEqual([])
    expect(ledger.rows).toEqual([expect.objectContaining({ payment_id: "pay_1", refund_owed: false, settled: false })])
  })
})

describe("refundPayment", () => {
  it("refuses with refunds disabled, recording nothing", async () => {
    const { provider, ledger, data } = await started({ refunds: "disabled" })
    await expectRefusal(
      provider.refundPayment({ amount: 10, data }),
      NOT_ALLOWED,
      "cannot be refunded through Medusa: the crypto payment service has no refund API"
    )
    expect(ledger.row("pay_1")).toMatchObject({ refund_owed: false })
    expect(ledger.refunds).toEqual([])
  })

  it("records each refund as its own owed amount, keyed by Medusa's refund id, with refunds manual", async () => {
    const { provider, ledger, data, logged } = await started({ refunds: "manual" })
    const refund = (amount: number | string, id: string) =>
      provider.refundPayment({ amount, data, context: { idempotency_key: id } } as never)
    expect(await refund(10, "ref_1")).toEqual({ data })
    expect(ledger.row("pay_1")).toMatchObject({ refund_owed: true })
    expect(logged("warn")).toContainEqual(
      "medusa-payment-crypto: refund of 10.00 USD recorded for payment pay_1: send 0.00015384 BTC from the service's dashboard, then mark it sent in the admin"
    )
    // a second refund is a record of its own, never the running total of both; a retried one is not recorded twice
    await refund("15", "ref_2")
    await refund(10, "ref_1")
    expect(ledger.refunds).toEqual([
      expect.objectContaining({
        key: "refund:ref_1",
        refund_id: "ref_1",
        coin_amount: "0.00015384",
        base_amount: "10.00",
      }),
      expect.objectContaining({
        key: "refund:ref_2",
        refund_id: "ref_2",
        // priced cumulatively: 25.00 of 25.00 refunded in two parts owes every coin required (0.00038462),
        // not a satoshi less for rounding each part down (0.00023077)
        coin_amount: "0.00023078",
        base_amount: "15.00",
      }),
    ])
  })

  it("prices a refund at the service's required coins for the base amount, not at what an overpaying customer sent", async () => {
    const { provider, ledger, data } = await started()
    Object.assign(ledger.row("pay_1"), { received_amount: "0.0005", required_amount: "0.0004" })
    await provider.refundPayment({ amount: 5, data, context: { idempotency_key: "ref_1" } } as never)
    // 5 / 25 of the 0.0004 required, not of the 0.0005 received (the excess is owed on its own)
    expect(ledger.refunds[0].coin_amount).toBe("0.00008000")
  })

  it("records a refund of an invoice paid in no known coin without a coin amount", async () => {
    const setUp = setup()
    const data = await start(setUp)
    await setUp.provider.refundPayment({ amount: 25, data })
    expect(setUp.ledger.row("inv_1")).toMatchObject({ refund_owed: true })
    expect(setUp.ledger.refunds).toEqual([
      expect.objectContaining({ coin_amount: null, base_amount: "25.00", base_currency: "USD" }),
    ])
    expect(setUp.logged("warn")).toContainEqual(expect.stringContaining("send the equivalent in crypto"))
  })

  it.each<[string, Record<string, unknown> | undefined, Error | undefined, Refused]>([
    ["no session data", undefined, undefined, [INVALID_DATA, "holds no crypto payment"]],
    [
      "a session the ledger does not know",
      { session_id: "payses_other" },
      undefined,
      [INVALID_DATA, "holds no crypto payment"],
    ],
    [
      "a ledger failure",
      { session_id: SESSION },
      new Error("connection terminated"),
      [UNEXPECTED_STATE, "Could not record the crypto refund. Please try again."],
    ],
  ])("refuses %s", async (_, data, ledgerFailure, [type, fragment]) => {
    const { provider, ledger } = await started()
    ledger.failure = ledgerFailure
    await expectRefusal(provider.refundPayment({ amount: 10, data }), type, fragment)
    ledger.failure = undefined
    expect(ledger.row("pay_1").refund_owed).toBe(false)
  })
})

describe("the remainder of a short payment", () => {
  it("asks the shortfall in the same coin on the same session, once, and records it as the remainder", async () => {
    const { provider, service, ledger } = await started()
    service.reports("pay_1", { status: "EXPIRED", currentBalance: "0.0003", confirmations: 3 })
    const answer = (await provider.core.remainder("pay_1"))!
    expect(answer).toMatchObject({ paymentId: "pay_2", created: true })
    expect(service.created[1]).toMatchObject({
      kind: "payment",
      input: { amount: "0.00008462", amountCurrency: "BTC", currency: "BTC", orderId: SESSION },
    })
    expect(ledger.row("pay_2")).toMatchObject({ session_id: SESSION, remainder_of: "pay_1", base_amount: "5.50" })
    // asked again while it is open: the same one, nothing created
    service.reports("pay_2", {})
    expect(await provider.core.remainder("pay_1")).toMatchObject({
      paymentId: "pay_2",
      created: false,
    })
    expect(service.created).toHaveLength(2)
  })

  it.each<[string, Partial<StatusRecord>]>([
    ["still pending", { status: "PENDING", currentBalance: "0.0003" }],
    ["expired with nothing received", { status: "EXPIRED", currentBalance: "0" }],
    ["completed", REPORTS.paid],
  ])("refuses one for a payment %s", async (_, report) => {
    const { provider, service } = await started()
    service.reports("pay_1", report)
    await expectRefusal(
      provider.core.remainder("pay_1"),
      NOT_ALLOWED,
      "Only a crypto payment that expired with part of the amount received"
    )
    expect(service.created).toHaveLength(1)
  })
})

describe("the payment core's operations, and Medusa's /hooks/payment route", () => {
  const POLICY = {
    reconcileIntervalSeconds: 60,
    reconcileBatchSize: 20,
    lateWindowHours: 24,
    lockSeconds: 80,
    quoteDriftAlertPercent: 2,
    underpaymentTolerancePercent: 0,
    latePayments: "flag",
  }

  it.each<[string, Coin | undefined, Record<string, unknown>]>([
    ["all balances", undefined, { summary: SUMMARY }],
    ["one coin's balance", "LTC", { balance: { currency: "LTC", balance: ENTRY } }],
  ])("answers %s for the admin", async (_, coin, answer) => {
    const { provider, service } = setup()
    const result = await provider.core.balances(coin)
    expect(result).toEqual(answer)
    expect(service.balanceReads).toEqual([coin ?? "all"])
  })

  it("lets a balance failure reach the caller as the client's error", async () => {
    const { provider, service } = setup()
    service.failure = apiError("http", 401)
    await expect(provider.core.balances()).rejects.toBeInstanceOf(CryptoApiError)
  })

  it.each<PaymentOutcome>(["paid", "pending", "mismatch", "expired", "failed"])(
    "reports a %s ledger payment for the job, with the policy",
    async (outcome) => {
      const { provider, service } = await started()
      service.reports("pay_1", REPORTS[outcome])
      const before = Date.now()
      const result = await provider.core.report("pay_1", "fresh")
      const answer = result!
      expect(answer).toMatchObject({
        paymentId: "pay_1",
        sessionId: SESSION,
        policy: POLICY,
        assessment: { outcome, status: REPORTS[outcome].status },
      })
      expect(Date.parse(answer.readAt!)).toBeGreaterThanOrEqual(before)
    }
  )

  it("answers a payment the service does not know without an assessment, and one the ledger does not know with nothing", async () => {
    const { provider, service } = await started()
    service.reports("pay_1", apiError("http", 404))
    const result = await provider.core.report("pay_1", "fresh")
    expect(result).toEqual({ paymentId: "pay_1", sessionId: SESSION, policy: POLICY })
    expect(await provider.core.report("pay_999", "fresh")).toBeNull()
    expect(service.reads).toEqual(["pay_1"])
  })

  it("lets another read failure of an assessment reach the caller", async () => {
    const { provider, service } = await started()
    service.reports("pay_1", apiError("http", 503))
    await expect(provider.core.report("pay_1", "fresh")).rejects.toMatchObject({
      kind: "http",
      status: 503,
    })
  })

  it("reads afresh for a fresh assessment, and reuses a recent read for a shared one", async () => {
    const { provider, service } = await started()
    service.reports("pay_1", REPORTS.paid)
    await provider.core.report("pay_1", "fresh")
    await provider.core.report("pay_1", "fresh")
    await provider.core.report("pay_1", "shared")
    expect(service.reads).toEqual(["pay_1", "pay_1"])
  })

  describe("a webhook with the URL's token", () => {
    /** SESSION went from 25 to 30 USD (pay_1, then pay_2); payses_02 has pay_3. */
    async function twoSessions() {
      const setUp = await started()
      const { data } = await setUp.provider.updatePayment({ amount: 30, currency_code: "usd", data: setUp.data })
      await start(setUp, "BTC", "payses_02")
      for (const id of ["pay_1", "pay_2", "pay_3"]) setUp.service.reports(id, REPORTS.paid)
      return { ...setUp, data: data! }
    }

    it.each<[string, Record<string, unknown>, string, string[]]>([
      ["names no payment: the session's newest", {}, "pay_2", ["pay_1"]],
      ["names an older payment of the session: that one", { paymentId: "pay_1" }, "pay_1", ["pay_2"]],
      ["names another session's payment: the session's newest", { data: { paymentId: "pay_3" } }, "pay_2", ["pay_1"]],
      ["names a payment the ledger does not know: the session's newest", { payment_id: "pay_999" }, "pay_2", ["pay_1"]],
    ])("whose body %s is judged; the session's other open payments are read soon", async (_, body, judged, soon) => {
      const { provider, service, ledger } = await twoSessions()
      const result = await notify(provider, signed(SESSION, body))
      expect(result).toMatchObject({
        paymentId: judged,
        sessionId: SESSION,
        assessment: { outcome: "paid" },
      })
      expect(service.reads).toEqual([judged])
      expect(ledger.soon).toEqual(soon)
      // siblings are brought forward, never sooner than a reconcile interval after their last read
      expect(ledger.soonFloors).toEqual([60])
    })

    it("reuses a recent COMPLETED read for a repeated notification, and asks the job to read again once it is statusCacheSeconds old", async () => {
      const { provider, service } = await twoSessions()
      const first = (await notify(provider, signed(SESSION)))!
      expect(first.readAgainBy).toBeUndefined()
      const repeated = (await notify(provider, signed(SESSION)))!
      expect(service.reads).toEqual(["pay_2"])
      expect(Date.parse(repeated.readAgainBy!)).toBe(Date.parse(first.readAt!) + 30_000)
    })

    it("reads a COMPLETED payment again for a notification once its kept read is statusCacheSeconds old (money after capture)", async () => {
      const { provider, service, ledger } = await twoSessions()
      await notify(provider, signed(SESSION))
      const kept = ledger.row("pay_2").last_read!
      ledger.row("pay_2").last_read = { ...kept, readAt: new Date(Date.now() - 31_000).toISOString() }
      await notify(provider, signed(SESSION))
      expect(service.reads).toEqual(["pay_2", "pay_2"])
    })

    it("answers a good token for a session without payments with nothing", async () => {
      const { provider, service } = await twoSessions()
      expect(await notify(provider, signed("payses_empty"))).toBeNull()
      expect(service.reads).toEqual([])
    })

    it("verifies the token of the URL the service was given", async () => {
      const { provider, service } = await twoSessions()
      const token = service.created[0].webhook!.url.split("/").pop()
      const result = await notify(provider, webhookPayload(token!, {}))
      expect(result?.paymentId).toBe("pay_2")
    })

    it.each<[string, unknown]>([
      [
        "a tampered signature",
        `${SESSION}.${tokenFor(SESSION)
          .split(".")[1]
          .replace(/^./, (c) => (c === "A" ? "B" : "A"))}`,
      ],
      ["a token of another session's signature", `payses_02.${tokenFor(SESSION).split(".")[1]}`],
      ["a token signed with another secret", tokenFor(SESSION, { ...OPTIONS, apiKey: "sk_live_another_shop" })],
      ["no signature", SESSION],
      ["an empty token", ""],
    ])("refuses %s as UNAUTHORIZED, reading nothing", async (_, token) => {
      const { provider, service, ledger } = await twoSessions()
      const lookups = ledger.lookups
      await expectRefusal(
        notify(provider, webhookPayload(token as string, { paymentId: "pay_1" })),
        UNAUTHORIZED,
        "Invalid webhook token."
      )
      expect(service.reads).toEqual([])
      expect(ledger.lookups).toBe(lookups)
    })

    it("signs with webhookSecret when set; a token from the API key, minted before it was set, still verifies (no ledger says its payments are no longer watched)", async () => {
      const secret = { webhookSecret: "whsec_unit_long_enough_secret" }
      const { provider, service } = await started(secret)
      service.reports("pay_1", REPORTS.pending)
      const good = webhookPayload(tokenFor(SESSION, { ...OPTIONS, ...secret }), {})
      expect((await notify(provider, good))?.assessment?.outcome).toBe("pending")
      expect((await notify(provider, signed(SESSION)))?.assessment?.outcome).toBe("pending")
      const other = webhookPayload(tokenFor(SESSION, { ...OPTIONS, webhookSecret: "whsec_never_configured_here" }), {})
      await expectRefusal(notify(provider, other), UNAUTHORIZED, "Invalid webhook token.")
    })

    it("verifies tokens minted with an accepted older secret, and not after it is dropped", async () => {
      const rotated = {
        webhookSecret: "whsec_the_new_secret_here",
        acceptedWebhookSecrets: ["whsec_the_old_secret_here"],
      }
      const { provider, service } = await started(rotated)
      service.reports("pay_1", REPORTS.pending)
      const old = webhookPayload(tokenFor(SESSION, { ...OPTIONS, webhookSecret: "whsec_the_old_secret_here" }), {})
      expect((await notify(provider, old))?.assessment?.outcome).toBe("pending")
      const dropped = await started({ webhookSecret: "whsec_the_new_secret_here" })
      dropped.service.reports("pay_1", REPORTS.pending)
      await expectRefusal(notify(dropped.provider, old), UNAUTHORIZED, "Invalid webhook token.")
    })

    it("maps a ledger failure while finding the payment", async () => {
      const { provider, ledger } = await twoSessions()
      ledger.failure = new Error("connection terminated")
      await expectRefusal(
        notify(provider, signed(SESSION)),
        UNEXPECTED_STATE,
        "Could not read the crypto payment ledger"
      )
    })
  })

  describe("a body on Medusa's /hooks/payment route", () => {
    it.each<[string, Record<string, unknown>]>([
      ["paymentId", { paymentId: "pay_1" }],
      ["payment_id", { payment_id: "pay_1", status: "COMPLETED" }],
      ["data.paymentId", { data: { paymentId: "pay_1", status: "COMPLETED" } }],
      ["fields of a status report", { op: "report", paymentId: "pay_1", freshness: "fresh" }],
    ])(
      "naming a ledger payment by %s asks reconciliation to read it soon (never within a reconcile interval of its last read), reading nothing now",
      async (_, body) => {
        const { provider, service, ledger, logged } = await started()
        expect(await provider.getWebhookActionAndData(webhook(body))).toEqual({ action: PaymentActions.NOT_SUPPORTED })
        expect(ledger.soon).toEqual(["pay_1"])
        expect(ledger.soonFloors).toEqual([60])
        expect(service.reads).toEqual([])
        expect(logged("debug")).toContainEqual(expect.stringContaining("notification for pay_1 on /hooks/payment"))
      }
    )

    it("treats the plugin's webhook token in a header as a plain hint: core can never act on it", async () => {
      const { provider, service, ledger } = await started()
      service.reports("pay_1", REPORTS.paid)
      const result = await provider.getWebhookActionAndData(
        webhook({ paymentId: "pay_1" }, { "x-crypto-webhook-token": tokenFor(SESSION) })
      )
      expect(result).toEqual({ action: PaymentActions.NOT_SUPPORTED })
      expect(service.reads).toEqual([])
      expect(ledger.soon).toEqual(["pay_1"])
    })

    it("remembers an unknown payment id, so a flood of it costs one ledger lookup", async () => {
      const { provider, ledger } = await started()
      for (let i = 0; i < 5; i++) {
        expect(await provider.getWebhookActionAndData(webhook({ paymentId: "pay_999" }))).toEqual({
          action: PaymentActions.NOT_SUPPORTED,
        })
      }
      expect(ledger.lookups).toBe(1)
      expect(ledger.soon).toEqual([])
    })

    it.each<[string, Record<string, unknown>]>([
      ["no body", {}],
      ["an id that is not a string", { paymentId: 42 }],
      ["an id with a path in it", { paymentId: "../pay_1" }],
      ["an id too long", { paymentId: "p".repeat(129) }],
      ["an empty id", { paymentId: "" }],
    ])("ignores %s without a lookup", async (_, body) => {
      const { provider, ledger } = await started()
      const result = await provider.getWebhookActionAndData(webhook(body))
      expect(result).toEqual({ action: PaymentActions.NOT_SUPPORTED })
      expect(ledger.lookups).toBe(0)
    })

    it("maps a ledger failure", async () => {
      const { provider, ledger } = await started()
      ledger.failure = new Error("connection terminated")
      await expectRefusal(
        provider.getWebhookActionAndData(webhook({ paymentId: "pay_1" })),
        UNEXPECTED_STATE,
        "Could not read the crypto payment ledger"
      )
    })
  })
})

describe("the code of every error a customer can meet", () => {
  const [, AFTER] = PLACE_ORDER
  const refusedWith = (call: Promise<unknown>) =>
    call.then(
      () => undefined,
      (error: MedusaError) => error.code
    )
  const initiate = (options: Partial<CryptoOptionsInput>, amount: number, currency_code: string, data = {}) =>
    setup(options).provider.initiatePayment({ amount, currency_code, data: { session_id: SESSION, ...data } })

  it.each<[string, string, () => Promise<unknown>]>([
    [
      "no session id",
      "crypto.no_session",
      () => setup().provider.initiatePayment({ amount: 25, currency_code: "usd", data: {} }),
    ],
    ["an unknown coin", "crypto.unknown_coin", () => initiate({}, 25, "usd", { currency: "DOGE" })],
    ["no coin in payment mode", "crypto.coin_required", () => initiate({ mode: "payment" }, 25, "usd")],
    ["a EUR cart, conversion off", "crypto.currency_not_accepted", () => initiate({ exchangeRates: false }, 25, "eur")],
    [
      "a GBP cart, no fixed rate for it",
      "crypto.currency_not_priced",
      () => initiate({ exchangeRates: { source: "fixed", rates: { EUR: "1.0842" } } }, 25, "gbp"),
    ],
    ["nothing to pay", "crypto.nothing_to_pay", () => initiate({}, 0, "usd")],
    [
      "a session without a payment",
      "crypto.no_payment",
      async () =>
        (await started()).provider.updatePayment({
          amount: 30,
          currency_code: "usd",
          data: { session_id: "payses_other" },
        }),
    ],
  ])("%s: %s", async (_, code, call) => {
    expect(await refusedWith(call())).toBe(code)
  })

  it.each<[string, string, Error]>([
    ["a timeout", "crypto.service_unreachable", apiError("timeout")],
    ["an answer off the spec", "crypto.service_bad_answer", apiError("invalid_response")],
    ["a refused request", "crypto.request_refused", apiError("http", 400, { amount: "too small" })],
    ["a request the client refused", "crypto.request_invalid", apiError("invalid_request")],
    ["a refused key", "crypto.service_access_refused", apiError("http", 401)],
    ["an unknown payment", "crypto.payment_unknown", apiError("http", 404)],
    ["the rate limit", "crypto.service_busy", apiError("http", 429)],
    ["a server error", "crypto.service_error", apiError("http", 502)],
    ["a bug", "crypto.unexpected_error", new TypeError("x is undefined")],
  ])("the service failing with %s: %s", async (_, code, failure) => {
    const setUp = setup()
    setUp.service.failure = failure
    expect(await refusedWith(start(setUp))).toBe(code)
  })

  it("a ledger that cannot keep the payment: crypto.try_again", async () => {
    const setUp = setup()
    setUp.ledger.failure = new Error("connection terminated")
    expect(await refusedWith(start(setUp, "BTC"))).toBe("crypto.try_again")
  })

  it.each<[string, string, Partial<StatusRecord>]>([
    ["expired", "crypto.payment_expired", REPORTS.expired],
    ["failed", "crypto.payment_failed", REPORTS.failed],
    ["pending", "crypto.payment_unconfirmed", REPORTS.pending],
    ["short", "crypto.payment_partly_received", { currentBalance: "0.0001" }],
  ])("completing the cart of a payment %s (after_payment): %s", async (_, code, report) => {
    const { provider, service, data } = await started({ placeOrder: AFTER })
    service.reports("pay_1", report)
    expect(await refusedWith(provider.authorizePayment({ data }))).toBe(code)
  })

  it("completing the cart of an invoice without a coin (after_payment): crypto.payment_not_received", async () => {
    const setUp = setup({ placeOrder: AFTER })
    const data = await start(setUp)
    setUp.service.reports("inv_1", { currency: null, requiredAmount: undefined })
    expect(await refusedWith(setUp.provider.authorizePayment({ data }))).toBe("crypto.payment_not_received")
  })

  it("capturing a payment not paid yet: crypto.payment_not_capturable", async () => {
    const { provider, service, data } = await started()
    service.reports("pay_1", REPORTS.pending)
    expect(await refusedWith(provider.capturePayment({ data }))).toBe("crypto.payment_not_capturable")
  })
})

describe("the service client's line per call", () => {
  let server: http.Server
  let baseUrl: string
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume()
      req.on("end", () =>
        res.end(
          JSON.stringify({
            success: true,
            data: {
              paymentId: "pay_1",
              amount: COIN_AMOUNT.BTC,
              currency: "BTC",
              address: "bc1qunit",
              invoiceUrl: "https://pay.example.test/pay/pay_1",
              qrCode: `btc:bc1qunit?amount=${BTC_DUE}`,
              expiresAt: EXPIRES_AT,
            },
          })
        )
      )
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  it.each([
    ["debug", 1],
    ["info", 0],
  ])("reaches a shop logging at %s %i time(s) a call", async (level, count) => {
    const lines: LogLine[] = []
    const logger = { ...memoryLogger(lines), shouldLog: (wanted: string) => wanted !== "debug" || level === "debug" }
    const provider = new CryptoPaymentProviderService(
      { logger: logger as unknown as Logger, cryptoLedger: new MemoryLedger() },
      { ...OPTIONS, baseUrl }
    )

    const { data } = await provider.initiatePayment({
      amount: 25,
      currency_code: "usd",
      data: { session_id: SESSION, currency: "BTC" },
    })

    expect(data?.paymentId).toBe("pay_1")
    const calls = lines.filter(([, line]) => line.includes("crypto service POST /v1/create_payment → 200"))
    expect(calls).toHaveLength(count)
    expect(calls.every(([at]) => at === "debug")).toBe(true)
  })
})

describe("every coin accounted for (issue 32)", () => {
  const remainderOf = async (setUp: Setup) => (await setUp.provider.core.remainder("pay_1"))!

  it("1. a remainder on unconfirmed coins: refused until the first payment's coins are confirmed, read afresh", async () => {
    const setUp = await started()
    const { provider, service, ledger } = setUp
    // a kept EXPIRED read says confirmed; the service now says the coins have 1 confirmation
    service.reports("pay_1", { status: "EXPIRED", currentBalance: "0.0003", confirmations: 3 })
    await provider.core.report("pay_1", "fresh")
    service.reports("pay_1", { status: "EXPIRED", currentBalance: "0.0003", confirmations: 1 })
    const reads = service.reads.length
    await expectRefusal(provider.core.remainder("pay_1"), NOT_ALLOWED, "not confirmed yet (1 of 3 confirmations)")
    expect(service.reads.length).toBe(reads + 1)
    expect(service.created).toHaveLength(1)
    expect(ledger.rows).toHaveLength(1)
  })

  it("1. the capture with a remainder re-reads the first payment: both confirmed and covering, else not paid", async () => {
    const setUp = await started()
    const { provider, service, data } = setUp
    service.reports("pay_1", { status: "EXPIRED", currentBalance: "0.0003", confirmations: 3 })
    expect(await remainderOf(setUp)).toMatchObject({ paymentId: "pay_2", created: true })
    // the remainder is paid; the first payment's coins were spent elsewhere meanwhile
    service.reports("pay_2", {
      status: "COMPLETED",
      currentBalance: "0.00008462",
      confirmations: 3,
      requiredAmount: "0.00008462",
    })
    service.reports("pay_1", { status: "EXPIRED", currentBalance: "0.0001", confirmations: 3 })
    expect((await provider.authorizePayment({ data })).status).toBe(PaymentSessionStatus.PENDING_AUTHORIZATION)
    // unconfirmed again (a reorg): still not paid
    service.reports("pay_1", { status: "EXPIRED", currentBalance: "0.0003", confirmations: 2 })
    expect((await provider.authorizePayment({ data })).status).toBe(PaymentSessionStatus.PENDING_AUTHORIZATION)
    // both confirmed and covering: the session is paid in full
    service.reports("pay_1", { status: "EXPIRED", currentBalance: "0.0003", confirmations: 3 })
    const paid = await provider.authorizePayment({ data })
    expect(paid.status).toBe(PaymentSessionStatus.CAPTURED)
    expect(paid.data).toMatchObject({ receivedAmount: "0.00038462", requiredAmount: "0.00038462" })
    // each authorize read the first payment again
    expect(service.reads.filter((id) => id === "pay_1").length).toBeGreaterThanOrEqual(4)
  })

  it("3. EXPIRED with the full amount confirmed: paid under latePayments fulfil inside the window, expired otherwise", async () => {
    const full = { status: "EXPIRED" as const, currentBalance: BTC_DUE, confirmations: 3 }
    /** A BTC payment that expired a minute ago: its late-payment window (24 h) is open. */
    const justExpired = async (latePayments: "flag" | "fulfil") => {
      const setUp = setup({ latePayments })
      setUp.service.expiresAt = new Date(Date.now() - 60_000).toISOString()
      return { ...setUp, data: await start(setUp, "BTC") }
    }
    const fulfil = await justExpired("fulfil")
    fulfil.service.reports("pay_1", full)
    expect((await fulfil.provider.authorizePayment({ data: fulfil.data })).status).toBe(PaymentSessionStatus.CAPTURED)
    // not confirmed yet: not paid
    const confirming = await justExpired("fulfil")
    confirming.service.reports("pay_1", { ...full, confirmations: 1 })
    await expectRefusal(confirming.provider.authorizePayment({ data: confirming.data }), NOT_ALLOWED)
    const flag = await justExpired("flag")
    flag.service.reports("pay_1", full)
    await expectRefusal(flag.provider.authorizePayment({ data: flag.data }), NOT_ALLOWED, "expired")
    // the window over (expired days ago): not taken either
    const old = await started({ latePayments: "fulfil" })
    old.service.reports("pay_1", full)
    await expectRefusal(old.provider.authorizePayment({ data: old.data }), NOT_ALLOWED, "expired")
  })

  it("6. a refund at the first payment's rate after a remainder, capped at what arrived", async () => {
    const setUp = await started({ refunds: "manual" })
    const { provider, service, ledger, data } = setUp
    service.reports("pay_1", { status: "EXPIRED", currentBalance: "0.0003", confirmations: 3 })
    await remainderOf(setUp)
    service.reports("pay_2", {
      status: "COMPLETED",
      currentBalance: "0.00008462",
      confirmations: 3,
      requiredAmount: "0.00008462",
    })
    await provider.core.report("pay_2", "fresh")
    ledger.row("pay_2").capture_session_id = SESSION
    ledger.row("pay_1").received_amount = "0.00030000"
    ledger.row("pay_2").received_amount = "0.00008462"
    ledger.row("pay_1").required_amount = "0.00038462"
    // 10 USD of 25 at the first payment's rate: 0.00038462 × 10 / 25, on the first payment
    await provider.refundPayment({ amount: 10, data, context: { idempotency_key: "ref_1" } } as never)
    expect(ledger.refunds).toEqual([
      expect.objectContaining({ payment_id: "pay_1", coin_amount: "0.00015384", base_amount: "10.00" }),
    ])
    // the rest in full: capped at what arrived and was not refunded yet (0.00038462 − 0.00015384)
    await provider.refundPayment({ amount: 25, data, context: { idempotency_key: "ref_2" } } as never)
    expect(ledger.refunds[1]).toMatchObject({ payment_id: "pay_1", coin_amount: "0.00023078" })
  })

  it("6. an accepted-short payment refunded in full owes what arrived, not what was required", async () => {
    const { provider, ledger, data } = await started({ refunds: "manual" })
    ledger.row("pay_1").received_amount = "0.00038000"
    ledger.row("pay_1").required_amount = "0.00038462"
    await provider.refundPayment({ amount: 25, data, context: { idempotency_key: "ref_1" } } as never)
    expect(ledger.refunds).toEqual([expect.objectContaining({ coin_amount: "0.00038000", base_amount: "25.00" })])
  })
})

describe("a checkout's remainders, at any depth, priced at its first payment (issue 59)", () => {
  const FIXED = { source: "fixed", rates: { EUR: "1.0842" } } as const
  const { CAPTURED, PENDING_AUTHORIZATION } = PaymentSessionStatus

  /** A session of `amount` EUR paid in `coin`, its payment asking `coins` (pay_1). */
  async function eurPayment(amount: number, coin: Coin, coins: string, options: Partial<CryptoOptionsInput> = {}) {
    const setUp = setup({ exchangeRates: FIXED, ...options })
    setUp.service.amounts.push(coins)
    const { data } = await setUp.provider.initiatePayment({
      amount,
      currency_code: "eur",
      data: { session_id: SESSION, currency: coin },
    })
    return { ...setUp, data: data! }
  }

  /** The service's read of a payment, and the ledger's row as a reconcile run records it. */
  function reads(setUp: Setup, paymentId: string, report: Partial<StatusRecord>) {
    setUp.service.reports(paymentId, report)
    Object.assign(setUp.ledger.row(paymentId), {
      status: report.status,
      received_amount: report.currentBalance,
      required_amount: report.requiredAmount,
    })
  }

  /**
   * F asked 0.01 BTC for 100 EUR and got 0.004; R1 asked the 0.006 left (60 EUR) and got 0.002; both expired
   * with their coins confirmed. Under a 1 % tolerance R1 is read with F when its remainder is requested.
   */
  async function twiceShort() {
    const setUp = await eurPayment(100, "BTC", "0.01", { underpaymentTolerancePercent: 1 })
    const { provider, service, ledger } = setUp
    reads(setUp, "pay_1", { status: "EXPIRED", currentBalance: "0.004", requiredAmount: "0.01", confirmations: 3 })
    service.amounts.push("0.006")
    expect(await provider.core.remainder("pay_1")).toMatchObject({ paymentId: "pay_2", created: true })
    expect(ledger.row("pay_2")).toMatchObject({ remainder_of: "pay_1", base_amount: "60.00", base_currency: "EUR" })
    reads(setUp, "pay_2", { status: "EXPIRED", currentBalance: "0.002", requiredAmount: "0.006", confirmations: 3 })
    return setUp
  }

  it("6. the remainder of a remainder asks F's coins less all that arrived, its store amount at F's rate: 0.004 BTC is 40.00 EUR", async () => {
    const { provider, service, ledger } = await twiceShort()
    service.amounts.push("0.004")
    expect(await provider.core.remainder("pay_2")).toMatchObject({ paymentId: "pay_3", created: true })
    expect(service.created[2].input).toMatchObject({ amount: "0.00400000", amountCurrency: "BTC", currency: "BTC" })
    // F's rate: 0.01 BTC for 100.00 EUR (R1's own 0.006 for 60.00 is the same; F's required for R1's 60.00 is not)
    expect(ledger.row("pay_3")).toMatchObject({ remainder_of: "pay_2", base_amount: "40.00", base_currency: "EUR" })
  })

  it("3. Medusa's updatePaymentSession with the session's amount on a remainder of a remainder creates nothing, open or expired", async () => {
    const setUp = await twiceShort()
    const { provider, service, data } = setUp
    service.amounts.push("0.004")
    await provider.core.remainder("pay_2")
    // the remainder route's reopen, then closePaymentSessionStep once it expired: the session's 100 EUR each time
    expect(await provider.updatePayment({ amount: 100, currency_code: "eur", data })).toEqual({ data })
    reads(setUp, "pay_3", { status: "EXPIRED", currentBalance: "0", requiredAmount: "0.004" })
    expect(await provider.updatePayment({ amount: 100, currency_code: "eur", data })).toEqual({ data })
    expect(service.created).toHaveLength(3)
    // a new cart total still replaces it, with a payment for the whole of it
    const out = await provider.updatePayment({ amount: 120, currency_code: "eur", data })
    expect(out.data).toMatchObject({ paymentId: "pay_4", baseAmount: "120.00" })
  })

  /** F asked 49.883721 USDT_ERC20 for 46.00 EUR and got 20; its remainder asked the 29.883721 left in USDT. */
  async function usdtShort(options: Partial<CryptoOptionsInput> = {}) {
    const setUp = await eurPayment(46, "USDT_ERC20", "49.883721", options)
    const { provider, service, ledger } = setUp
    const confirmed = { confirmations: 12, currency: "USDT_ERC20" as const }
    reads(setUp, "pay_1", { status: "EXPIRED", currentBalance: "20", requiredAmount: "49.883721", ...confirmed })
    return {
      ...setUp,
      confirmed,
      /** The remainder is asked, the service answers `asked`, and it is paid in full: COMPLETED. */
      async paidAsAsked(asked: string) {
        service.amounts.push(asked)
        expect(await provider.core.remainder("pay_1")).toMatchObject({ paymentId: "pay_2", created: true })
        expect(service.created[1].input).toMatchObject({ amount: "29.883721", amountCurrency: "USDT" })
        expect(ledger.row("pay_2").base_amount).toBe("27.55")
        const done = { status: "COMPLETED" as const, currentBalance: asked, requiredAmount: asked, ...confirmed }
        reads(setUp, "pay_2", done)
      },
    }
  }

  it("4. a remainder the service asked at its own 2 places (29.88 of 29.883721) and paid in full completes the checkout", async () => {
    const setUp = await usdtShort()
    await setUp.paidAsAsked("29.88")
    const paid = await setUp.provider.authorizePayment({ data: setUp.data })
    expect(paid.status).toBe(CAPTURED)
    expect(paid.data).toMatchObject({ receivedAmount: "49.880000", requiredAmount: "49.883721" })
  })

  it("4. a remainder asked 29.868787 (USDT priced as USD) and paid in full: flagged with both figures, and the rest can be requested", async () => {
    const setUp = await usdtShort()
    const { provider, service, ledger, data, confirmed } = setUp
    await setUp.paidAsAsked("29.868787")
    const { assessment } = (await provider.core.report("pay_2", "fresh"))!
    expect(assessment).toMatchObject({
      outcome: "mismatch",
      remainderShort: { asked: "29.868787", shortfall: "29.883721", missing: "0.014934" },
    })
    expect(assessment!.reason).toContain(
      "the remainder asked 29.868787 USDT_ERC20 where 29.883721 USDT_ERC20 was short"
    )
    expect((await provider.authorizePayment({ data })).status).toBe(PENDING_AUTHORIZATION)
    // the admin requests the rest of the checkout from the remainder: 0.014934 at F's rate
    service.amounts.push("0.014934")
    expect(await provider.core.remainder("pay_2")).toMatchObject({ paymentId: "pay_3", created: true })
    expect(service.created[2].input).toMatchObject({ amount: "0.014934", amountCurrency: "USDT" })
    expect(ledger.row("pay_3")).toMatchObject({ remainder_of: "pay_2", base_amount: "0.01" })
    reads(setUp, "pay_3", { status: "COMPLETED", currentBalance: "0.014934", requiredAmount: "0.014934", ...confirmed })
    expect((await provider.authorizePayment({ data })).status).toBe(CAPTURED)
  })

  it("4. the same remainder within a 0.03 % underpayment tolerance of F's coins is captured, accepted short", async () => {
    const setUp = await usdtShort({ underpaymentTolerancePercent: 0.03 })
    await setUp.paidAsAsked("29.868787")
    const { assessment } = (await setUp.provider.core.report("pay_2", "fresh"))!
    expect(assessment).toMatchObject({ outcome: "paid", short: { shortfall: "0.014934", tolerancePercent: 0.03 } })
    expect((await setUp.provider.authorizePayment({ data: setUp.data })).status).toBe(CAPTURED)
  })
})
