/**
 * The plugin's admin API as the admin reads it. Every shape is the server's own (its views, validators
 * and pure type files), imported type-only: the compiler checks both sides against one declaration,
 * and nothing of the server reaches the admin's bundle. Put together here, from the server's types, is
 * only what the server leaves untyped: the answers' envelopes (the routes write them inline), the
 * timeline (stored JSON: the ledger's TimelineEntry) and the change log's field names (text).
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
  AdminCryptoApiKeyType,
  AdminCryptoPaymentsQueryType,
  AdminCryptoRefundBasisType,
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

/** One read of a payment's status, as the ledger records it in the payment's timeline. */
export type { TimelineEntry }

/** The view sends the stored timeline as it is (typed unknown[] there): its entries are the ledger's. */
type WithTimeline<View> = Omit<View, "timeline"> & { timeline: TimelineEntry[] }

/** A payment as the admin API lists it: exact decimal text, flags as a list, what is owed to the customer. */
export type CryptoPayment = WithTimeline<AdminCryptoPaymentView>

/** One payment with the cart (and order) it belongs to: GET /admin/crypto/payments/:id, and the actions' answer. */
export type CryptoPaymentDetail = WithTimeline<Awaited<ReturnType<typeof adminPaymentDetail>>>

/**
 * A crypto_payment.* event recorded for a payment (only the payment's own read has them); `delivered_at`
 * is null until the outbox delivered it on Medusa's event bus. Its `name` is text: a name this admin
 * does not know shows as it was sent.
 */
export type PaymentEventView = EventView

/** A customer email of a payment (only the payment's own read has them): sent, being sent, failed or skipped, and why. */
export type PaymentEmailView = EmailView

/** The events' names, the kinds of customer email and the states of one: the server's own types. */
export type { CryptoPaymentEventName, CustomerEmailKind }
export type EmailStatus = PaymentEmail["status"]

/** One amount owed to the customer, open until marked sent, with Medusa's refund reason and note beside a refund. */
export type OwedRecord = OwedView

/** One address given for an owed record's coins (by the customer through the link, or an admin), oldest first. */
export type RefundAddressChange = OwedRecord["address_changes"][number]

/** The service's coins; the refund bases an admin may choose (a record's `basis` is null until one is chosen). */
export type { Coin, RefundBasis }

/**
 * GET and POST /admin/crypto/payments/:paymentId/owed/:owedId/link: the customer's refund-address link,
 * its URL (null when the storefront's is not configured: then only its path), and when it stops working.
 */
export type RefundLink = Awaited<ReturnType<typeof refundLinkOf>>

/** POST /admin/crypto/payments/:paymentId/owed/:owedId/basis: the basis, the coins (fixed_coins) and a fee percent. */
export type RefundBasisBody = AdminCryptoRefundBasisType

/** What is owed to the customer on a payment: every record, and the coins (and base amount) to send now. */
export type PaymentRefund = CryptoPayment["refund"]

/** Informational: the invoice was re-priced by the service; `percent` is signed decimal text ("-3.20"). */
export type QuoteDrift = NonNullable<CryptoPayment["quote_drift"]>

/**
 * How a store amount in a currency the service does not take was priced in USD: the USD asked, the rate
 * (USD per one unit of the store currency), its source, url and publication date, the markup in percent.
 */
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

/**
 * The list's query: a cursor, and filters by status, flag, coin, creation time [created_from,
 * created_to) and order (`order`: an id or a display id; `order_id`), every one optional (the server's
 * defaults apply to what is left out). `offset` is deprecated: the admin never sends it.
 */
export type PaymentFilters = Partial<Omit<AdminCryptoPaymentsQueryType, "offset">>

/**
 * POST /admin/crypto/payments/:id/refund-sent, as the admin sends it: the open records it showed in
 * "owed now" (a 409 when one was closed or its coins changed since), and the sending's reference.
 */
export type RefundSentBody = { owed_ids: string[]; reference?: string }

/**
 * POST /admin/crypto/payments/:paymentId/owed/:owedId/payout: the refund address the admin was shown and
 * confirmed (a 409 when the customer changed it since).
 */
export type StartPayoutBody = { address: string }

// ---- balances: GET /admin/crypto/balances and /admin/crypto/balances/:currency

/** One coin's balance at the service, with its limits (their reset times only from the single-coin read). */
export type CryptoBalance = ReturnType<typeof balanceView>

// ---- settings: GET and POST /admin/crypto/settings

/** One crypto provider's policy: the one in force, medusa-config's defaults, what was saved; its exchange rates. */
export type CryptoSetting = Awaited<ReturnType<typeof settingsViews>>[number]

/** One saved change of a setting; `from` and `to` are text, null when the default applied. */
export type CryptoSettingChange = Awaited<ReturnType<typeof changeViews>>[number]

/** GET /admin/crypto/settings: one setting per crypto provider, and the change log. */
export type CryptoSettings = { settings: CryptoSetting[]; changes: CryptoSettingChange[] }

/** The two settings an admin may change, as the backend judges payments with them. */
export type PaymentPolicy = CryptoSetting["defaults"]
export type PaymentPolicyField = keyof PaymentPolicy

/** What happens to money that arrives after an invoice expired (the provider's `latePayments`). */
export type LatePayments = PaymentPolicy["late_payments"]

/** What the change log records: the policy's fields, held exchange rates an admin accepted, API keys saved from the admin. */
export type SettingChangeField = PaymentPolicyField | "exchange_rates" | "api_key"

/**
 * A provider's exchange rates, as the policy panel shows them. Fields that do not apply are null: "fixed"
 * has only its source, markup, rates and `fresh`; "off" only its source.
 */
export type ExchangeRates = CryptoSetting["exchange_rates"]

/** Where a provider's exchange rates come from: the ECB's reference rates, fixed rates of its options, or off (refused). */
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

/** Where the webhook URLs' signing secret comes from: medusa-config's webhookSecret, generated and stored, or the API key. */
export type WebhookSecretSource = ProviderSecrets["webhook_secret"]["source"]

/** POST /admin/crypto/settings/api-key: the key to save, for a provider (none: the shop's first crypto provider). */
export type SaveApiKeyBody = AdminCryptoApiKeyType

// ---- setup health: GET /admin/crypto/health

/** The health's lines and levels: the server's own types. */
export type { HealthCheck, HealthLevel }

/** GET /admin/crypto/health: the worst level, when it was checked, one line per check. */
export type SetupHealth = { level: HealthLevel; checked_at: string; checks: HealthCheck[] }
