import type { EcbSettings, EcbState } from "./ecb-feed"
import type { Fault } from "./faults"
import type { LoggedRequest } from "./request-log"
import type { WebhookDelivery, WebhookSettings } from "./webhooks"

export type SandboxPaymentView = {
  paymentId: string
  status: string
  kind: "invoice" | "payment"
  currency?: string | null
  address?: string | null
  currentBalance: string
  requiredAmount: string
  remainingAmount: string | null
  confirmations: number
  requiredConfirmations: number | null
  /** This invoice's own re-price (percent of the creation quote); null when none is set. */
  repricePercent: number | null
  baseAmount: number
  baseCurrency: string
  orderId: string | null
  webhookUrl: string | null
  invoiceUrl: string
  expiresAt: string
  completedAt?: string
  transactions: Array<{ amount: string; confirmations: number; at: string }>
}

/** What PUT /__sandbox/config sets (see SandboxControl.configure). */
export type SandboxConfig = {
  webhookField: string
  unselectedStyle: "absent" | "null"
  repricePercent: number | null
  expiredStays: boolean
  decimals: "quoted" | "native"
  /** The keys the service accepts after a rotation at its dashboard; null: the sandbox's own. */
  apiKeys?: string[] | null
}

/** Drives a running sandbox over its control API (tests, the demo, scripts). */
export class SandboxControl {
  constructor(readonly baseUrl: string) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.baseUrl}/__sandbox${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const json = (await res.json()) as T & { error?: string }
    if (!res.ok) throw new Error(`sandbox ${method} ${path}: ${res.status} ${json.error ?? ""}`)
    return json
  }

  payment(paymentId: string) {
    return this.call<SandboxPaymentView>("GET", `/payments/${encodeURIComponent(paymentId)}`)
  }

  async payments() {
    return (await this.call<{ payments: SandboxPaymentView[] }>("GET", "/payments")).payments
  }

  /**
   * Creates `count` payments (1..200,000) at once, each as create_payment would but without a webhook URL
   * (a large payment book for benchmarks); their ids, in creation order.
   */
  async bulkCreatePayments(input: { count: number; amount: number; amountCurrency: string; currency: string }) {
    return (await this.call<{ paymentIds: string[] }>("POST", "/payments/bulk", input)).paymentIds
  }

  select(paymentId: string, currency: string) {
    return this.call<SandboxPaymentView>("POST", `/payments/${encodeURIComponent(paymentId)}/select`, { currency })
  }

  /**
   * Re-prices an invoice at coin choice: requiredAmount = creation quote × (1 + percent/100), rounded up
   * (-90..1000). Once a coin is chosen (and before funds), re-quotes at once; null clears this invoice's re-price.
   */
  reprice(paymentId: string, percent: number | null) {
    return this.call<SandboxPaymentView>("POST", `/payments/${encodeURIComponent(paymentId)}/reprice`, { percent })
  }

  /** Pays the remaining amount, or `amount`, or by mode (partial: half of what is left; over: 10% more). */
  pay(paymentId: string, how: { amount?: string; mode?: "full" | "partial" | "over" } = {}) {
    return this.call<SandboxPaymentView>("POST", `/payments/${encodeURIComponent(paymentId)}/pay`, how)
  }

  /** Adds confirmations (by default, as many as the coin still needs). */
  confirm(paymentId: string, confirmations?: number) {
    return this.call<SandboxPaymentView>("POST", `/payments/${encodeURIComponent(paymentId)}/confirm`, {
      confirmations,
    })
  }

  expire(paymentId: string) {
    return this.call<SandboxPaymentView>("POST", `/payments/${encodeURIComponent(paymentId)}/expire`, {})
  }

  fail(paymentId: string) {
    return this.call<SandboxPaymentView>("POST", `/payments/${encodeURIComponent(paymentId)}/fail`, {})
  }

  advanceClock(ms: number) {
    return this.call<{ now: string }>("POST", "/clock", { advanceMs: ms })
  }

  addFault(fault: Omit<Fault, "id" | "times"> & { times?: number }) {
    return this.call<Fault>("POST", "/faults", fault)
  }

  clearFaults() {
    return this.call<{ faults: Fault[] }>("DELETE", "/faults")
  }

  /** Random faults on a share of the service's requests; `rate: 0` stops them. */
  setChaos(chaos: {
    rate: number
    kinds?: Array<"error" | "rate_limit" | "hang" | "malformed">
    path?: string
    seed?: number
  }) {
    return this.call("PUT", "/chaos", chaos)
  }

  setRateLimit(limit: number | null, windowMs = 60_000) {
    return this.call("PUT", "/rate-limit", { limit, windowMs })
  }

  async requests(path?: string) {
    const query = path ? `?path=${encodeURIComponent(path)}` : ""
    return (await this.call<{ requests: LoggedRequest[] }>("GET", `/requests${query}`)).requests
  }

  clearRequests() {
    return this.call("DELETE", "/requests")
  }

  webhooks() {
    return this.call<{ settings: WebhookSettings; deliveries: WebhookDelivery[] }>("GET", "/webhooks")
  }

  setWebhooks(settings: Partial<WebhookSettings>) {
    return this.call<{ settings: WebhookSettings }>("PUT", "/webhooks", settings)
  }

  /**
   * Changes what the spec leaves open (the fields given; reset() restores them all); answers the whole config.
   * `repricePercent`: re-price of every invoice at coin choice unless it has its own (null: quotes locked).
   * `expiredStays` (default false): an EXPIRED record stays EXPIRED even once paid in full and confirmed
   * (payments are still accepted: its balance and confirmations grow); false: it completes late.
   * `decimals` (default "quoted"): precision of the amounts of records created from now on; "native" writes
   * ETH and USDT with 18 decimal places (create_payment's amount and the invoice's cryptoAmount as exact number
   * literals), BTC and LTC with 8 as before. A record keeps the precision it was created with.
   */
  configure(config: Partial<SandboxConfig>) {
    return this.call<SandboxConfig>("PUT", "/config", config)
  }

  /**
   * Sets the ECB's daily file the sandbox serves at GET /ecb/eurofxref-daily.xml (the fields given; reset()
   * restores them all); answers the whole state. `date`: the file's date, null: the newest TARGET working day
   * whose 16:00 Europe/Berlin has passed on the sandbox's clock (the default). `rates`: rates over the defaults,
   * replacing those of an earlier call ({} restores the defaults); a null rate removes the currency.
   * `status`: "up" (default), "down" (503), "malformed" (200, a cut-off file with rate='abc'), "slow" (the file
   * after 20 s).
   */
  ecb(settings: Partial<EcbSettings>) {
    return this.call<EcbState>("PUT", "/ecb", settings)
  }

  /** The ECB file's settings, the date and rates it carries now, and `served`: the fetches it answered. */
  ecbState() {
    return this.call<EcbState>("GET", "/ecb")
  }

  reset() {
    return this.call("POST", "/reset", {})
  }
}
