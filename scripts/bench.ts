/**
 * `npm run bench`: what the plugin costs a shop, measured side by side in one run on the development
 * store (`medusa develop` on a throwaway PostgreSQL, the sandbox on loopback) and written to
 * BENCHMARKS.md. Every figure is a ratio or a count taken in the same run, since these machines are
 * shared and noisy; absolute times are context only.
 *
 *   P1 creating a crypto payment session vs a pp_system_default one (interleaved pairs)
 *   P2 webhook → captured order vs carts completed with the system provider; Medusa's /hooks route
 *   P3 service calls per paid order in both placeOrder modes; 100 pollers over 2 minutes
 *   P4 reconciliation with 1,000 and 10,000 open payments: reads per tick, tick and due-query time
 *   P5 boot of the development store with and without the plugin
 *
 * BENCH_QUICK=1 runs smaller samples (a check of the script, not figures to publish).
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import axios, { AxiosInstance } from "axios"
import { Client } from "pg"
import { API_KEY, databaseFromEnv, RunningStore, startDemoStore } from "./demo/store"
import { shippedCart, until } from "./demo/checkout"
import { commitStamp } from "./lib/commit"

const QUICK = process.env.BENCH_QUICK === "1"
const SIZES = QUICK
  ? { pairs: 10, orders: 10, concurrency: 5, hooks: 3, pollSeconds: 20, open: [200, 2000], boots: 1 }
  : { pairs: 60, orders: 50, concurrency: 10, hooks: 5, pollSeconds: 120, open: [1000, 10000], boots: 3 }
const CRYPTO = "pp_crypto_crypto"
const SYSTEM = "pp_system_default"

type Row = { id: string; what: string; result: string }
const rows: Row[] = []
const say = (line: string) => process.stdout.write(`${line}\n`)

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]
}
const ms = (value: number) => `${value.toFixed(0)} ms`
const ratio = (value: number) => `${value.toFixed(2)}×`

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = process.hrtime.bigint()
  const value = await work()
  return { value, ms: Number(process.hrtime.bigint() - started) / 1e6 }
}

/** Runs `jobs` with at most `width` at once; the wall time of all of them. */
async function pool(jobs: Array<() => Promise<void>>, width: number): Promise<number> {
  let next = 0
  const { ms: wall } = await timed(() =>
    Promise.all(
      Array.from({ length: width }, async () => {
        while (next < jobs.length) await jobs[next++]()
      })
    )
  )
  return wall
}

class Shop {
  readonly storeApi: AxiosInstance
  constructor(readonly running: RunningStore) {
    this.storeApi = axios.create({
      baseURL: running.backendUrl,
      headers: { "x-publishable-api-key": running.store.publishableKey },
    })
  }

  /** The demo shop stocks 100 units; the bench places hundreds of orders. */
  async restock(): Promise<void> {
    const { admin, store } = this.running
    const { variant } = (
      await admin.get(`/admin/products/${store.productId}/variants/${store.variantId}`, {
        params: { fields: "*inventory_items" },
      })
    ).data
    await admin.post(
      `/admin/inventory-items/${variant.inventory_items[0].inventory_item_id}/location-levels/${store.stockLocationId}`,
      { stocked_quantity: 1_000_000 }
    )
  }

  /** A cart with an address, an item and a shipping method, and its payment collection. */
  async cart(i: number): Promise<{ cartId: string; collectionId: string }> {
    return shippedCart(this.storeApi, this.running.store, `bench${i}@example.com`)
  }

  async session(collectionId: string, provider: string): Promise<{ paymentId?: string }> {
    const { payment_collection: collection } = (
      await this.storeApi.post(`/store/payment-collections/${collectionId}/payment-sessions`, {
        provider_id: provider,
        ...(provider === CRYPTO ? { data: { currency: "BTC" } } : {}),
      })
    ).data
    const session = collection.payment_sessions.find((s: { provider_id: string }) => s.provider_id === provider)
    return { paymentId: session.data?.paymentId }
  }

  complete(cartId: string) {
    return this.storeApi.post(`/store/carts/${cartId}/complete`, {}, { validateStatus: () => true })
  }

  /** A crypto cart whose payment the customer has paid in full (the service says COMPLETED). */
  async paidCryptoCart(i: number): Promise<{ cartId: string; paymentId: string; webhookPath: string }> {
    const { cartId, collectionId } = await this.cart(i)
    const { paymentId } = await this.session(collectionId, CRYPTO)
    await this.running.control.pay(paymentId!)
    await this.running.control.confirm(paymentId!)
    const webhookUrl = (await this.running.control.payment(paymentId!)).webhookUrl!
    return { cartId, paymentId: paymentId!, webhookPath: new URL(webhookUrl).pathname }
  }

  async applied(paymentId: string): Promise<string | null> {
    return (await this.running.admin.get(`/admin/crypto/payments/${paymentId}`)).data.payment.applied ?? null
  }

  async serviceCalls(): Promise<{ create: number; status: number }> {
    const requests = await this.running.control.requests("/v1/")
    return {
      create: requests.filter((r) => r.path.includes("/create_")).length,
      status: requests.filter((r) => r.path.endsWith("/status")).length,
    }
  }
}

async function p1(shop: Shop) {
  say("P1 session creation, crypto vs system …")
  const carts: Array<{ cartId: string; collectionId: string }> = []
  for (let i = 0; i < SIZES.pairs * 2; i++) carts.push(await shop.cart(i))
  const crypto: number[] = []
  const system: number[] = []
  const ratios: number[] = []
  for (let i = 0; i < SIZES.pairs; i++) {
    // interleaved, and which goes first alternates
    const order = i % 2 ? [SYSTEM, CRYPTO] : [CRYPTO, SYSTEM]
    const took: Record<string, number> = {}
    for (const [k, provider] of order.entries())
      took[provider] = (await timed(() => shop.session(carts[2 * i + k].collectionId, provider))).ms
    crypto.push(took[CRYPTO])
    system.push(took[SYSTEM])
    ratios.push(took[CRYPTO] / took[SYSTEM])
  }
  rows.push({
    id: "P1",
    what: `create a payment session, crypto vs ${SYSTEM} (${SIZES.pairs} interleaved pairs)`,
    result: `ratio median **${ratio(quantile(ratios, 0.5))}**, p95 ${ratio(quantile(ratios, 0.95))} (crypto ${ms(quantile(crypto, 0.5))} / ${ms(quantile(crypto, 0.95))}, system ${ms(quantile(system, 0.5))} / ${ms(quantile(system, 0.95))}, p50 / p95; crypto includes the service's create on loopback and the ledger row)`,
  })
}

async function p2(shop: Shop) {
  say("P2 webhook → captured order vs system completions …")
  await shop.running.control.setWebhooks({ enabled: false })
  const paid: Array<{ cartId: string; paymentId: string; webhookPath: string }> = []
  for (let i = 0; i < SIZES.orders; i++) paid.push(await shop.paidCryptoCart(1000 + i))
  const webhookMs: number[] = []
  const webhookWall = await pool(
    paid.map(({ webhookPath }) => async () => {
      const { value, ms: took } = await timed(() =>
        axios.post(`${shop.running.backendUrl}${webhookPath}`, {}, { validateStatus: () => true })
      )
      if (value.status !== 200) throw new Error(`webhook answered ${value.status}`)
      webhookMs.push(took)
    }),
    SIZES.concurrency
  )
  // a 200 means applied: check it was a capture, for every one
  for (const { paymentId } of paid)
    if ((await shop.applied(paymentId)) !== "capture") throw new Error(`${paymentId} not captured after its webhook`)

  const systemCarts: Array<{ cartId: string; collectionId: string }> = []
  for (let i = 0; i < SIZES.orders; i++) {
    const cart = await shop.cart(2000 + i)
    await shop.session(cart.collectionId, SYSTEM)
    systemCarts.push(cart)
  }
  const systemMs: number[] = []
  const systemWall = await pool(
    systemCarts.map(({ cartId }) => async () => {
      const { value, ms: took } = await timed(() => shop.complete(cartId))
      if (value.data?.type !== "order") throw new Error(`system cart did not complete: ${value.status}`)
      systemMs.push(took)
    }),
    SIZES.concurrency
  )

  // Medusa's own route only hints: its event is delayed 5 s (webhook_delay), then reconciliation reads at its next 5 s tick
  const hinted: number[] = []
  for (let i = 0; i < SIZES.hooks; i++) {
    const { paymentId } = await shop.paidCryptoCart(3000 + i)
    const { ms: took } = await timed(async () => {
      await axios.post(`${shop.running.backendUrl}/hooks/payment/crypto_crypto`, { paymentId })
      await until(
        () => shop.applied(paymentId),
        (a) => a === "capture",
        "the hinted payment's capture"
      )
    })
    hinted.push(took)
  }
  const throughput = (n: number, wall: number) => n / (wall / 1000)
  rows.push({
    id: "P2",
    what: `${SIZES.orders} paid orders by webhook (${SIZES.concurrency} at once; the 200 answer means the order is captured) vs ${SIZES.orders} carts completed with ${SYSTEM}`,
    result: `latency ratio p50 **${ratio(quantile(webhookMs, 0.5) / quantile(systemMs, 0.5))}**, p95 ${ratio(quantile(webhookMs, 0.95) / quantile(systemMs, 0.95))} (webhook ${ms(quantile(webhookMs, 0.5))} / ${ms(quantile(webhookMs, 0.95))}: status read, cart completion, capture, ledger; system ${ms(quantile(systemMs, 0.5))} / ${ms(quantile(systemMs, 0.95))}); throughput ratio **${ratio(throughput(paid.length, webhookWall) / throughput(systemCarts.length, systemWall))}** (${throughput(paid.length, webhookWall).toFixed(1)} vs ${throughput(systemCarts.length, systemWall).toFixed(1)} orders/s). Via Medusa's /hooks/payment/crypto_crypto (Medusa delays its event 5 s, then the hint is read at the next 5 s tick): p50 ${ms(quantile(hinted, 0.5))}, worst ${ms(Math.max(...hinted))} over ${hinted.length}`,
  })
}

async function p3(shop: Shop, placeOrder: string, pollers: boolean) {
  say(`P3 service calls per paid order, ${placeOrder} …`)
  const { control } = shop.running
  await control.setWebhooks({ enabled: true })
  /** The calls one paid order costs, the storefront completing before or after the service's notification. */
  const callsOfPaidOrder = async (label: string, storefrontFirst: boolean, i: number) => {
    await control.clearRequests()
    const { cartId, collectionId } = await shop.cart(i)
    const { paymentId } = await shop.session(collectionId, CRYPTO)
    // storefront first: placed awaiting payment, or refused until paid (after_payment)
    if (storefrontFirst) await shop.complete(cartId)
    await control.pay(paymentId!)
    await control.confirm(paymentId!)
    await until(
      () => shop.applied(paymentId!),
      (a) => a === "capture",
      "the webhook's capture"
    )
    await shop.complete(cartId)
    await shop.storeApi.get(`/store/crypto/payments/${paymentId}`)
    const calls = await shop.serviceCalls()
    return `${label} **${calls.create + calls.status}** (${calls.create} create + ${calls.status} status)`
  }
  const counts = [
    await callsOfPaidOrder("webhook first", false, 4000),
    await callsOfPaidOrder("storefront first", true, 4001),
  ]
  rows.push({
    id: "P3",
    what: `service calls per paid order, placeOrder ${placeOrder} (sandbox request log)`,
    result: counts.join("; "),
  })
  if (!pollers) return

  say(`P3 100 pollers for ${SIZES.pollSeconds} s …`)
  const { collectionId } = await shop.cart(4002)
  const { paymentId } = await shop.session(collectionId, CRYPTO)
  await control.pay(paymentId!, { mode: "partial" })
  await control.clearRequests()
  const started = Date.now()
  let polls = 0
  await Promise.all(
    Array.from({ length: 100 }, async (_, tab) => {
      await new Promise((resolve) => setTimeout(resolve, tab * 10)) // tabs opened over a second
      while (Date.now() - started < SIZES.pollSeconds * 1000) {
        await shop.storeApi.get(`/store/crypto/payments/${paymentId}`)
        polls++
        await new Promise((resolve) => setTimeout(resolve, 1000))
      }
    })
  )
  const reads = (await shop.serviceCalls()).status
  const periods = Math.ceil((Date.now() - started) / 30_000)
  rows.push({
    id: "P3",
    what: `100 storefront tabs polling one pending payment every second for ${SIZES.pollSeconds} s (statusCacheSeconds 30)`,
    result: `${polls} polls cost **${reads}** service reads (${periods} cache periods; ${(polls / Math.max(1, reads)).toFixed(0)} polls per read)`,
  })
}

/** The job's tick spans logged since `from` (LOG_LEVEL=debug). */
function tickSpans(logFile: string, from: number): Array<[number, number]> {
  return [...fs.readFileSync(logFile, "utf8").matchAll(/reconciliation tick (\S+) → (\S+)/g)]
    .map((m): [number, number] => [Date.parse(m[1]), Date.parse(m[2])])
    .filter(([start]) => start >= from)
}

async function p4(shop: Shop) {
  const { running } = shop
  const db = new Client({ connectionString: running.databaseUrl })
  await db.connect()
  const created: string[] = []
  const figures: Array<{ size: number; reads: number[]; tickMs: number[]; dueMs: number; indexed: boolean }> = []
  try {
    for (const size of SIZES.open) {
      say(`P4 reconciliation with ${size} open payments …`)
      // the open payments: real ones at the service, and their ledger rows (due now)
      const missing = size - created.length
      await pool(
        Array.from({ length: missing }, () => async () => {
          const { data } = await axios.post(
            `${running.sandboxUrl}/v1/create_payment`,
            { amount: 10, amountCurrency: "USD", currency: "BTC" },
            { headers: { "x-api-key": API_KEY } }
          )
          created.push(data.data.paymentId)
        }),
        25
      )
      const fresh = created.slice(size - missing)
      await db.query(
        `insert into crypto_payment (id, payment_id, session_id, kind, base_amount, base_currency, crypto_amount, coin, watch_until, next_check_at, timeline)
         select 'cryptopay_bench_' || p, p, 'payses_bench_' || p, 'payment', '10.00', 'USD', '0.001', 'BTC', now() + interval '1 day', now(), '{"entries":[]}'::jsonb
         from unnest($1::text[]) as p`,
        [fresh]
      )
      await running.control.clearRequests()
      const from = Date.now()
      const logFile = path.join(running.logDir, "medusa.log")
      // the first tick of a size may have started before the rows were due: measured from the second on
      await until(
        async () => tickSpans(logFile, from).length,
        (n) => n >= 5,
        "five reconciliation ticks",
        120_000
      )
      const spans = tickSpans(logFile, from).slice(1, 5)
      const requests = await running.control.requests("/status")
      const reads = spans.map(
        ([start, end]) => requests.filter((r) => Date.parse(r.at) >= start && Date.parse(r.at) <= end).length
      )
      const plan = await db.query(
        `explain (analyze, format json) select id, payment_id, provider_id, check_failures from crypto_payment
         where settled = false and next_check_at <= now() and deleted_at is null order by next_check_at asc limit 20`
      )
      const [{ Plan, "Execution Time": executionMs, "Planning Time": planningMs }] = plan.rows[0]["QUERY PLAN"]
      figures.push({
        size,
        reads,
        tickMs: spans.map(([s, e]) => e - s),
        dueMs: executionMs + planningMs,
        indexed: JSON.stringify(Plan).includes("Index"),
      })
    }
  } finally {
    await db.end()
  }
  const [small, large] = figures
  const median = (values: number[]) => quantile(values, 0.5)
  rows.push({
    id: "P4",
    what: `reconciliation ticks with ${small.size} and ${large.size} open payments (reconcileBatchSize 20, all due)`,
    result: `reads per tick ${small.reads.join(", ")} and ${large.reads.join(", ")} (the budget: **${[...small.reads, ...large.reads].every((n) => n === 20) ? "yes" : "no"}**); tick ${ms(median(small.tickMs))} vs ${ms(median(large.tickMs))}, ratio **${ratio(median(large.tickMs) / median(small.tickMs))}**; due query ${small.dueMs.toFixed(2)} ms vs ${large.dueMs.toFixed(2)} ms, ratio ${ratio(large.dueMs / small.dueMs)} (${large.indexed ? "index scan" : "no index used"})`,
  })
}

async function p5(running: RunningStore) {
  say("P5 boots with and without the plugin …")
  const boot = async (env: NodeJS.ProcessEnv) => {
    await running.crash()
    return (await timed(() => running.restart(env))).ms
  }
  const withPlugin: number[] = []
  const without: number[] = []
  for (let i = 0; i < SIZES.boots; i++) {
    without.push(await boot({ CRYPTO_PLUGIN: "off" }))
    withPlugin.push(await boot({}))
  }
  rows.push({
    id: "P5",
    what: `boot of the development store (\`medusa develop\` to a healthy /health, ${SIZES.boots} each, interleaved) with and without the plugin's module and provider (CRYPTO_PLUGIN=off; the project's own routes and job still load)`,
    result: `ratio of medians **${ratio(quantile(withPlugin, 0.5) / quantile(without, 0.5))}** (${ms(quantile(withPlugin, 0.5))} vs ${ms(quantile(without, 0.5))})`,
  })
}

async function main() {
  const started = new Date()
  let stop: (() => Promise<void>) | undefined
  process.on("SIGINT", () => void stop?.().then(() => process.exit(130)))
  try {
    say("Starting the development store (throwaway PostgreSQL, sandbox, medusa develop) …")
    const running = await startDemoStore({
      adminDashboard: false,
      say: () => undefined,
      onStop: (s) => (stop = s),
      // the job out of the way while calls are counted (P1–P3); P4 restarts with 5 s ticks
      env: { CRYPTO_RECONCILE_INTERVAL_SECONDS: "3600" },
      ...databaseFromEnv(),
    })
    const shop = new Shop(running)
    await shop.restock()
    await p1(shop)
    await p2(shop)
    await p3(shop, "before_payment", true)
    await running.crash()
    await running.restart({ CRYPTO_PLACE_ORDER: "after_payment" })
    await p3(shop, "after_payment", false)
    await running.crash()
    await running.restart({ CRYPTO_RECONCILE_INTERVAL_SECONDS: "5", LOG_LEVEL: "debug" })
    await p4(shop)
    await p5(running)
  } finally {
    await stop?.()
  }
  const cpus = os.cpus()
  const lines = [
    "# Benchmarks",
    "",
    "Written by `npm run bench`; do not edit by hand. Every figure is a ratio or a count taken side by side in one run (these machines are shared and noisy); absolute times are context only.",
    "",
    `- Run: ${started.toISOString()}, ${Math.round((Date.now() - started.getTime()) / 1000)} s${QUICK ? " (BENCH_QUICK: small samples)" : ""}, commit ${commitStamp()}`,
    `- Machine: ${cpus.length} × ${cpus[0]?.model.trim() ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}, Node ${process.version}`,
    "- Store: `medusa develop` of this repository (in-process event bus and locking) on PostgreSQL, the service sandbox on loopback, admin dashboard off",
    "",
    "| | what | result |",
    "|---|---|---|",
    ...rows.map((r) => `| ${r.id} | ${r.what} | ${r.result} |`),
    "",
  ]
  fs.writeFileSync(path.join(__dirname, "..", "BENCHMARKS.md"), lines.join("\n"))
  say(`\n${lines.slice(8).join("\n")}\nBENCHMARKS.md written`)
}

main().catch((error) => {
  const answer =
    axios.isAxiosError(error) && error.response
      ? ` (${error.config?.method?.toUpperCase()} ${error.config?.url} answered ${error.response.status}: ${JSON.stringify(error.response.data)})`
      : ""
  console.error(`bench failed: ${(error as Error).message}${answer}`)
  process.exitCode = 1
})
