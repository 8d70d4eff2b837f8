import { ChildProcess, execFileSync, spawn } from "node:child_process"
import fs from "node:fs"
import axios from "axios"
import { choosePort, databaseFromEnv, RunningStore, startDemoStore } from "../../scripts/demo/store"
import { waitFor } from "../helpers/wait"
import { FULL, recordFigure } from "./figures"

/**
 * R3 two Medusa processes on one database (two servers, both running the job), webhooks and storefront
 * completions spread over both, with Redis locking and with Postgres locking: how many orders and
 * captures each paid cart gets, and how many webhook answers were refused.
 */
const PAYMENTS = FULL ? 8 : 3
const DELIVERIES = 10

jest.setTimeout(1_200_000)

function ensureRedis(): void {
  if (fs.existsSync("/usr/bin/redis-server")) return
  if (process.getuid?.() !== 0) throw new Error("redis-server is missing: install it with `sudo apt-get install -y redis-server`.")
  execFileSync("apt-get", ["install", "-y", "redis-server"], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } })
}

type Outcome = { orders: number; doubleCaptures: number; uncaptured: number; refused: number; statuses: string }

describe("R3 two processes on one database", () => {
  let redis: ChildProcess | undefined
  let redisUrl = ""
  let redisPort = 0
  /** Lock commands Redis has served: proof that the locks really went through it. */
  const redisLockCommands = () => {
    const stats = execFileSync("redis-cli", ["-p", String(redisPort), "info", "commandstats"], { encoding: "utf8" })
    return [...stats.matchAll(/cmdstat_(?:set|eval|evalsha|del):calls=(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0)
  }
  const outcomes: Record<string, Outcome> = {}

  beforeAll(async () => {
    ensureRedis()
    redisPort = await choosePort(6390)
    redis = spawn("redis-server", ["--port", String(redisPort), "--save", "", "--appendonly", "no"], { stdio: "ignore" })
    redisUrl = `redis://127.0.0.1:${redisPort}`
    const ping = async () => {
      try {
        return execFileSync("redis-cli", ["-p", String(redisPort), "ping"], { encoding: "utf8" }).trim()
      } catch {
        return "down"
      }
    }
    await waitFor(ping, (answer) => answer === "PONG", { what: "redis-server to listen" })
  })

  afterAll(() => {
    redis?.kill("SIGTERM")
    const result = (name: string) => {
      if (name === "worker" && outcomes.worker) return `${outcomes.worker.orders} orders for ${PAYMENTS} carts, ${outcomes.worker.doubleCaptures} captured twice, ${outcomes.worker.uncaptured} uncaptured, ${outcomes.worker.refused} refused (${outcomes.worker.statuses})`
      const o = outcomes[name]
      return o ? `${o.orders} orders for ${PAYMENTS} carts, ${o.doubleCaptures} captured twice, ${o.uncaptured} uncaptured, ${o.refused} webhook answers refused (${o.statuses})` : "not run"
    }
    recordFigure({
      id: "R3",
      title: "two processes, one database",
      count: PAYMENTS * (DELIVERIES + 2) * 3,
      result: `two servers (both run the job), ${PAYMENTS} paid carts × ${DELIVERIES} webhook deliveries + 2 completions spread over both: with Redis locking ${result("redis")}; with Postgres locking ${result("postgres")}; a server taking the traffic while a worker runs the job, Redis locking: ${result("worker")}`,
      ms: 0,
    })
  })

  /**
   * `servers`: two servers that both run the job, traffic spread over both; or a server taking all the
   * traffic while a worker runs the job (Medusa's server + worker split).
   */
  async function run(locking: "redis" | "postgres", layout: "servers" | "server+worker" = "servers"): Promise<Outcome> {
    let stop: (() => Promise<void>) | undefined
    try {
      const store: RunningStore = await startDemoStore({
        adminDashboard: false,
        say: () => undefined,
        onStop: (s) => (stop = s),
        env: {
          CRYPTO_LOCKING: locking,
          REDIS_URL: redisUrl,
          CRYPTO_RECONCILE_INTERVAL_SECONDS: "5",
          ...(layout === "server+worker" ? { MEDUSA_WORKER_MODE: "server" } : {}),
        },
        ...databaseFromEnv(),
      })
      const second = await store.startAnother(layout === "server+worker" ? { MEDUSA_WORKER_MODE: "worker" } : {})
      await store.control.setWebhooks({ enabled: false })
      // a worker serves no API routes: there all the traffic goes to the server, and the job runs on the worker
      const urls = layout === "server+worker" ? [store.backendUrl, store.backendUrl] : [store.backendUrl, second.url]
      const headers = { "x-publishable-api-key": store.store.publishableKey }
      const storeApi = axios.create({ baseURL: store.backendUrl, headers })

      const carts: Array<{ cartId: string; webhookPath: string }> = []
      for (let i = 0; i < PAYMENTS; i++) {
        const address = { first_name: "Ada", last_name: "Lovelace", address_1: "1 Ledger Street", city: "Austin", country_code: "us", postal_code: "73301" }
        const { cart } = (
          await storeApi.post("/store/carts", { region_id: store.store.regionId, email: `buyer${i}@example.com`, shipping_address: address, billing_address: address, items: [{ variant_id: store.store.variantId, quantity: 1 }] })
        ).data
        const { shipping_options: options } = (await storeApi.get(`/store/shipping-options?cart_id=${cart.id}`)).data
        await storeApi.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: options[0].id })
        const { payment_collection: collection } = (await storeApi.post("/store/payment-collections", { cart_id: cart.id })).data
        const { payment_collection: withSession } = (await storeApi.post(`/store/payment-collections/${collection.id}/payment-sessions`, { provider_id: "pp_crypto_crypto", data: { currency: "BTC" } })).data
        const paymentId = withSession.payment_sessions[0].data.paymentId
        await store.control.pay(paymentId)
        await store.control.confirm(paymentId)
        carts.push({ cartId: cart.id, webhookPath: new URL((await store.control.payment(paymentId)).webhookUrl!).pathname })
      }

      const statuses: number[] = []
      await Promise.all(
        carts.flatMap(({ cartId, webhookPath }) => [
          ...Array.from({ length: DELIVERIES }, (_, i) => axios.post(`${urls[i % 2]}${webhookPath}`, {}, { validateStatus: () => true }).then((r) => statuses.push(r.status))),
          ...urls.map((url) => axios.post(`${url}/store/carts/${cartId}/complete`, {}, { headers, validateStatus: () => true })),
        ])
      )
      // what a retrying service would end with: every payment applied
      for (const { webhookPath } of carts) await waitFor(() => axios.post(`${urls[0]}${webhookPath}`, {}, { validateStatus: () => true }), (r) => r.status === 200, { what: "a retried delivery" })

      const { orders } = (await store.admin.get("/admin/orders", { params: { fields: "id,*payment_collections.payments.captures", limit: 100 } })).data as {
        orders: Array<{ payment_collections: Array<{ payments: Array<{ captures: unknown[] }> }> }>
      }
      const capturesOf = (o: (typeof orders)[number]) => o.payment_collections.flatMap((c) => c.payments).reduce((n, p) => n + p.captures.length, 0)
      const tally = Object.entries(statuses.reduce<Record<number, number>>((t, s) => ((t[s] = (t[s] ?? 0) + 1), t), {})).map(([s, n]) => `${n}×${s}`).join(", ")
      return {
        orders: orders.length,
        doubleCaptures: orders.filter((o) => capturesOf(o) > 1).length,
        uncaptured: orders.filter((o) => capturesOf(o) === 0).length,
        refused: statuses.filter((s) => s >= 500).length,
        statuses: tally,
      }
    } finally {
      await stop?.()
    }
  }

  it("with Redis locking: one order and one capture per paid cart, no webhook refused", async () => {
    const before = redisLockCommands()
    const outcome = (outcomes.redis = await run("redis"))
    expect(outcome).toMatchObject({ orders: PAYMENTS, doubleCaptures: 0, refused: 0 })
    expect(redisLockCommands() - before).toBeGreaterThan(PAYMENTS * 2)
  })

  it("server + worker with Redis locking: the worker's reconciliation and the server's webhooks make one order and one capture per cart", async () => {
    const outcome = (outcomes.worker = await run("redis", "server+worker"))
    expect(outcome).toMatchObject({ orders: PAYMENTS, doubleCaptures: 0, uncaptured: 0, refused: 0 })
  })

  it("with Postgres locking: the plugin never captures a payment twice (what core's cart lock lets through is measured)", async () => {
    const outcome = (outcomes.postgres = await run("postgres"))
    expect(outcome.doubleCaptures).toBe(0)
  })
})
