import { MedusaError } from "@medusajs/framework/utils"
import type { InitiatePaymentInput } from "@medusajs/framework/types"
import type { CryptoApiClient } from "../../../lib/crypto-api/client"
import type { ProviderSecrets } from "./secrets"
import { CryptoApiError } from "../../../lib/crypto-api/errors"
import {
  AmountCurrency,
  amountCurrenciesFor,
  Coin,
  EXPIRATION_MINUTES,
  INVOICE_AMOUNT_CURRENCIES,
  isCoin,
} from "../../../lib/crypto-api/constants"
import type { RemainderAnswer } from "./types"
import type { PluginLog } from "../../../lib/runtime/log"
import { cryptoError } from "../../../lib/domain/customer-errors"
import { coinAmountText, storeAmount, storeDecimals, toAmountCurrency } from "../../../lib/domain/money"
import { usdAmountFor } from "../../../lib/domain/exchange-rates/conversion"
import { toUnits } from "../../../lib/domain/decimal"
import { isZero } from "../../../lib/domain/owed"
import { checkoutPaymentOf, remainderAskOf } from "../../../lib/domain/checkout-payment"
import { signWebhookToken, webhookUrl } from "../../../lib/domain/webhook-token"
import { walletUriOf } from "../../../lib/domain/wallet-uri"
import { addressForCoin } from "../../../lib/domain/evm-address"
import type { PaymentAssessor } from "./payment-assessor"
import { toMedusaError } from "./errors"
import type { TryLedger } from "./try-ledger"
import type { LedgerRow, OpenedPayment, PaymentExchange } from "../ledger"
import type { CoreLedger } from "./payment-core"
import type { ExchangeRates } from "./exchange-rates"
import type { CryptoOptions } from "./options"
import type { CryptoSessionData } from "./session-data"

/**
 * What to ask the service for: the amount in its amountCurrency (exact decimal text), and the base
 * amount it stands for (the store amount, in the store currency), with how it was converted if it was.
 */
type Ask = {
  amount: string
  amountCurrency: AmountCurrency
  baseAmount: string
  baseCurrency: string
  exchange?: PaymentExchange
}

type Dependencies = {
  options: CryptoOptions
  client: Pick<CryptoApiClient, "createInvoice" | "createPayment">
  ledger: Pick<CoreLedger, "open" | "remainderOf" | "checkoutOf">
  secrets: Pick<ProviderSecrets, "mintingKey">
  log: PluginLog
  assessor: Pick<PaymentAssessor, "assessRow">
  tryLedger: TryLedger
  rates: Pick<ExchangeRates, "rateFor" | "enabled">
}

/**
 * Creating at the service: the invoice or payment of a session (or the remainder of a short one),
 * with the session's webhook URL, written to the ledger before anyone is answered.
 */
export class PaymentCreator {
  constructor(private readonly deps: Dependencies) {}

  /**
   * `sessionInput`: the data Medusa gave a session it is creating; Medusa saves it merged with the answer,
   * so the ledger writes that merged data on the session in the same statement.
   */
  async createAtService(
    sessionId: string,
    medusaAmount: InitiatePaymentInput["amount"],
    currencyCode: string,
    coin: Coin | undefined,
    sessionInput?: Record<string, unknown>
  ): Promise<CryptoSessionData> {
    const ask = await this.priced(medusaAmount, currencyCode, coin ? "payment" : "invoice")
    return this.create(sessionId, ask, coin, { sessionInput })
  }

  /**
   * The amount itself in a currency the service takes, else its USD price at the source's rate plus the
   * markup (docs/configuration.md, "Store currencies"). Refuses before anything is created at the service.
   */
  async priced(
    medusaAmount: InitiatePaymentInput["amount"],
    currencyCode: string,
    kind: "invoice" | "payment"
  ): Promise<Ask> {
    const currency = String(currencyCode).trim().toUpperCase()
    const allowed = amountCurrenciesFor(kind)
    const takenAsIs = allowed.includes(currency)
    // a coin the service does not take for this kind (a BTC cart's invoice), a code Medusa does not know,
    // or conversion turned off: refused
    if (
      !takenAsIs &&
      (toAmountCurrency(currency) || storeDecimals(currency) === undefined || !this.deps.rates.enabled)
    ) {
      throw cryptoError(MedusaError.Types.INVALID_DATA, "crypto.currency_not_accepted", {
        currency,
        kinds: kind === "invoice" ? "invoices" : "payments",
        accepted: allowed.join(", "),
      })
    }
    const base = storeAmount(medusaAmount, currency)
    if (toUnits(base, storeDecimals(currency) ?? 2) <= 0n) {
      throw cryptoError(MedusaError.Types.INVALID_DATA, "crypto.nothing_to_pay")
    }
    if (takenAsIs) {
      const amountCurrency = currency as AmountCurrency
      return { amount: base, amountCurrency, baseAmount: base, baseCurrency: amountCurrency }
    }
    const rate = await this.deps.rates.rateFor(currency)
    const usd = usdAmountFor(base, rate.ratio, rate.markupPercent)
    return {
      amount: usd,
      amountCurrency: "USD",
      baseAmount: base,
      baseCurrency: currency,
      exchange: {
        usd_amount: usd,
        exchange_rate: rate.rate,
        rate_source: rate.source,
        rate_url: rate.url,
        rate_published_on: rate.publishedOn,
        rate_markup_percent: rate.markupPercent,
      },
    }
  }

  /**
   * A payment for the shortfall of one that EXPIRED short, same coin, same session (docs/money.md): the
   * checkout's shortfall (its first payment's coins less what arrived on all its payments) at the first
   * payment's rate, whichever of its payments is remaindered. Also of a remainder paid as the service
   * asked that left its checkout short (remainderShort). Asking again while one is open answers that one.
   */
  async requestRemainder(row: LedgerRow): Promise<RemainderAnswer> {
    const { ledger, tryLedger } = this.deps
    const open = await tryLedger(() => ledger.remainderOf(row.payment_id), "read the crypto payment ledger")
    if (open?.status === "PENDING") return { paymentId: open.payment_id, created: false }
    // a new remainder only replaces one that expired with nothing received
    if (open && !(open.status === "EXPIRED" && isZero(open.received_amount ?? "0"))) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `The remainder of this crypto payment was already requested (${open.payment_id}, ${open.status}).`
      )
    }
    // read afresh (a kept EXPIRED read may be hours old): the shortfall is taken from coins that are there now
    const { assessment: a } = await this.deps.assessor.assessRow(row, "fresh").catch((error) => {
      throw toMedusaError(error, "read the crypto payment")
    })
    // the whole checkout, a remainder of a remainder too: what arrived on its other payments, the first one's rate
    const checkout =
      (await tryLedger(() => ledger.checkoutOf(row.payment_id), "read the crypto payment ledger")) ??
      checkoutPaymentOf([row], [], row.payment_id)!
    const shortOnItsOwn = a.outcome === "expired" && !isZero(a.own?.received ?? a.received)
    const ask = shortOnItsOwn || a.remainderShort ? remainderAskOf(checkout, row.payment_id, a) : undefined
    if (!ask) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        "Only a crypto payment that expired with part of the amount received has a remainder to request."
      )
    }
    // unconfirmed coins could still be spent elsewhere: the rest is asked only of coins the chain confirmed
    if (!a.confirmed) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `What arrived for this crypto payment is not confirmed yet (${a.confirmations} of ${a.requiredConfirmations} confirmations): request the remainder once it is.`
      )
    }
    const { rate, shortfall } = ask
    // the service takes a coin amount in BTC, ETH or LTC, and USDT for both USDT chains
    const amountCurrency: AmountCurrency = rate.coin.startsWith("USDT") ? "USDT" : (rate.coin as AmountCurrency)
    const data = await this.create(
      row.session_id,
      {
        amount: shortfall,
        amountCurrency,
        baseAmount: ask.baseAmount,
        baseCurrency: rate.baseCurrency,
      },
      rate.coin,
      { remainderOf: row.payment_id }
    )
    this.deps.log.info(
      `remainder of ${row.payment_id} requested: ${shortfall} ${rate.coin} as payment ${data.paymentId} on session ${row.session_id}`
    )
    return { paymentId: data.paymentId, created: true, sessionData: data }
  }

  /**
   * Creates at the service what `ask` says (an invoice without a coin, a payment with one), for a
   * session, with that session's webhook URL, and writes it to the ledger before answering.
   */
  private async create(
    sessionId: string,
    ask: Ask,
    coin: Coin | undefined,
    { remainderOf, sessionInput }: { remainderOf?: string; sessionInput?: Record<string, unknown> }
  ): Promise<CryptoSessionData> {
    const { options, client } = this.deps
    const kind = coin ? "payment" : "invoice"
    const { amountCurrency } = ask
    const webhook = options.backendUrl
      ? {
          field: options.webhookUrlField,
          url: webhookUrl(options.backendUrl, signWebhookToken(sessionId, await this.deps.secrets.mintingKey())),
        }
      : undefined
    const common = {
      amount: ask.amount,
      amountCurrency,
      orderId: sessionId,
      ...(options.expirationMinutes !== undefined ? { expirationMinutes: options.expirationMinutes } : {}),
    }
    const base = {
      session_id: sessionId,
      status: "PENDING" as const,
      placeOrder: options.placeOrder,
      baseAmount: ask.baseAmount,
      baseCurrency: ask.baseCurrency,
      // the storefront shows "€46.00 ≈ $49.88": the conversion is public, its url is not needed there
      ...(ask.exchange
        ? {
            exchange: {
              usdAmount: ask.exchange.usd_amount,
              rate: ask.exchange.exchange_rate,
              source: ask.exchange.rate_source,
              publishedOn: ask.exchange.rate_published_on,
              markupPercent: ask.exchange.rate_markup_percent,
            },
          }
        : {}),
    }
    let data: CryptoSessionData
    // the ledger keeps the address as the service wrote it, as its later reads write it
    let serviceAddress: string | undefined
    try {
      if (coin) {
        const payment = await client.createPayment({ ...common, currency: coin }, webhook)
        const cryptoAmount = coinAmountText(payment.amount, payment.currency)
        const walletUri = walletUriOf({
          status: "PENDING",
          coin: payment.currency,
          address: payment.address,
          required: cryptoAmount,
        })
        serviceAddress = payment.address
        data = {
          ...base,
          paymentId: payment.paymentId,
          kind: "payment",
          invoiceUrl: payment.invoiceUrl,
          expiresAt: payment.expiresAt,
          // the exact amount to send; `amount` is its number, kept one release for storefronts that read it
          cryptoAmount,
          amount: Number(payment.amount),
          currency: payment.currency,
          address: addressForCoin(payment.currency, payment.address),
          qrCode: payment.qrCode,
          ...(walletUri ? { walletUri } : {}),
        }
      } else {
        // priced() allowed only USD/USDT for an invoice (and the client checks it again)
        const invoice = await client.createInvoice(
          { ...common, amountCurrency: amountCurrency as (typeof INVOICE_AMOUNT_CURRENCIES)[number] },
          webhook
        )
        checkBaseAmount(invoice, ask)
        const quotes: Record<string, string> = {}
        for (const [rateCoin, rate] of Object.entries(invoice.conversionRates ?? {})) {
          if (isCoin(rateCoin)) quotes[rateCoin] = coinAmountText(rate.cryptoAmount, rateCoin)
        }
        data = {
          ...base,
          paymentId: invoice.paymentId,
          kind: "invoice",
          invoiceUrl: invoice.invoiceUrl,
          expiresAt: invoice.expiresAt,
          quotes,
        }
      }
    } catch (error) {
      this.logFailure(`create a crypto ${kind} for session ${sessionId}`, error)
      throw toMedusaError(error, `start the crypto ${kind}`)
    }
    await this.deps.tryLedger(
      () =>
        this.deps.ledger.open(
          {
            ...this.ledgerEntryOf(data, ask.exchange, serviceAddress),
            ...(remainderOf ? { remainder_of: remainderOf } : {}),
          },
          // what Medusa's createPaymentSession saves: the session's input, then the answer
          sessionInput ? { ...sessionInput, ...data } : undefined
        ),
      `record the crypto ${kind} ${data.paymentId}`
    )
    return data
  }

  private ledgerEntryOf(
    data: CryptoSessionData,
    exchange: PaymentExchange | undefined,
    serviceAddress: string | undefined
  ): OpenedPayment {
    const { options } = this.deps
    const now = Date.now()
    const expiresAt = Date.parse(data.expiresAt)
    const windowEnd =
      (Number.isFinite(expiresAt) ? expiresAt : now + EXPIRATION_MINUTES.max * 60_000) +
      options.lateWindowHours * 3_600_000
    return {
      payment_id: data.paymentId,
      session_id: data.session_id,
      kind: data.kind,
      base_amount: data.baseAmount,
      base_currency: data.baseCurrency,
      ...(data.kind === "payment" && data.cryptoAmount !== undefined
        ? {
            crypto_amount: data.cryptoAmount,
            coin: data.currency,
            address: serviceAddress,
            qr_code: data.qrCode,
          }
        : {}),
      ...(data.quotes ? { quotes: data.quotes } : {}),
      ...(exchange ? { exchange } : {}),
      invoice_url: data.invoiceUrl,
      // an expiry the service wrote in another form is kept out of the ledger, not a reason to fail the checkout
      expires_at: Number.isFinite(expiresAt) ? new Date(expiresAt).toISOString() : null,
      watch_until: new Date(windowEnd),
      next_check_at: new Date(now + options.reconcileIntervalSeconds * 1000),
    }
  }

  private logFailure(action: string, error: unknown): void {
    if (error instanceof CryptoApiError) {
      const upstream = error.info.serviceError ? `; service said: ${error.info.serviceError}` : ""
      this.deps.log.warn(`could not ${action}: ${error.message}${upstream}`)
    } else {
      this.deps.log.error(`could not ${action}: ${(error as Error)?.message}`)
    }
  }
}

/**
 * Checked once, at creation: the status record has no base amount. A different amount would price the
 * coins on another total, so the checkout is refused and the invoice left to expire. Only the amount
 * counts: USD and USDT price alike.
 */
function checkBaseAmount(
  invoice: { baseAmount: number; baseCurrency: string },
  ask: Pick<Ask, "amount" | "amountCurrency">
): void {
  const asked = toUnits(ask.amount, 2)
  const answered = Number.isFinite(invoice.baseAmount) ? toUnits(invoice.baseAmount, 2) : undefined
  if (answered === asked) return
  throw new CryptoApiError(
    "invalid_response",
    `the invoice was created for ${invoice.baseAmount} ${invoice.baseCurrency}, not the ${ask.amount} ${ask.amountCurrency} asked`,
    { method: "POST", path: "/v1/create_invoice", maybeProcessed: true }
  )
}
