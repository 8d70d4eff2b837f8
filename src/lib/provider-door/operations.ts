import type { ProviderWebhookPayload, WebhookActionResult } from "@medusajs/framework/types"
import { MedusaError, PaymentActions } from "@medusajs/framework/utils"
import { z } from "zod"
import { COINS, type Coin } from "../crypto-api/constants"
import type { CurrencyBalance, MerchantSummary } from "../crypto-api/schemas"
import type { LatePayments } from "../domain/decision-terms"
import type { PaymentAssessment } from "../domain/payment-assessment"
import type { MerchantPolicy } from "../domain/merchant-policy"
import type { RatesState } from "../domain/exchange-rates/rates-state"
import type { HealthCheck } from "../setup-health/checks"

/**
 * Why a door: the plugin's routes, job and admin need the provider (its options, its API key, its
 * webhook secret), but Medusa 2.21 hands a provider's options to the provider alone — a route or a job
 * cannot resolve them. The one way in is the payment module's getWebhookActionAndData, which passes a
 * payload to the provider and returns what it answers. So every question the plugin asks its provider
 * is an operation below: packed into that payload, answered by the provider's table of handlers
 * (providers/crypto/operations.ts), and carried back inside Medusa's WebhookActionResult, whose action
 * stays NOT_SUPPORTED (nothing for Medusa's core to capture or authorize) and whose data holds the
 * answer, checked here before a caller sees it.
 *
 * Every operation is branded with a registered symbol that no HTTP body or header can carry, so a
 * request arriving through Medusa's public /hooks/payment route can never pose as one.
 */
const OPERATION = Symbol.for("medusa-payment-crypto.operation")
/** Where an answer rides in WebhookActionResult.data (beside the session_id and amount Medusa's type asks for). */
const ANSWER = "crypto_answer"

/**
 * How old a status a caller may use:
 * - "fresh": read the service now. The job and the admin's re-check ask because something may
 *   have changed; what they read is then shared with everyone else.
 * - "webhook": the service notified us. Read now, unless the ledger holds COMPLETED read less than
 *   statusCacheSeconds ago: a retried or duplicated notification costs no read, and money sent after
 *   the completion is still seen (the job reads it once that time has passed). Notifications that
 *   arrive while a read is under way in the process share it.
 * - "final": a final status (COMPLETED, EXPIRED, FAILED: final in the spec) the ledger holds is
 *   reused, from any process; anything else is read now. Checkout: authorize and capture.
 * - "shared": like "final", and also a pending status read less than statusCacheSeconds ago, by any
 *   process; concurrent callers in a process share one read. Storefront polls, retrieve, status.
 */
export type Freshness = "fresh" | "webhook" | "final" | "shared"
const FRESHNESS = ["fresh", "webhook", "final", "shared"] as const

/** A region the provider is enabled in, and its currency. */
export type RegionCurrency = { name: string; currency: string }

/** How the plugin reads and schedules payments: the provider's options, handed out with every report. */
export type ReconcilePolicy = {
  reconcileIntervalSeconds: number
  reconcileBatchSize: number
  lateWindowHours: number
  /** The longest a capture can spend on service reads (timeouts × attempts + Retry-After waits). */
  lockSeconds: number
  /** A re-price beyond this share of the creation quote raises the informational quote_drift flag. */
  quoteDriftAlertPercent: number
  /** The merchant's policy in force for this payment's provider (saved setting, else option). */
  underpaymentTolerancePercent?: number
  latePayments?: LatePayments
}

/** What the provider says about one payment of the ledger. */
export type PaymentReport = {
  paymentId: string
  /** The session it was created for. */
  sessionId: string
  /** The status read, judged against what was agreed; absent when the service does not know the payment (404). */
  assessment?: PaymentAssessment
  /** When the service said what the assessment judges (ISO time). */
  readAt?: string
  /** A notification answered with a kept read: the job reads the payment again by then (ISO time). */
  readAgainBy?: string
  policy: ReconcilePolicy
}

/** A remainder's payment id, and its session data when just created. */
export type RemainderAnswer = { paymentId: string; created: boolean; sessionData?: Record<string, unknown> }
/** The merchant's balances at the service: all coins, or one. */
export type BalancesAnswer = { summary?: MerchantSummary; balance?: CurrencyBalance }
/** The provider's options' policy, the one in force, and the late-payment window. */
export type PolicyAnswer = { defaults: MerchantPolicy; effective: MerchantPolicy; lateWindowHours: number }
/** The provider's own setup checks. */
export type HealthAnswer = { checks: HealthCheck[] }
/** The provider's exchange rates. */
export type RatesAnswer = { rates: RatesState }
/** Whether a refund-address token emailed before links had secrets is the owed record's. */
export type RefundLinkAnswer = { valid: boolean }
/** Where the key that mints webhook tokens comes from. */
export type MintingSource = "option" | "generated" | "api_key"

/** What the admin sees of a provider's secrets: never a value, only where each comes from. */

export type SecretsState = {
  /** CRYPTO_SECRETS_KEY is set: an API key can be saved from the admin, a webhook secret generated. */
  canStore: boolean
  apiKey: {
    source: "admin" | "option"
    lastFour: string
    savedBy: string | null
    savedAt: string | null
    /** A saved key that no longer opens (CRYPTO_SECRETS_KEY changed): medusa-config's is used. */
    unreadable: boolean
  }
  webhookSecret: {
    source: MintingSource
    /** Older secrets whose tokens still verify (the acceptedWebhookSecrets option). */
    accepted: number
    /** Tokens minted before the current secret (from the API key, or a generated one) still verify: their payments are watched. */
    legacyAccepted: boolean
  }
}

/** Where the provider's API key and webhook secret come from (never a value: the key's last four at most). */
export type SecretsAnswer = { secrets: SecretsState }
/** An API key saved from the admin: its last four, and those of the key it replaced (null: medusa-config's). */
export type ApiKeyAnswer = { lastFour: string; replaced: string | null }

/**
 * Every operation: what it asks (`ask`) and what the provider answers (`answer`). `providerId` names
 * the provider to ask; without one the gateway asks the shop's first crypto provider (rows written
 * before the ledger recorded providers), and a webhook asks each until one minted its token.
 */
export type Operations = {
  /** A notification at the plugin's webhook URL: the token from its path, the body as a hint. Null: the token is good but names no payment of the shop. */
  webhook: { ask: { token: string; body: unknown }; answer: PaymentReport | null }
  /** Read a ledger payment's status (as fresh as asked) and judge it. Null: not in the ledger. */
  report: { ask: { paymentId: string; freshness: Freshness; providerId?: string | null }; answer: PaymentReport | null }
  /** The admin asks for the remainder of a short payment that expired. Null: not in the ledger. */
  remainder: { ask: { paymentId: string; providerId?: string | null }; answer: RemainderAnswer | null }
  /** The merchant's balances at the service (all coins, or one). */
  balances: { ask: { currency?: Coin }; answer: BalancesAnswer }
  /** The policy defaults and the one in force; `refresh` drops the process's saved-setting cache. */
  policy: { ask: { providerId: string; refresh: boolean }; answer: PolicyAnswer }
  /** API key accepted, webhook URL, provider id, and whether its regions' currencies can be priced. */
  health: { ask: { providerId: string; regions: RegionCurrency[] }; answer: HealthAnswer }
  /** The exchange rates: "state" (the policy panel, the health), "refresh" (the job: fetch when due). */
  rates: { ask: { providerId: string; action: "state" | "refresh" }; answer: RatesAnswer }
  /** Whether `token` is a link emailed before links had secrets (an HMAC under the provider's webhook key). */
  refund_link: { ask: { owedId: string; token: string; providerId?: string | null }; answer: RefundLinkAnswer }
  /** Where the API key and the webhook secret come from. */
  secrets: { ask: { providerId: string }; answer: SecretsAnswer }
  /**
   * Save an API key from the admin, once the last four characters the admin typed are the key in use's
   * (null: none typed) and a balances read with the new one succeeds (the key rides in-process only).
   */
  api_key: {
    ask: { providerId: string; apiKey: string; currentLastFour: string | null; actorId: string | null }
    answer: ApiKeyAnswer
  }
}
export type OperationName = keyof Operations
export type Operation<K extends OperationName = OperationName> = { [P in K]: { op: P } & Operations[P]["ask"] }[K]
export type Answer<K extends OperationName> = Operations[K]["answer"]

const providerId = z.string().nullish()
const ASKS = {
  webhook: z.object({ op: z.literal("webhook"), token: z.string(), body: z.unknown() }),
  report: z.object({ op: z.literal("report"), paymentId: z.string(), freshness: z.enum(FRESHNESS), providerId }),
  remainder: z.object({ op: z.literal("remainder"), paymentId: z.string(), providerId }),
  balances: z.object({ op: z.literal("balances"), currency: z.enum(COINS).optional() }),
  policy: z.object({ op: z.literal("policy"), providerId: z.string(), refresh: z.boolean() }),
  health: z.object({
    op: z.literal("health"),
    providerId: z.string(),
    regions: z.array(z.object({ name: z.string(), currency: z.string() })),
  }),
  rates: z.object({ op: z.literal("rates"), providerId: z.string(), action: z.enum(["state", "refresh"]) }),
  refund_link: z.object({ op: z.literal("refund_link"), owedId: z.string(), token: z.string(), providerId }),
  secrets: z.object({ op: z.literal("secrets"), providerId: z.string() }),
  api_key: z.object({
    op: z.literal("api_key"),
    providerId: z.string(),
    apiKey: z.string(),
    currentLastFour: z.string().nullable(),
    actorId: z.string().nullable(),
  }),
} satisfies { [K in OperationName]: z.ZodType<Operation<K>> }

const report = z.object({
  paymentId: z.string(),
  sessionId: z.string(),
  assessment: z.looseObject({ outcome: z.string(), status: z.string() }).optional(),
  readAt: z.string().optional(),
  readAgainBy: z.string().optional(),
  policy: z.looseObject({
    reconcileIntervalSeconds: z.number(),
    reconcileBatchSize: z.number(),
    lateWindowHours: z.number(),
    lockSeconds: z.number(),
    quoteDriftAlertPercent: z.number(),
  }),
})
const record = z.looseObject({})
const ANSWERS = {
  webhook: report.nullable(),
  report: report.nullable(),
  remainder: z.object({ paymentId: z.string(), created: z.boolean(), sessionData: record.optional() }).nullable(),
  balances: z.object({ summary: record.optional(), balance: record.optional() }),
  policy: z.object({ defaults: record, effective: record, lateWindowHours: z.number() }),
  health: z.object({ checks: z.array(z.looseObject({ id: z.string(), level: z.string() })) }),
  rates: z.object({ rates: z.looseObject({ source: z.enum(["ecb", "fixed", "off"]) }) }),
  refund_link: z.object({ valid: z.boolean() }),
  secrets: z.object({ secrets: z.looseObject({ canStore: z.boolean() }) }),
  api_key: z.object({ lastFour: z.string(), replaced: z.string().nullable() }),
} satisfies Record<OperationName, z.ZodTypeAny>

/** The payload the gateway hands the payment module for the provider. */
export function packOperation<K extends OperationName>(operation: Operation<K>): ProviderWebhookPayload["payload"] {
  return { data: { ...operation, [OPERATION]: true }, rawData: "", headers: {} }
}

/**
 * The operation a payload carries, checked: undefined for anything not branded (Medusa's public
 * /hooks/payment); a branded payload of another shape is a bug of ours, refused as INVALID_DATA (never
 * taken for a public notification).
 */
export function unpackOperation(data: unknown): Operation | undefined {
  if (!isBranded(data)) return undefined
  const name = Object.keys(ASKS).find((k) => k === data.op)
  const parsed = name ? ASKS[name as OperationName].safeParse(data) : undefined
  if (!parsed?.success)
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `The crypto provider refused an operation it does not know (${name ?? "no name"}): ${parsed?.error.message ?? "unknown operation"}`
    )
  return parsed.data as Operation
}

function isBranded(data: unknown): data is { op?: unknown } {
  return !!data && typeof data === "object" && (data as Record<symbol, unknown>)[OPERATION] === true
}

/**
 * The provider's answer, carried back through Medusa: a NOT_SUPPORTED action (nothing for core to do)
 * with the answer in data, beside the empty session_id and amount Medusa's type asks for.
 */
export function packAnswer<K extends OperationName>(name: K, answer: Answer<K>): WebhookActionResult {
  const data = { session_id: "", amount: "0", [ANSWER]: { op: name, answer } }
  return { action: PaymentActions.NOT_SUPPORTED, data }
}

/** The answer to an operation, checked at run time: a provider that gave none, or another shape, throws. */
export function unpackAnswer<K extends OperationName>(
  name: K,
  result: WebhookActionResult,
  providerId = "crypto"
): Answer<K> {
  const carried = (result.data as Record<string, unknown> | undefined)?.[ANSWER] as
    { op?: unknown; answer?: unknown } | undefined
  const parsed = carried?.op === name ? ANSWERS[name].safeParse(carried.answer) : undefined
  if (!parsed?.success)
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `The crypto provider ${providerId} gave no ${name} answer${parsed ? `: ${parsed.error.message}` : "."}`
    )
  return carried!.answer as Answer<K>
}
