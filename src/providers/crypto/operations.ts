import { MedusaError, PaymentActions } from "@medusajs/framework/utils"
import type { ProviderWebhookPayload, WebhookActionResult } from "@medusajs/framework/types"
import type { CryptoApiClient } from "../../lib/crypto-api/client"
import { CryptoApiError } from "../../lib/crypto-api/errors"
import { ExpiringSet } from "../../lib/runtime/expiring-set"
import {
  Answer,
  Operation,
  OperationName,
  packAnswer,
  PaymentReport,
  unpackOperation,
} from "../../lib/provider-door/operations"
import type { PluginLog } from "../../lib/runtime/log"
import { providerChecks, webhookSecretCheck } from "../../lib/setup-health/provider-checks"
import { ratesCheck } from "../../lib/setup-health/rates-check"
import { amountCurrenciesFor } from "../../lib/crypto-api/constants"
import type { ExchangeRates } from "./exchange-rates"
import { verifyWebhookToken } from "../../lib/domain/webhook-token"
import { verifyLegacyRefundToken } from "../../lib/domain/refund-link"
import type { PaymentJudge } from "./payment-judge"
import type { PaymentCreator } from "./creation"
import type { LedgerCall } from "./ledger-call"
import type { ProviderQueryCalls } from "../../modules/crypto-payment/provider-queries"
import type { CryptoOptions } from "./options"
import type { PolicyReads } from "./policy-reads"
import type { ProviderSecrets } from "./secrets"
import { paymentIdOf } from "../../lib/domain/notification-hint"

/** Payment ids named by notifications that are not the shop's, remembered briefly: a flood of them costs one query each. */
const UNKNOWN_ID_MEMORY_MS = 60_000

type Dependencies = {
  options: CryptoOptions
  client: Pick<CryptoApiClient, "getBalance" | "getBalances">
  ledger: Pick<ProviderQueryCalls, "byPaymentId" | "latestOfSession" | "openOfSession" | "readSoon">
  policies: PolicyReads
  secrets: ProviderSecrets
  /** A client that sends the given API key (checking one before it is saved). */
  checkClient: (apiKey: string) => Pick<CryptoApiClient, "getBalances">
  log: PluginLog
  judge: Pick<PaymentJudge, "report">
  creator: Pick<PaymentCreator, "requestRemainder">
  ledgerCall: LedgerCall
  rates: Pick<ExchangeRates, "state" | "refresh">
}

/** A handler per operation of the door: what the provider answers each (lib/provider-door/operations.ts). */
type Handlers = { [K in OperationName]: (operation: Operation<K>) => Promise<Answer<K>> }

/**
 * The provider's side of the door, and its answer to Medusa's own /hooks/payment route. Two callers,
 * told apart as Medusa's own providers tell webhooks apart:
 * - the plugin's webhook route, job, workflow and admin: branded operations that no HTTP request can
 *   pose as, each answered by its handler below;
 * - Medusa's /hooks/payment/crypto_crypto route, whose body (and headers) are only a hint: a
 *   payment of the ledger it names is read by reconciliation at its next tick, no sooner than a
 *   reconcile interval after its last read (which applies the same decision as every other path);
 *   anything else costs nothing, and the answer never makes core capture.
 */
export class ProviderOperations {
  private readonly unknownIds = new ExpiringSet(UNKNOWN_ID_MEMORY_MS)

  constructor(private readonly deps: Dependencies) {}

  async actionFor(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    const operation = unpackOperation(payload?.data)
    if (!operation) return this.answerPublicWebhook(payload?.data)
    return this.answer(operation)
  }

  private async answer<K extends OperationName>(operation: Operation<K>): Promise<WebhookActionResult> {
    const handler: (operation: Operation<K>) => Promise<Answer<K>> = this.handlers[operation.op]
    return packAnswer(operation.op, await handler(operation))
  }

  private readonly handlers: Handlers = {
    webhook: ({ token, body }) => this.tokenWebhook(token, body),
    report: async ({ paymentId, freshness }) => {
      const row = await this.readRow(paymentId)
      return row ? this.deps.judge.report(row, freshness) : null
    },
    remainder: async ({ paymentId }) => {
      const row = await this.readRow(paymentId)
      return row ? this.deps.creator.requestRemainder(row) : null
    },
    balances: async ({ currency }) =>
      currency
        ? { balance: await this.deps.client.getBalance(currency) }
        : { summary: await this.deps.client.getBalances() },
    policy: async ({ providerId, refresh }) => {
      const { policies, options, ledgerCall } = this.deps
      if (refresh) policies.forget(providerId)
      const effective = await ledgerCall(() => policies.policy(providerId), "read the crypto payment settings")
      return { defaults: policies.optionDefaults, effective, lateWindowHours: options.lateWindowHours }
    },
    health: async ({ providerId, regions }) => {
      const { options, client } = this.deps
      const [checks, rates, secrets] = await Promise.all([
        providerChecks({ providerId, ...options, client }),
        this.ratesFor(regions),
        this.deps.secrets.state(),
      ])
      checks.push(
        ratesCheck({ providerId, mode: options.mode, regions, rates }),
        webhookSecretCheck(providerId, secrets)
      )
      return { checks }
    },
    rates: async ({ action }) => {
      if (action === "refresh") await this.deps.rates.refresh()
      return { rates: await this.deps.rates.state() }
    },
    refund_link: async ({ owedId, token }) => ({
      valid: verifyLegacyRefundToken(token, owedId, await this.deps.secrets.verifyingKeys()),
    }),
    secrets: async () => ({
      secrets: await this.deps.ledgerCall(() => this.deps.secrets.state(), "read the stored secrets"),
    }),
    api_key: async ({ apiKey, currentLastFour, actorId }) =>
      this.deps.secrets.saveApiKey({ apiKey, currentLastFour, actorId }, (candidate) => this.checkApiKey(candidate)),
  }

  /** A balances read with a candidate API key, before it is saved: refused or unreachable, nothing is saved. */
  private async checkApiKey(apiKey: string): Promise<void> {
    try {
      await this.deps.checkClient(apiKey).getBalances()
    } catch (error) {
      const apiError = CryptoApiError.from(error)
      if (apiError?.kind === "http" && (apiError.status === 401 || apiError.status === 403))
        throw new MedusaError(
          MedusaError.Types.INVALID_DATA,
          `The payment service refused this API key (HTTP ${apiError.status}), so it was not saved: copy it again from the service's dashboard.`
        )
      throw new MedusaError(
        MedusaError.Types.UNEXPECTED_STATE,
        `Could not check the API key with the payment service (${apiError?.message ?? "an unexpected error"}), so it was not saved: try again.`
      )
    }
  }

  private readRow(paymentId: string) {
    const { ledger, ledgerCall } = this.deps
    return ledgerCall(() => ledger.byPaymentId(paymentId), "read the crypto payment ledger")
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
  private async tokenWebhook(token: string, body: unknown): Promise<PaymentReport | null> {
    const { options, ledger, ledgerCall } = this.deps
    const sessionId = verifyWebhookToken(token, await this.deps.secrets.verifyingKeys())
    if (!sessionId) {
      throw new MedusaError(MedusaError.Types.UNAUTHORIZED, "Invalid webhook token.")
    }
    const named = paymentIdOf(body)
    const row = await ledgerCall(async () => {
      const hinted = named ? await ledger.byPaymentId(named) : undefined
      return hinted?.session_id === sessionId ? hinted : ledger.latestOfSession(sessionId)
    }, "read the crypto payment ledger")
    if (!row) return null
    // the session's older payments (replaced by a new amount) may be what the notification is about
    await ledgerCall(
      async () =>
        ledger.readSoon(await ledger.openOfSession(sessionId, row.payment_id), options.reconcileIntervalSeconds),
      "read the crypto payment ledger"
    )
    return this.deps.judge.report(row, "webhook")
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
