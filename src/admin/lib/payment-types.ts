/**
 * The admin API's shapes: the server's own types, imported type-only, so the compiler checks both sides
 * against one declaration and nothing of the server reaches the admin's bundle.
 */
import type {
  adminPaymentDetail,
  AdminCryptoPaymentView,
  EmailView,
  EventView,
  OwedView,
} from "../../api/admin/crypto/admin-payment-view"
import type { balanceView } from "../../api/admin/crypto/balances/balance-view"
import type { changeViews, settingsViews } from "../../api/admin/crypto/settings/settings-view"
import type {
  AdminCryptoAcknowledgeType,
  AdminCryptoApiKeyType,
  AdminCryptoPaymentsQueryType,
  AdminCryptoRefundBasisType,
  AdminCryptoRefundSentType,
  AdminCryptoSettingsType,
} from "../../api/admin/crypto/validators"
import type { Coin, PaymentStatus } from "../../lib/crypto-api/constants"
import type { CustomerEmailKind } from "../../lib/domain/customer-email"
import type { CryptoPaymentEventName } from "../../lib/domain/payment-events"
import type { HealthCheck, HealthLevel } from "../../lib/setup-health/checks"
import type { LedgerFlag } from "../../modules/crypto-payment/types"
import type { PaymentEmail } from "../../modules/crypto-payment/payment-emails"
import type { TimelineEntry } from "../../lib/domain/payment-record"
import type { RefundBasis } from "../../lib/domain/refund-basis"
import type { refundLinkOf } from "../../workflows/refund-links"

/** The service's payment statuses; the ledger's flags (their names are `flags.<flag>` in the plugin's texts). */
export type { LedgerFlag, PaymentStatus }

// ---- payments: GET /admin/crypto/payments, GET /admin/crypto/payments/:id and the payment actions

export type { TimelineEntry }

/** The view sends the stored timeline as it is (typed unknown[] there): its entries are the ledger's. */
type WithTimeline<View> = Omit<View, "timeline"> & { timeline: TimelineEntry[] }

export type CryptoPayment = WithTimeline<AdminCryptoPaymentView>

/** One payment with the cart (and order) it belongs to: GET /admin/crypto/payments/:id, and the actions' answer. */
export type CryptoPaymentDetail = WithTimeline<Awaited<ReturnType<typeof adminPaymentDetail>>>

/** `delivered_at` is null until the outbox delivered it; a `name` this admin does not know shows as sent. */
export type PaymentEventView = EventView

export type PaymentEmailView = EmailView

export type { CryptoPaymentEventName, CustomerEmailKind }
export type EmailStatus = PaymentEmail["status"]

export type OwedRecord = OwedView

export type RefundAddressChange = OwedRecord["address_changes"][number]

/** A record's `basis` is null until one is chosen. */
export type { Coin, RefundBasis }

/**
 * GET and POST /admin/crypto/payments/:paymentId/owed/:owedId/link: the customer's refund-address link,
 * its URL (null when the storefront's is not configured: then only its path), and when it stops working.
 */
export type RefundLink = Awaited<ReturnType<typeof refundLinkOf>>

export type RefundBasisBody = AdminCryptoRefundBasisType

export type PaymentRefund = CryptoPayment["refund"]

/** Informational: the invoice was re-priced by the service; `percent` is signed decimal text ("-3.20"). */
export type QuoteDrift = NonNullable<CryptoPayment["quote_drift"]>

export type PaymentExchange = NonNullable<CryptoPayment["exchange"]>

/**
 * GET /admin/crypto/payments: a page of the ledger, newest first, and the cursors of the pages either
 * side (opaque; null: nothing that way). No total: counting a large ledger costs more than the page.
 */
export type CryptoPaymentsPage = {
  payments: CryptoPayment[]
  limit: number
  next_cursor: string | null
  prev_cursor: string | null
}

/** `offset` is deprecated: the admin never sends it. */
export type PaymentFilters = Partial<Omit<AdminCryptoPaymentsQueryType, "offset">>

/**
 * POST /admin/crypto/payments/:id/refund-sent, as the admin sends it: the open records it showed in
 * "owed now", each with the coins it showed (a 409 when one was closed or its coins changed since), and
 * the sending's reference.
 */
export type RefundSentBody = AdminCryptoRefundSentType

/**
 * POST /admin/crypto/payments/:paymentId/owed/:owedId/payout: the refund address the admin was shown and
 * confirmed (a 409 when the customer changed it since).
 */
export type StartPayoutBody = { address: string }

// ---- balances: GET /admin/crypto/balances and /admin/crypto/balances/:currency

/** One coin's balance at the service, with its limits (their reset times only from the single-coin read). */
export type CryptoBalance = ReturnType<typeof balanceView>

// ---- settings: GET and POST /admin/crypto/settings

export type CryptoSetting = Awaited<ReturnType<typeof settingsViews>>[number]

/** One saved change of a setting; `from` and `to` are text, null when the default applied. */
export type CryptoSettingChange = Awaited<ReturnType<typeof changeViews>>[number]

export type CryptoSettings = { settings: CryptoSetting[]; changes: CryptoSettingChange[] }

export type PaymentPolicy = CryptoSetting["defaults"]
export type PaymentPolicyField = keyof PaymentPolicy

export type LatePayments = PaymentPolicy["late_payments"]

/** What the change log records: the policy's fields, held exchange rates an admin accepted, API keys saved from the admin. */
export type SettingChangeField = PaymentPolicyField | "exchange_rates" | "api_key"

/**
 * A provider's exchange rates, as the policy panel shows them. Fields that do not apply are null: "fixed"
 * has only its source, markup, rates and `fresh`; "off" only its source.
 */
export type ExchangeRates = CryptoSetting["exchange_rates"]

export type RateSource = ExchangeRates["source"]

/** USD per one unit of each currency, as exact decimal text (up to 18 significant digits): { EUR: "1.0842" }. */
export type UsdRates = ExchangeRates["rates"]

/** A currency of a held publication whose USD value moved more than the jump limit, by `percent` ("23.4"). */
export type HeldRateMove = NonNullable<ExchangeRates["held"]>["moved"][number]

/** POST /admin/crypto/settings: only the fields to change; null puts a field back to its medusa-config default. */
export type CryptoSettingUpdate = Omit<AdminCryptoSettingsType, "accept_held_rates">

/** POST /admin/crypto/settings taking the publication held for a jump (400 when none is held). */
export type AcceptHeldRates = Pick<AdminCryptoSettingsType, "provider_id"> &
  Required<Pick<AdminCryptoSettingsType, "accept_held_rates">>

/** Where a provider's API key and webhook secret come from: never a value, the key's last four characters at most. */
export type ProviderSecrets = CryptoSetting["secrets"]

export type WebhookSecretSource = ProviderSecrets["webhook_secret"]["source"]

/** POST /admin/crypto/settings/api-key: the key to save, for a provider (none: the shop's first crypto provider). */
export type SaveApiKeyBody = AdminCryptoApiKeyType

// ---- setup health: GET /admin/crypto/health

export type { HealthCheck, HealthLevel }

export type SetupHealth = { level: HealthLevel; checked_at: string; checks: HealthCheck[] }

/** POST /admin/crypto/health/acknowledge: a line's provider, and its `acknowledge` (subject and the state shown). */
export type AcknowledgeBody = AdminCryptoAcknowledgeType
