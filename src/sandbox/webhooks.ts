import type { StatusChange } from "./payment-book"
import type { BookEntry } from "./book-entry"

export type WebhookAttempt = { at: string; status?: number; error?: string }

export type WebhookDelivery = {
  id: number
  paymentId: string
  url: string
  event: string
  payload: Record<string, unknown>
  attempts: WebhookAttempt[]
  state: "pending" | "delivered" | "gave_up"
}

export type WebhookSettings = {
  enabled: boolean
  maxAttempts: number
  /** First retry delay; doubles each attempt. */
  retryBaseMs: number
  timeoutMs: number
}

/**
 * Sends a POST to the record's webhook URL on every status change and retries with
 * exponential backoff on a non-2xx answer or a network error. The payload shape is the
 * sandbox's own (the spec gives none): a plugin must not depend on it.
 */
export class WebhookDispatcher {
  readonly deliveries: WebhookDelivery[] = []
  private timers = new Set<NodeJS.Timeout>()
  private nextId = 1
  private waiters: Array<() => void> = []

  constructor(
    public settings: WebhookSettings,
    private readonly statusRecord: (record: BookEntry) => Record<string, unknown>
  ) {}

  onStatusChange({ record, from, to }: StatusChange): void {
    if (!record.webhookUrl || !this.settings.enabled) return
    const delivery: WebhookDelivery = {
      id: this.nextId++,
      paymentId: record.paymentId,
      url: record.webhookUrl,
      event: `payment.${to.toLowerCase()}`,
      payload: {
        event: `payment.${to.toLowerCase()}`,
        previousStatus: from,
        ...this.statusRecord(record),
        orderId: record.orderId,
      },
      attempts: [],
      state: "pending",
    }
    this.deliveries.push(delivery)
    this.schedule(delivery, 0)
  }

  private schedule(delivery: WebhookDelivery, delayMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      void this.attempt(delivery)
    }, delayMs)
    timer.unref()
    this.timers.add(timer)
  }

  private async attempt(delivery: WebhookDelivery): Promise<void> {
    const attempt: WebhookAttempt = { at: new Date().toISOString() }
    delivery.attempts.push(attempt)
    try {
      const response = await fetch(delivery.url, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": "crypto-payment-sandbox" },
        body: JSON.stringify(delivery.payload),
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      })
      attempt.status = response.status
      await response.arrayBuffer().catch(() => undefined)
      if (response.ok) {
        delivery.state = "delivered"
        return this.settle()
      }
    } catch (error) {
      attempt.error = (error as Error).message
    }
    if (delivery.attempts.length >= this.settings.maxAttempts || !this.settings.enabled) {
      delivery.state = "gave_up"
      return this.settle()
    }
    this.schedule(delivery, this.settings.retryBaseMs * 2 ** (delivery.attempts.length - 1))
  }

  private settle(): void {
    if (this.deliveries.every((d) => d.state !== "pending")) {
      const waiters = this.waiters
      this.waiters = []
      waiters.forEach((resolve) => resolve())
    }
  }

  /** Resolves once no delivery is pending (for tests that wait on delivery instead of sleeping). */
  idle(): Promise<void> {
    if (this.deliveries.every((d) => d.state !== "pending")) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push(resolve))
  }

  reset(): void {
    this.timers.forEach(clearTimeout)
    this.timers.clear()
    this.deliveries.length = 0
    this.nextId = 1
    this.settle()
  }

  close(): void {
    this.timers.forEach(clearTimeout)
    this.timers.clear()
  }
}
