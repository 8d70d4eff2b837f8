/** Payments, balances, checks and settings that show every part of the admin's screens at once. */
import type {
  CryptoBalance,
  CryptoPayment,
  CryptoPaymentDetail,
  CryptoSetting,
  CryptoSettingChange,
  ExchangeRates,
  OwedRecord,
  PaymentExchange,
  ProviderSecrets,
  SetupHealth,
} from "../lib/payment-types"

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString()

export const refund = (over: Partial<CryptoPayment["refund"]> = {}): CryptoPayment["refund"] => ({
  owed: false,
  owed_now: null,
  owed_now_sendable: null,
  owed_now_base: null,
  coin: null,
  base_currency: "EUR",
  records: [],
  amount: null,
  base_amount: null,
  sent_at: null,
  reference: null,
  ...over,
})

/** An owed record of EXPIRED_OWED, an LTC payment of a USD store. */
const record = (over: Pick<OwedRecord, "id" | "kind"> & Partial<OwedRecord>): OwedRecord => ({
  coin: "LTC",
  coin_amount: null,
  coin_amount_sendable: null,
  base_currency: "USD",
  base_amount: "0",
  refund_id: null,
  reason: null,
  note: null,
  created_at: "2026-11-02T10:00:00.000Z",
  sent_at: null,
  reference: null,
  refund_address: null,
  refund_coin: null,
  address_given_at: null,
  address_given_by: null,
  address_given_by_name: null,
  payout_started_at: null,
  payout_started_by: null,
  payout_started_by_name: null,
  basis: null,
  fee_percent: null,
  basis_chosen_by: null,
  basis_chosen_by_name: null,
  basis_chosen_at: null,
  link_expires_at: "2026-12-02T10:00:00.000Z",
  address_changes: [],
  ...over,
})

/** Litecoin addresses a customer gave (the second replaced the first). */
const LTC_ADDRESS_1 = "ltc1qexamplefirstrefundaddress0000000000000"
const LTC_ADDRESS_2 = "ltc1qexamplesecondrefundaddress000000000000"

const payment = (over: Partial<CryptoPayment>): CryptoPayment => ({
  id: "cp_1",
  kind: "payment",
  status: "PENDING",
  outcome: "underpaid",
  coin: "BTC",
  address: "bc1qexampleaddress",
  qr_code: "btc:bc1qexampleaddress?amount=0.001",
  // BIP-21, for what is still to send: 0.001 asked, 0.0004 arrived
  wallet_uri: "bitcoin:bc1qexampleaddress?amount=0.0006",
  invoice_url: "https://pay.example/inv_1",
  amount_required: "0.001",
  amount_received: "0.0004",
  confirmations: 1,
  required_confirmations: 3,
  base_amount: "40.00",
  base_currency: "EUR",
  exchange: null,
  expires_at: inAnHour(),
  flags: [],
  attention: null,
  applied: null,
  settled: false,
  order_id: "order_1",
  order_display_id: 1042,
  session_id: "payses_1",
  payment_collection_id: "pc_1",
  paid_session_id: null,
  quote_drift: null,
  accepted_short: null,
  settled_by: null,
  settled_at: null,
  refund: refund(),
  timeline: [],
  last_checked_at: null,
  next_check_at: null,
  created_at: "2026-11-02T10:00:00.000Z",
  ...over,
})

/** A store amount in euros priced in USD at the ECB's rate, with a markup. */
export const ECB_EXCHANGE: PaymentExchange = {
  usd_amount: "44.02",
  rate: "1.08420000000000000",
  source: "ecb",
  url: "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml",
  published_on: "2026-11-24",
  markup_percent: "1.5",
}

/** A store amount in yen priced in USD at a fixed rate of the provider options, without a markup. */
export const FIXED_EXCHANGE: PaymentExchange = {
  usd_amount: "33.5",
  rate: "0.00670000000000000000",
  source: "fixed",
  url: null,
  published_on: null,
  markup_percent: "0",
}

/** Short and still open, re-priced, with a timeline; 40 EUR priced in USD at the ECB's rate. */
export const PENDING_SHORT = payment({
  exchange: ECB_EXCHANGE,
  flags: ["underpaid", "quote_drift", "needs_attention"],
  attention: "Server words: part of the amount arrived.",
  quote_drift: { coin: "BTC", quoted: "0.00098", required: "0.001", percent: "2.04" },
  timeline: [
    {
      at: "2026-11-02T10:00:00.000Z",
      source: "checkout",
      status: "PENDING",
      outcome: "open",
      confirmations: 0,
      received: "0",
    },
    {
      at: "2026-11-02T10:05:00.000Z",
      source: "webhook",
      status: "PENDING",
      outcome: "underpaid",
      confirmations: 1,
      received: "0.0004",
      applied: "none",
      note: "server note",
    },
  ],
  last_checked_at: "2026-11-02T10:06:00.000Z",
})

/** An invoice in USD (no conversion) that expired short and paid late, with money owed to the customer of every kind. */
export const EXPIRED_OWED = payment({
  id: "cp_2",
  base_currency: "USD",
  kind: "invoice",
  status: "EXPIRED",
  coin: "LTC",
  flags: ["underpaid", "paid_late", "overpaid", "refund_owed", "accepted_short"],
  invoice_url: null,
  qr_code: null,
  wallet_uri: null,
  refund: refund({
    base_currency: "USD",
    owed: true,
    owed_now: "0.5",
    owed_now_base: "42.10",
    coin: "LTC",
    records: [
      record({
        id: "rec_1",
        kind: "refund",
        coin_amount: "0.2",
        base_amount: "17.00",
        refund_id: "ref_1",
        reason: "Damaged",
        note: "Customer asked",
        sent_at: "2026-11-02T11:00:00.000Z",
        reference: "tx-1",
        // given by the customer, changed once, frozen by an admin's payout, on fixed coins less a fee
        refund_address: LTC_ADDRESS_2,
        refund_coin: "LTC",
        address_given_at: "2026-11-02T10:40:00.000Z",
        address_given_by: "customer",
        address_given_by_name: "customer",
        payout_started_at: "2026-11-02T10:50:00.000Z",
        payout_started_by: "user_1",
        payout_started_by_name: "Ada Lovelace",
        basis: "fixed_coins",
        fee_percent: "1.5",
        basis_chosen_by: "user_1",
        basis_chosen_by_name: "Ada Lovelace",
        basis_chosen_at: "2026-11-02T10:45:00.000Z",
        address_changes: [
          {
            id: "chg_addr_1",
            coin: "LTC",
            address: LTC_ADDRESS_1,
            actor: "customer",
            actor_name: "customer",
            at: "2026-11-02T10:30:00.000Z",
          },
          {
            id: "chg_addr_2",
            coin: "LTC",
            address: LTC_ADDRESS_2,
            actor: "customer",
            actor_name: "customer",
            at: "2026-11-02T10:40:00.000Z",
          },
        ],
      }),
      // no address yet, its link expired
      record({
        id: "rec_2",
        kind: "excess",
        coin_amount: null,
        base_amount: "5.00",
        link_expires_at: "2026-11-03T10:00:00.000Z",
      }),
      // an address given by an admin (known by email only), not paid out yet, at the rate the payment was priced at
      record({
        id: "rec_3",
        kind: "late",
        coin_amount: "0.3",
        base_amount: "25.00",
        refund_address: LTC_ADDRESS_1,
        refund_coin: "LTC",
        address_given_at: "2026-11-02T10:30:00.000Z",
        address_given_by: "user_2",
        address_given_by_name: "grace@shop.test",
        basis: "rate_then",
        fee_percent: "0",
        basis_chosen_by: "user_1",
        basis_chosen_by_name: "Ada Lovelace",
        basis_chosen_at: "2026-11-02T10:35:00.000Z",
        address_changes: [
          {
            id: "chg_addr_3",
            coin: "LTC",
            address: LTC_ADDRESS_1,
            actor: "user_2",
            actor_name: "grace@shop.test",
            at: "2026-11-02T10:30:00.000Z",
          },
        ],
      }),
    ],
  }),
})

/** Owed to the customer, neither the coin nor the coins known; 5000 JPY priced in USD at a fixed rate. */
export const COMPLETED_OWED_UNKNOWN = payment({
  id: "cp_3",
  base_amount: "5000",
  base_currency: "JPY",
  exchange: FIXED_EXCHANGE,
  status: "COMPLETED",
  coin: null,
  address: null,
  qr_code: null,
  wallet_uri: null,
  expires_at: "2026-11-02T11:00:00.000Z",
  flags: ["overpaid", "refund_owed"],
  order_id: null,
  refund: refund({ owed: true, owed_now_base: "300", base_currency: "JPY" }),
})

/** USDT on BNB Smart Chain, nothing arrived yet: its network, its EIP-55 address and its EIP-681 wallet URI. */
export const PENDING_TOKEN = payment({
  id: "cp_4",
  outcome: "open",
  coin: "USDT_BEP20",
  address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  qr_code: "usdt_bep20:0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed?amount=12.5",
  wallet_uri:
    "ethereum:0x55d398326f99059fF775485246999027B3197955@56/transfer?address=0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed&uint256=12500000000000000000",
  invoice_url: null,
  amount_required: "12.5",
  amount_received: "0",
  confirmations: 0,
  required_confirmations: 15,
  base_amount: "12.50",
  base_currency: "USD",
  order_id: "order_1",
})

export const PAYMENTS = [PENDING_SHORT, EXPIRED_OWED, COMPLETED_OWED_UNKNOWN, PENDING_TOKEN]

/** A refund email of EXPIRED_OWED, by its sent-record's key. */
const refundEmail = (kind: string, at: string): CryptoPaymentDetail["emails"][number] => ({
  kind,
  template: "crypto-refund-address",
  status: "sent",
  to: "customer@example.com",
  locale: "en",
  reason: null,
  at,
})

const detail = (of: CryptoPayment, over: Partial<CryptoPaymentDetail>): CryptoPaymentDetail => ({
  ...of,
  cart_id: null,
  events: [],
  emails: [],
  emails_enabled: true,
  ...over,
})

/**
 * The payments' own reads, by id: events delivered and not, emails sent, failed and skipped, refund
 * emails about owed records (and one about a record the payment no longer has), an event name this
 * admin does not know, and a shop without customer emails.
 */
export const DETAILS: Record<string, CryptoPaymentDetail> = {
  cp_1: detail(PENDING_SHORT, {
    events: [
      {
        name: "crypto_payment.created",
        event_key: "cp_1:created",
        at: "2026-11-02T10:00:00.000Z",
        delivered_at: "2026-11-02T10:00:01.000Z",
      },
      {
        name: "crypto_payment.detected",
        event_key: "cp_1:detected",
        at: "2026-11-02T10:05:00.000Z",
        delivered_at: null,
      },
    ],
    emails: [
      {
        kind: "link",
        template: "crypto-payment-link",
        status: "sent",
        to: "customer@example.com",
        locale: "de",
        reason: null,
        at: "2026-11-02T10:00:02.000Z",
      },
      {
        kind: "detected",
        template: "crypto-payment-detected",
        status: "failed",
        to: "customer@example.com",
        locale: "de",
        reason: "Provider says: mailbox unavailable",
        at: "2026-11-02T10:05:02.000Z",
      },
    ],
  }),
  cp_2: detail(EXPIRED_OWED, {
    events: [
      { name: "crypto_payment.expired", event_key: "cp_2:expired", at: "2026-11-02T10:30:00.000Z", delivered_at: null },
      {
        name: "crypto_payment.some_new_event",
        event_key: "cp_2:new",
        at: "2026-11-02T10:40:00.000Z",
        delivered_at: "2026-11-02T10:40:01.000Z",
      },
    ],
    emails: [
      {
        kind: "expired",
        template: "crypto-payment-expired",
        status: "skipped",
        to: null,
        locale: null,
        reason: "Server words: the order has no email address",
        at: "2026-11-02T10:30:01.000Z",
      },
      refundEmail("refund_link:rec_1", "2026-11-02T10:20:00.000Z"),
      refundEmail("refund_link:rec_2", "2026-11-02T10:21:00.000Z"),
      refundEmail("refund_address:chg_addr_2", "2026-11-02T10:40:01.000Z"),
      refundEmail("refund_link:cryptoowed_gone", "2026-11-02T10:41:00.000Z"),
    ],
  }),
  cp_3: detail(COMPLETED_OWED_UNKNOWN, {
    events: [
      { name: "crypto_payment.paid", event_key: "cp_3:paid", at: "2026-11-02T10:50:00.000Z", delivered_at: null },
    ],
    emails_enabled: false,
  }),
  cp_4: detail(PENDING_TOKEN, {}),
}

const limit = (reset_at: string | null) => ({ limit: 10, used: 2.5, remaining: 7.5, reset_at })
export const BALANCES: CryptoBalance[] = [
  {
    currency: "BTC",
    available: 1234.5,
    pending: 0.25,
    total_earned: 2000,
    total_withdrawn: 765.5,
    limits: { daily: limit("2026-11-03T00:00:00.000Z"), monthly: limit(null) },
  },
]

export const HEALTH: SetupHealth = {
  level: "red",
  checked_at: "2026-11-02T10:00:00.000Z",
  checks: [
    { id: "api_key", provider_id: "pp_crypto_crypto", label: "API key", level: "green", detail: "Server detail one." },
    {
      id: "clock",
      label: "Clock",
      level: "amber",
      detail: "Server detail two.",
      action: "Server action two.",
    },
    { id: "migrations", label: "Database migrations", level: "red", detail: "Server detail three." },
    { id: "disk_space", label: "Disk space", level: "green", detail: "Server detail four." },
    {
      id: "api_key_change",
      provider_id: "pp_crypto_crypto",
      label: "API key change",
      level: "amber",
      detail: "Server detail six.",
      action: "Server action six.",
      acknowledge: { subject: "api_key", value: "option:0123456789abcdef:0123456789abcdef" },
    },
    {
      id: "exchange_rates",
      provider_id: "pp_crypto_crypto",
      label: "Exchange rates",
      level: "amber",
      detail: "Server detail five.",
      action: "Server action five.",
    },
  ],
}

/** ECB rates with everything to show: a stored publication, a failed fetch, a publication held for a jump. */
export const ECB_RATES: ExchangeRates = {
  source: "ecb",
  url: "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml",
  max_age_hours: 144,
  markup_percent: "1.5",
  refresh_minutes: 60,
  published_on: "2026-11-24",
  fetched_at: "2026-11-24T15:05:00.000Z",
  age_hours: 20.5,
  fresh: true,
  misses_working_day: true,
  next_refresh_at: "2026-11-25T16:05:00.000Z",
  last_error: "Server error: the rates file answered 503.",
  held: {
    published_on: "2026-11-25",
    fetched_at: "2026-11-25T15:05:00.000Z",
    moved: [
      { currency: "GBP", percent: "23.4" },
      { currency: "JPY", percent: "21.0" },
    ],
  },
  rates: { EUR: "1.0842", GBP: "1.25923312883435583", JPY: "0.00670552677577000000" },
}

/** Fixed rates of the provider options: only the source, markup, rates and fresh apply. */
export const FIXED_RATES: ExchangeRates = {
  source: "fixed",
  url: null,
  max_age_hours: null,
  markup_percent: "0",
  refresh_minutes: null,
  published_on: null,
  fetched_at: null,
  age_hours: null,
  fresh: true,
  misses_working_day: null,
  next_refresh_at: null,
  last_error: null,
  held: null,
  rates: { JPY: "0.0067", EUR: "1.08" },
}

/** Conversion off: only the source applies. */
export const RATES_OFF: ExchangeRates = { ...FIXED_RATES, source: "off", markup_percent: null, fresh: null, rates: {} }

/** The keys as a shop without CRYPTO_SECRETS_KEY has them: all from medusa-config, nothing can be saved. */
export const CONFIG_SECRETS: ProviderSecrets = {
  can_store: false,
  api_key: { source: "option", last_four: "c0nf", saved_by: null, saved_at: null, unreadable: false },
  webhook_secret: { source: "option", accepted: 0, legacy_accepted: false },
}

/** A key saved from the admin, a webhook secret still derived from it, older secrets still accepted. */
export const SAVED_SECRETS: ProviderSecrets = {
  can_store: true,
  api_key: {
    source: "admin",
    last_four: "7Q9Z",
    saved_by: "user_1",
    saved_at: "2026-11-25T09:30:00.000Z",
    unreadable: false,
  },
  webhook_secret: { source: "api_key", accepted: 2, legacy_accepted: true },
}

/** A saved key that no longer opens (CRYPTO_SECRETS_KEY changed): medusa-config's is used. */
export const UNREADABLE_SECRETS: ProviderSecrets = {
  can_store: true,
  api_key: {
    source: "option",
    last_four: "c0nf",
    saved_by: "user_2",
    saved_at: "2026-11-20T09:30:00.000Z",
    unreadable: true,
  },
  webhook_secret: { source: "generated", accepted: 1, legacy_accepted: false },
}

const setting = (
  provider_id: string,
  exchange_rates: ExchangeRates,
  secrets: ProviderSecrets = CONFIG_SECRETS
): CryptoSetting => ({
  provider_id,
  underpayment_tolerance_percent: 1.5,
  late_payments: "fulfil",
  late_window_hours: 24,
  defaults: { underpayment_tolerance_percent: 0, late_payments: "flag" },
  saved: { underpayment_tolerance_percent: 1.5, late_payments: "fulfil" },
  updated_at: "2026-11-02T10:00:00.000Z",
  updated_by: "user_1",
  exchange_rates,
  secrets,
})
export const SETTINGS: CryptoSetting[] = [
  setting("pp_crypto_crypto", ECB_RATES, SAVED_SECRETS),
  setting("pp_crypto_other", FIXED_RATES, UNREADABLE_SECRETS),
  setting("pp_crypto_off", RATES_OFF),
]

export const CHANGES: CryptoSettingChange[] = [
  {
    id: "chg_1",
    provider_id: "pp_crypto_crypto",
    field: "underpayment_tolerance_percent",
    from: null,
    to: "1.5",
    actor_id: "user_1",
    actor_email: "admin@shop.test",
    created_at: "2026-11-02T10:00:00.000Z",
  },
  {
    id: "chg_2",
    provider_id: "pp_crypto_other",
    field: "late_payments",
    from: "flag",
    to: "fulfil",
    actor_id: "user_1",
    actor_email: null,
    created_at: "2026-11-02T10:00:00.000Z",
  },
  {
    id: "chg_3",
    provider_id: "pp_crypto_crypto",
    field: "exchange_rates",
    from: null,
    to: "2026-11-20",
    actor_id: "user_1",
    actor_email: "admin@shop.test",
    created_at: "2026-11-20T17:00:00.000Z",
  },
  {
    id: "chg_4",
    provider_id: "pp_crypto_crypto",
    field: "exchange_rates",
    from: "2026-11-20",
    to: "2026-11-24",
    actor_id: "user_1",
    actor_email: "admin@shop.test",
    created_at: "2026-11-24T17:00:00.000Z",
  },
  {
    id: "chg_5",
    provider_id: "pp_crypto_crypto",
    field: "api_key",
    from: null,
    to: "…ab12",
    actor_id: "user_1",
    actor_email: "admin@shop.test",
    created_at: "2026-11-24T18:00:00.000Z",
  },
  {
    id: "chg_6",
    provider_id: "pp_crypto_crypto",
    field: "api_key",
    from: "…ab12",
    to: "…7Q9Z",
    actor_id: "user_1",
    actor_email: "admin@shop.test",
    created_at: "2026-11-25T09:30:00.000Z",
  },
]

/** The currency codes of the settings' stored rates: data the screens show as they are (codes are keys, not values). */
export const RATE_CURRENCIES = SETTINGS.flatMap((s) => Object.keys(s.exchange_rates.rates))

/** Every text of the fixtures: the server's and the data's words, which the screens show as they are. */
export function dataTexts(value: unknown): string[] {
  if (typeof value === "string") return [value]
  if (Array.isArray(value)) return value.flatMap(dataTexts)
  if (value && typeof value === "object") return Object.values(value).flatMap(dataTexts)
  return []
}
