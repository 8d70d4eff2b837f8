import axios, { AxiosInstance } from "axios"
import { setTimeout as sleep } from "node:timers/promises"
import type { SandboxControl } from "../../src/sandbox"
import type { DemoRegion, DemoStore } from "../demo/seed"
import { shippedCart } from "../demo/checkout"
import type { Phase, Traffic } from "./traffic"

/**
 * The soak's customers: one checkout per scenario, through the store API as a storefront runs it,
 * paid (or not) at the sandbox, the service's notifications sent by the soak itself (the sandbox's
 * own are off, so every delivery, duplicate and lost one is counted), while two storefront tabs poll
 * the payment's status. Each checkout ends with what the shop must show for it (`expected`), checked
 * once the run is over.
 */
export type Scenario =
  /** paid in full; the notification delivered with duplicates */
  | "full"
  /** half paid (notified: nothing happens), then the rest */
  | "topped"
  /** paid 10% over: captured, the excess owed */
  | "over"
  /** paid in full, the notification lost: reconciliation captures it */
  | "lost"
  /** paid before the storefront completed the cart: the notification creates the order */
  | "unplaced"
  /** expired unpaid, notified: the order is canceled */
  | "expired"
  /** expired unpaid, the notification lost: reconciliation cancels the order */
  | "expired_quiet"
  /** expired and canceled, then paid in full: flagged paid late, never captured */
  | "late"

/** A cycle of twenty: half paid one way or another, the rest expired or paid late. */
export const SCENARIO_CYCLE: Scenario[] = [
  "full",
  "expired",
  "topped",
  "full",
  "late",
  "over",
  "lost",
  "full",
  "expired_quiet",
  "unplaced",
  "full",
  "expired",
  "topped",
  "late",
  "over",
  "full",
  "lost",
  "expired",
  "unplaced",
  "full",
]

const COINS = ["BTC", "ETH", "LTC", "USDT_ERC20", "USDT_BEP20"] as const
const CRYPTO = "pp_crypto_crypto"

export type Checkout = {
  n: number
  scenario: Scenario
  /** A coin chosen in the storefront (a payment), or on the hosted page (an invoice). */
  mode: "invoice" | "payment"
  coin: (typeof COINS)[number]
  region: string
  cartId?: string
  collectionId?: string
  paymentId?: string
  orderId?: string
  webhookPath?: string
  /** The sandbox holds its payment complete within its time: its order must be captured, once. */
  paid: boolean
  /** The sandbox expired it unpaid: its order must be canceled, never captured (late: and flagged). */
  expired: boolean
  /** Notifications sent beyond the first of each. */
  duplicates: number
  /** The last step it reached, and the error that stopped it (a customer who gave up). */
  step: string
  error?: string
  /** Whether the process was up when the customer gave up (else the kill stopped them). */
  failedWhile?: Phase
  /** One of the orders paid and notified when the process was killed. */
  atKill?: true
  done: boolean
}

export type CheckoutPlan = Pick<Checkout, "n" | "scenario" | "mode" | "coin" | "region">

/** The n-th checkout's scenario, mode, coin and region (modes alternate across the scenario cycle). */
export function planOf(n: number, regions: DemoRegion[]): CheckoutPlan {
  const scenario = SCENARIO_CYCLE[n % SCENARIO_CYCLE.length]
  const mode = (n + Math.floor(n / SCENARIO_CYCLE.length)) % 2 ? "invoice" : "payment"
  return { n, scenario, mode, coin: COINS[n % COINS.length], region: regions[n % regions.length].id }
}

class GaveUp extends Error {}

export type ShopContext = {
  backendUrl: string
  store: DemoStore
  storeApi: AxiosInstance
  admin: AxiosInstance
  /** Posts to Medusa with every status answered (webhooks, forged ones, polls). */
  raw: AxiosInstance
  control: SandboxControl
  traffic: Traffic
  /** Storefront tabs polling each payment while its customer pays. */
  tabs: number
  /** Told of each checkout once its payment exists (the forger's targets). */
  onOpened: (checkout: Checkout) => void
  tally: { polls: number; deliveries: number; duplicates: number }
}

const think = () => sleep(400 + Math.random() * 1200)

/** How long a customer's call is retried (see Shopper.attempt). */
const RETRY_FOR_MS = 180_000
/** How long the service retries a notification not answered 200 (each waits up to 30 s for a busy lock). */
const NOTIFY_FOR_MS = 300_000

export class Shopper {
  constructor(private readonly ctx: ShopContext) {}

  /**
   * A customer's call, retried as a storefront would: while the process is down (after waiting for
   * it), on a 5xx, a 409 (the cart being completed by the notification) and a 429 (after Retry-After),
   * for RETRY_FOR_MS at most: longer than the locks a killed process leaves behind live (120 s), so
   * only a lock held for ever turns a customer away.
   */
  async attempt<T>(checkout: Checkout, step: string, call: () => Promise<T>): Promise<T> {
    checkout.step = step
    const giveUpAt = Date.now() + RETRY_FOR_MS
    for (let i = 0; ; i++) {
      await this.ctx.traffic.whenUp()
      try {
        return await call()
      } catch (error) {
        if (error instanceof GaveUp) throw error
        const status = axios.isAxiosError(error) ? error.response?.status : undefined
        const retried = status === undefined || status >= 500 || status === 409 || status === 429
        if (!axios.isAxiosError(error) || !retried || Date.now() > giveUpAt) {
          const body = axios.isAxiosError(error) ? JSON.stringify(error.response?.data ?? "").slice(0, 200) : ""
          throw new GaveUp(`${step}: ${status ?? (error as Error).message} ${body}`.trim())
        }
        const retryAfter = Number(error.response?.headers?.["retry-after"])
        await sleep(status === 429 && retryAfter > 0 ? retryAfter * 1000 : 1000 * Math.min(i + 1, 5))
      }
    }
  }

  /** Runs one checkout to its end; a customer who gave up is recorded, never thrown. */
  async run(plan: CheckoutPlan): Promise<Checkout> {
    const checkout: Checkout = { ...plan, paid: false, expired: false, duplicates: 0, step: "start", done: false }
    let stopTabs = () => undefined as void
    try {
      await this.open(checkout)
      stopTabs = this.pollWhilePaying(checkout)
      await this.scenario(checkout)
    } catch (error) {
      checkout.error = error instanceof GaveUp ? error.message : `${checkout.step}: ${(error as Error).message}`
      checkout.failedWhile = this.ctx.traffic.phase
    } finally {
      stopTabs()
      checkout.done = true
    }
    return checkout
  }

  /** An order placed awaiting payment, paid in full and confirmed at the service, nobody notified yet. */
  async paidAwaiting(plan: CheckoutPlan): Promise<Checkout> {
    const checkout: Checkout = {
      ...plan,
      scenario: "full",
      paid: false,
      expired: false,
      duplicates: 0,
      step: "start",
      atKill: true,
      done: true,
    }
    await this.open(checkout)
    await this.ctx.control.pay(checkout.paymentId!)
    await this.ctx.control.confirm(checkout.paymentId!)
    checkout.paid = true
    return checkout
  }

  /** Cart, shipping, the crypto session; the order placed awaiting payment unless the scenario pays first. */
  private async open(checkout: Checkout): Promise<void> {
    const { storeApi, store, control } = this.ctx
    const region = store.regions.find((r) => r.id === checkout.region)!
    const { cartId, collectionId } = await this.attempt(checkout, "cart", () =>
      shippedCart(
        storeApi,
        { ...store, regionId: region.id, countryCode: region.countryCode },
        `soak${checkout.n}@example.com`
      )
    )
    checkout.cartId = cartId
    checkout.collectionId = collectionId
    const session = await this.attempt(checkout, "session", async () => {
      const { payment_collection: collection } = (
        await storeApi.post(`/store/payment-collections/${collectionId}/payment-sessions`, {
          provider_id: CRYPTO,
          data: checkout.mode === "payment" ? { currency: checkout.coin } : {},
        })
      ).data
      return collection.payment_sessions.find((s: { provider_id: string }) => s.provider_id === CRYPTO)
    })
    checkout.paymentId = String(session.data.paymentId)
    checkout.webhookPath = new URL((await control.payment(checkout.paymentId)).webhookUrl!).pathname
    this.ctx.onOpened(checkout)
    if (checkout.scenario !== "unplaced") await this.placeOrder(checkout)
    if (checkout.mode === "invoice") {
      await think()
      await control.select(checkout.paymentId, checkout.coin)
    }
  }

  private async placeOrder(checkout: Checkout): Promise<void> {
    const completed = await this.attempt(checkout, "complete", async () => {
      const { data } = await this.ctx.storeApi.post(`/store/carts/${checkout.cartId}/complete`, {})
      if (data?.type !== "order") throw new GaveUp(`complete: no order (${JSON.stringify(data).slice(0, 200)})`)
      return data.order
    })
    checkout.orderId = completed.id
  }

  private async scenario(checkout: Checkout): Promise<void> {
    const { control } = this.ctx
    const id = checkout.paymentId!
    const paidInFull = async () => {
      await control.confirm(id)
      checkout.paid = true
    }
    await think()
    switch (checkout.scenario) {
      case "full":
        await control.pay(id)
        await paidInFull()
        return this.notify(checkout, 1 + (checkout.n % 4))
      case "topped":
        await control.pay(id, { mode: "partial" })
        await this.notify(checkout, 1)
        await think()
        await control.pay(id)
        await paidInFull()
        return this.notify(checkout, 2)
      case "over":
        await control.pay(id, { mode: "over" })
        await paidInFull()
        return this.notify(checkout, 2)
      case "lost":
        await control.pay(id)
        await paidInFull()
        return
      case "unplaced":
        await control.pay(id)
        await paidInFull()
        await this.notify(checkout, 2)
        // the customer's storefront completes the cart too: the order the notification created
        return this.placeOrder(checkout)
      case "expired":
        await control.expire(id)
        checkout.expired = true
        return this.notify(checkout, 1 + (checkout.n % 3))
      case "expired_quiet":
        await control.expire(id)
        checkout.expired = true
        return
      case "late":
        await control.expire(id)
        checkout.expired = true
        await this.notify(checkout, 1)
        await this.canceled(checkout)
        await think()
        await control.pay(id)
        await control.confirm(id)
        return this.notify(checkout, 2)
    }
  }

  /**
   * The service's notification, `count` deliveries at once (the first and its duplicates), then
   * again as a retrying service would until one is answered 200 (a 503 asks for a retry), for
   * NOTIFY_FOR_MS at most.
   */
  async notify(checkout: Checkout, count: number): Promise<void> {
    const { raw, tally } = this.ctx
    const body = { paymentId: checkout.paymentId, event: "payment.status_changed" }
    tally.deliveries += count
    tally.duplicates += count - 1
    checkout.duplicates += count - 1
    checkout.step = "notify"
    const giveUpAt = Date.now() + NOTIFY_FOR_MS
    for (let attempt = 0; Date.now() < giveUpAt; attempt++) {
      await this.ctx.traffic.whenUp()
      const answers = await Promise.all(
        Array.from({ length: attempt ? 1 : count }, () =>
          raw.post(checkout.webhookPath!, body).then(
            (r) => r.status,
            () => 0
          )
        )
      )
      if (attempt) tally.deliveries++
      if (answers.some((status) => status === 401)) throw new GaveUp(`notify: a valid token was refused (401)`)
      if (answers.some((status) => status === 200)) return
      await sleep(Math.min(10_000, 1000 * 2 ** attempt))
    }
    throw new GaveUp(`notify: not answered 200 within ${NOTIFY_FOR_MS / 60_000} min`)
  }

  /** Waits (a minute at most) until the expired checkout's order is canceled. */
  private async canceled(checkout: Checkout): Promise<void> {
    checkout.step = "canceled"
    const deadline = Date.now() + 60_000
    while (Date.now() < deadline) {
      const order = await this.order(checkout.orderId!).catch(() => undefined)
      if (order?.status === "canceled") return
      await sleep(1000)
    }
    throw new GaveUp("canceled: the expired order was not canceled within a minute")
  }

  /** Storefront tabs polling the payment's public status every two seconds; returns how to close them. */
  private pollWhilePaying(checkout: Checkout): () => void {
    let open = true
    const { raw, tally, traffic } = this.ctx
    for (let tab = 0; tab < this.ctx.tabs; tab++) {
      void (async () => {
        await sleep(tab * 700)
        while (open) {
          await traffic.whenUp()
          await raw.get(`/store/crypto/payments/${checkout.paymentId}`).catch(() => undefined)
          tally.polls++
          await sleep(1500 + Math.random() * 1000)
        }
      })()
    }
    return () => {
      open = false
    }
  }

  async order(orderId: string): Promise<ShopOrder> {
    return (
      await this.ctx.admin.get(`/admin/orders/${orderId}`, {
        params: {
          fields:
            "id,status,payment_status,*payment_collections,*payment_collections.payments,*payment_collections.payments.captures",
        },
      })
    ).data.order
  }

  /** The ledger's view of a payment (flags, the order it belongs to). */
  async ledger(paymentId: string): Promise<{ flags: string[]; order_id: string | null; applied: string | null }> {
    return (await this.ctx.admin.get(`/admin/crypto/payments/${paymentId}`)).data.payment
  }

  /**
   * What the shop shows for a checkout against what it must show: a paid one's order captured once, an
   * expired one's canceled and never captured (paid late: flagged). `ok` false with `why` until it does.
   */
  async verdict(checkout: Checkout): Promise<Verdict> {
    if (!checkout.paid && !checkout.expired) return { ok: true, captures: 0 }
    const ledger = await this.ledger(checkout.paymentId!)
    const orderId = checkout.orderId ?? ledger.order_id
    if (!orderId) return { ok: false, why: "no order", captures: 0 }
    checkout.orderId = orderId
    const order = await this.order(orderId)
    const captures = order.payment_collections
      .flatMap((c) => c.payments ?? [])
      .reduce((n, p) => n + (p.captures?.length ?? 0), 0)
    if (captures > 1) return { ok: false, why: `captured ${captures} times`, captures }
    if (checkout.paid)
      return order.payment_status === "captured" && captures === 1
        ? { ok: true, captures }
        : { ok: false, why: `paid, its order ${order.status} / ${order.payment_status}`, captures }
    if (captures) return { ok: false, why: "expired, yet captured", captures }
    if (order.status !== "canceled") return { ok: false, why: `expired, its order ${order.status}`, captures }
    if (checkout.scenario === "late" && !ledger.flags.includes("paid_late"))
      return { ok: false, why: "paid late, not flagged", captures }
    return { ok: true, captures }
  }
}

export type Verdict = { ok: boolean; why?: string; captures: number }

export type ShopOrder = {
  id: string
  status: string
  payment_status: string
  payment_collections: Array<{ payments?: Array<{ captures?: unknown[] }> }>
}
