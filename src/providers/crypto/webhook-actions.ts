import { MedusaError, PaymentActions } from "@medusajs/framework/utils"
import type { ProviderWebhookPayload, WebhookActionResult } from "@medusajs/framework/types"
import type { CryptoApiClient } from "../../lib/crypto-api/client"
import { ExpiringSet } from "../../lib/runtime/expiring-set"
import {
  assessmentResult,
  balancesResult,
  HealthAnswer,
  notAPaymentResult,
  PolicyAnswer,
  RatesAnswer,
  readInternalRequest,
  remainderResult,
} from "../../lib/internal-request"
import type { PluginLog } from "../../lib/runtime/log"
import { providerChecks } from "../../lib/setup-health/provider-checks"
import { ratesCheck } from "../../lib/setup-health/rates-check"
import { amountCurrenciesFor } from "../../lib/crypto-api/constants"
import type { ExchangeRates } from "./exchange-rates"
import { verifyWebhookToken } from "../../lib/domain/webhook-token"
import type { PaymentAssessor } from "./assessment"
import type { PaymentCreator } from "./creation"
import type { LedgerCall } from "./errors"
import type { ProviderLedgerCalls } from "./ledger"
import type { CryptoOptions } from "./options"
import type { PolicyReads } from "./policy-reads"
import { paymentIdOf } from "../../lib/domain/notification-hint"

/** Payment ids named by notifications that are not the shop's, remembered briefly: a flood of them costs one query each. */
const UNKNOWN_ID_MEMORY_MS = 60_000

type Dependencies = {
  options: CryptoOptions
  client: Pick<CryptoApiClient, "getBalance" | "getBalances">
  ledger: Pick<ProviderLedgerCalls, "byPaymentId" | "latestOfSession" | "openOfSession" | "readSoon">
  policies: PolicyReads
  signingKey: Buffer
  log: PluginLog
  assessor: Pick<PaymentAssessor, "assessmentAnswer">
  creator: Pick<PaymentCreator, "requestRemainder">
  ledgerCall: LedgerCall
  rates: Pick<ExchangeRates, "state" | "refresh">
}

/** The provider's answers to getWebhookActionAndData: the plugin's internal requests, and Medusa's /hooks/payment. */
export class WebhookActions {
  private readonly unknownIds = new ExpiringSet(UNKNOWN_ID_MEMORY_MS)

  constructor(private readonly deps: Dependencies) {}

  /**
   * Two callers, told apart as Medusa's own providers tell webhooks apart:
   * - the plugin's webhook route, job, workflow and admin: symbol-branded requests ("this token's
   *   notification", "assess this ledger payment", "the balances") that no HTTP request can pose as;
   * - Medusa's /hooks/payment/crypto_crypto route, whose body (and headers) are only a hint: a
   *   payment of the ledger it names is read by reconciliation at its next tick, no sooner than a
   *   reconcile interval after its last read (which applies the same decision as every other path);
   *   anything else costs nothing, and the answer never makes core capture.
   */
  async actionFor(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    const { options, client, ledger, policies, assessor, ledgerCall } = this.deps
    const internal = readInternalRequest(payload?.data)
    switch (internal?.op) {
      case "balances":
        return balancesResult(
          internal.currency
            ? { balance: await client.getBalance(internal.currency) }
            : { summary: await client.getBalances() }
        )
      case "assess": {
        const row = await ledgerCall(() => ledger.byPaymentId(internal.paymentId), "read the crypto payment ledger")
        if (!row) return { action: PaymentActions.NOT_SUPPORTED }
        return assessmentResult(await assessor.assessmentAnswer(row, internal.freshness))
      }
      case "webhook":
        return this.answerTokenWebhook(internal.token, internal.body)
      case "policy": {
        if (internal.refresh) policies.forget(internal.providerId)
        const effective = await ledgerCall(
          () => policies.policy(internal.providerId),
          "read the crypto payment settings"
        )
        return notAPaymentResult("policy", {
          defaults: policies.optionDefaults,
          effective,
          lateWindowHours: options.lateWindowHours,
        } satisfies PolicyAnswer)
      }
      case "health": {
        const [checks, rates] = await Promise.all([
          providerChecks({ providerId: internal.providerId, ...options, client }),
          this.ratesFor(internal.regions),
        ])
        const mode = options.mode
        checks.push(ratesCheck({ providerId: internal.providerId, mode, regions: internal.regions, rates }))
        return notAPaymentResult("health", { checks } satisfies HealthAnswer)
      }
      case "rates": {
        if (internal.action === "refresh") await this.deps.rates.refresh()
        return notAPaymentResult("rates", { rates: await this.deps.rates.state() } satisfies RatesAnswer)
      }
      case "remainder": {
        const row = await ledgerCall(() => ledger.byPaymentId(internal.paymentId), "read the crypto payment ledger")
        if (!row) return { action: PaymentActions.NOT_SUPPORTED }
        return remainderResult(row.session_id, await this.deps.creator.requestRemainder(row))
      }
      default:
        return this.answerPublicWebhook(payload?.data)
    }
  }

  /**
   * The rates as the health shows them: when a region's currency needs one and none is stored fresh,
   * fetched first (the first look at the health warms the rates a new EUR shop needs).
   */
  private async ratesFor(regions: Array<{ currency: string }>) {
    const taken = amountCurrenciesFor(this.deps.options.mode)
    const wanted = regions.some((r) => !taken.includes(r.currency.toUpperCase()))
    const state = await this.deps.rates.state()
    if (!wanted || state.fresh !== false) return state
    await this.deps.rates.refresh(true)
    return this.deps.rates.state()
  }

  /** The service called the URL it was given for a session: verify the token, then read the payment it is about. */
  private async answerTokenWebhook(token: string, body: unknown): Promise<WebhookActionResult> {
    const { options, ledger, ledgerCall } = this.deps
    const sessionId = verifyWebhookToken(token, this.deps.signingKey)
    if (!sessionId) {
      throw new MedusaError(MedusaError.Types.UNAUTHORIZED, "Invalid webhook token.")
    }
    const named = paymentIdOf(body)
    const row = await ledgerCall(async () => {
      const hinted = named ? await ledger.byPaymentId(named) : undefined
      return hinted?.session_id === sessionId ? hinted : ledger.latestOfSession(sessionId)
    }, "read the crypto payment ledger")
    if (!row) return { action: PaymentActions.NOT_SUPPORTED }
    // the session's older payments (replaced by a new amount) may be what the news is about
    await ledgerCall(
      async () =>
        ledger.readSoon(await ledger.openOfSession(sessionId, row.payment_id), options.reconcileIntervalSeconds),
      "read the crypto payment ledger"
    )
    return assessmentResult(await this.deps.assessor.assessmentAnswer(row, "news"))
  }

  /** A body that reached Medusa's generic route: a payment of the ledger is read at the next tick; anything else costs nothing. */
  private async answerPublicWebhook(body: unknown): Promise<WebhookActionResult> {
    const { options, ledger, ledgerCall } = this.deps
    const paymentId = paymentIdOf(body)
    if (!paymentId || this.unknownIds.has(paymentId)) return { action: PaymentActions.NOT_SUPPORTED }
    const row = await ledgerCall(() => ledger.byPaymentId(paymentId), "read the crypto payment ledger")
    if (!row) {
      this.unknownIds.add(paymentId)
      return { action: PaymentActions.NOT_SUPPORTED }
    }
    await ledgerCall(
      () => ledger.readSoon([paymentId], options.reconcileIntervalSeconds),
      "read the crypto payment ledger"
    )
    this.deps.log.debug(`notification for ${paymentId} on /hooks/payment; reconciliation reads it soon`)
    return { action: PaymentActions.NOT_SUPPORTED }
  }
}
