/** Payments, balances, checks and settings that show every part of the admin's screens at once. */
import type {
  CryptoBalance,
  CryptoPayment,
  CryptoSetting,
  CryptoSettingChange,
  OwedRecord,
  SetupHealth,
} from "../lib/crypto-payments"

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString()

export const refund = (over: Partial<CryptoPayment["refund"]> = {}): CryptoPayment["refund"] => ({
  owed: false,
  owed_now: null,
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

const record = (over: Pick<OwedRecord, "id" | "kind"> & Partial<OwedRecord>): OwedRecord => ({
  coin_amount: null,
  base_amount: "0",
  refund_id: null,
  reason: null,
  note: null,
  created_at: "2026-11-02T10:00:00.000Z",
  sent_at: null,
  reference: null,
  ...over,
})

const payment = (over: Partial<CryptoPayment>): CryptoPayment => ({
  id: "cp_1",
  kind: "payment",
  status: "PENDING",
  outcome: "underpaid",
  coin: "BTC",
  address: "bc1qexampleaddress",
  qr_code: "bitcoin:bc1qexampleaddress?amount=0.001",
  invoice_url: "https://pay.example/inv_1",
  amount_required: "0.001",
  amount_received: "0.0004",
  confirmations: 1,
  required_confirmations: 3,
  base_amount: "40.00",
  base_currency: "EUR",
  expires_at: inAnHour(),
  flags: [],
  attention: null,
  applied: null,
  settled: false,
  order_id: "order_1",
  payment_collection_id: "pc_1",
  quote_drift: null,
  refund: refund(),
  timeline: [],
  last_checked_at: null,
  created_at: "2026-11-02T10:00:00.000Z",
  ...over,
})

/** Short and still open, re-priced, with a timeline. */
export const PENDING_SHORT = payment({
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

/** An invoice that expired short and paid late, with money owed to the customer of every kind. */
export const EXPIRED_OWED = payment({
  id: "cp_2",
  kind: "invoice",
  status: "EXPIRED",
  coin: "LTC",
  flags: ["underpaid", "paid_late", "overpaid", "refund_owed", "accepted_short"],
  invoice_url: null,
  qr_code: null,
  refund: refund({
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
      }),
      record({ id: "rec_2", kind: "excess", coin_amount: null, base_amount: "5.00" }),
      record({ id: "rec_3", kind: "late", coin_amount: "0.3", base_amount: "25.00" }),
    ],
  }),
})

/** Owed to the customer, neither the coin nor the coins known. */
export const COMPLETED_OWED_UNKNOWN = payment({
  id: "cp_3",
  status: "COMPLETED",
  coin: null,
  address: null,
  expires_at: "2026-11-02T11:00:00.000Z",
  flags: ["overpaid", "refund_owed"],
  order_id: null,
  refund: refund({ owed: true, owed_now_base: "3.00" }),
})

export const PAYMENTS = [PENDING_SHORT, EXPIRED_OWED, COMPLETED_OWED_UNKNOWN]

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
  ],
}

const setting = (provider_id: string): CryptoSetting => ({
  provider_id,
  underpayment_tolerance_percent: 1.5,
  late_payments: "fulfil",
  late_window_hours: 24,
  defaults: { underpayment_tolerance_percent: 0, late_payments: "flag" },
  saved: { underpayment_tolerance_percent: 1.5, late_payments: "fulfil" },
  updated_at: "2026-11-02T10:00:00.000Z",
  updated_by: "user_1",
})
export const SETTINGS: CryptoSetting[] = [setting("pp_crypto_crypto"), setting("pp_crypto_other")]

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
]

/** Every text of the fixtures: the server's and the data's words, which the screens show as they are. */
export function dataTexts(value: unknown): string[] {
  if (typeof value === "string") return [value]
  if (Array.isArray(value)) return value.flatMap(dataTexts)
  if (value && typeof value === "object") return Object.values(value).flatMap(dataTexts)
  return []
}
