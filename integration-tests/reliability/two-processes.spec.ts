import { ChildProcess, execFileSync, spawn } from "node:child_process"
import { createHmac } from "node:crypto"
import fs from "node:fs"
import path from "node:path"
import axios, { AxiosInstance } from "axios"
import { Client } from "pg"
import { shippedCart } from "../../scripts/demo/checkout"
import { choosePort, databaseFromEnv, RunningStore, startDemoStore } from "../../scripts/demo/store"
import { waitFor } from "../helpers/wait"
import { FULL, recordFigure } from "./figures"
import { keepAnswer, keepAnswers, keepLogFiles } from "./seen"
import { countTicks, Ticks } from "./ticks"
import { raceLockingPostgres, RaceResult } from "../../scripts/repro/locking-postgres-race"

/**
 * R3 two Medusa processes on one database (two servers, both running the job), webhooks and storefront
 * completions spread over both, with Redis locking and with Postgres locking: how many orders and
 * captures each paid cart gets, and how many webhook answers were refused.
 */
const PAYMENTS = FULL ? 8 : 3
const DELIVERIES = 10
const RACE_BATCHES = 3

/** A measured range: "9–32", or the one figure when every measure gave it. */
const range = (values: number[]) =>
  Math.min(...values) === Math.max(...values) ? String(values[0]) : `${Math.min(...values)}–${Math.max(...values)}`

jest.setTimeout(1_200_000)

function ensureRedis(): void {
  if (fs.existsSync("/usr/bin/redis-server")) return
  if (process.getuid?.() !== 0)
    throw new Error("redis-server is missing: install it with `sudo apt-get install -y redis-server`.")
  execFileSync("apt-get", ["install", "-y", "redis-server"], {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  })
}

/** A shipped cart with a BTC crypto session: the cart and its payment id. */
async function openCryptoCart(storeApi: AxiosInstance, store: RunningStore, email: string) {
  const { cartId, collectionId } = await shippedCart(storeApi, store.store, email)
  const { payment_collection: withSession } = (
    await storeApi.post(`/store/payment-collections/${collectionId}/payment-sessions`, {
      provider_id: "pp_crypto_crypto",
      data: { currency: "BTC" },
    })
  ).data
  return { cartId, paymentId: withSession.payment_sessions[0].data.paymentId as string }
}

type Outcome = {
  orders: number
  doubleCaptures: number
  uncaptured: number
  refused: number
  statuses: string
  ticks: Ticks
  /** Per paid payment: its crypto_payment.paid rows in the outbox, delivered, and its paid emails sent. */
  paid: Array<{ events: number; delivered: number; emails: number }>
  ms: number
}

/**
 * What the outbox and the sent-record hold for the payments, once every paid event was delivered and
 * its email sent (waits for the subscribers): one paid event and one paid email per payment.
 */
async function paidEventsAndEmails(databaseUrl: string, paymentIds: string[]) {
  const db = new Client({ connectionString: databaseUrl })
  await db.connect()
  try {
    const read = async () =>
      (
        await db.query(
          `select p."payment_id",
             (select count(*)::int from "crypto_payment_event" e where e."payment_id" = p."payment_id" and e."name" = 'crypto_payment.paid') as "events",
             (select count(*)::int from "crypto_payment_event" e where e."payment_id" = p."payment_id" and e."name" = 'crypto_payment.paid' and e."delivered_at" is not null) as "delivered",
             (select count(*)::int from "crypto_payment_email" m where m."payment_id" = p."payment_id" and m."kind" = 'paid' and m."status" = 'sent') as "emails"
           from unnest($1::text[]) as p("payment_id") order by p."payment_id"`,
          [paymentIds]
        )
      ).rows as Array<{ payment_id: string; events: number; delivered: number; emails: number }>
    const rows = await waitFor(read, (r) => r.every((p) => p.delivered >= 1 && p.emails >= 1), {
      what: "every paid event delivered and its email sent",
      timeoutMs: 60_000,
      intervalMs: 500,
    })
    return rows.map(({ events, delivered, emails }) => ({ events, delivered, emails }))
  } finally {
    await db.end()
  }
}

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
  /** The race measured in batches: how often it happens varies from batch to batch, so a range is recorded. */
  let races: RaceResult[] = []
  let layout: { captured: Record<string, number>; ms: number } | undefined

  beforeAll(async () => {
    ensureRedis()
    redisPort = await choosePort(6390)
    redis = spawn("redis-server", ["--port", String(redisPort), "--save", "", "--appendonly", "no"], {
      stdio: "ignore",
    })
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
      const o = outcomes[name]
      if (!o) return "not run"
      const ticks = `${o.ticks.ran.join(" + ")} reconciliation ticks (longest ${(o.ticks.longestMs / 1000).toFixed(1)} s), ${o.ticks.overlapping} overlapping, ${o.ticks.skipped} skipped while another ran`
      return `${o.orders} orders for ${PAYMENTS} carts, ${o.doubleCaptures} captured twice, ${o.uncaptured} uncaptured, ${o.refused} webhook answers refused (${o.statuses}); ${ticks}`
    }
    recordFigure({
      id: "R3",
      title: "two processes, one database",
      count: PAYMENTS * (DELIVERIES + 2) * Object.keys(outcomes).length,
      result: `${PAYMENTS} paid carts × ${DELIVERIES} webhook deliveries + 2 completions spread over two servers that both run the job: with Redis locking ${result("redis")}; with Postgres locking ${result("postgres")}${races.length ? ` — and the provider itself (scripts/repro/locking-postgres-race.ts): in ${races.length} batches of ${races[0].rounds} races of two acquire() calls on one key, both held it ${range(races.map((r) => r.bothHeldWithoutOwner))} times per batch without owner ids (core's cart lock), ${range(races.map((r) => r.bothHeldWithOwner))} times with owner ids (the plugin's locks)` : ""}. A server taking the traffic while a worker runs the job, Redis locking: ${result("worker")}. Production layout (server + worker, event bus, workflow engine, caching and locking on Redis): ${
        layout
          ? Object.entries(layout.captured)
              .map(([how, n]) => `${n} orders paid by ${how === "job" ? "the job alone" : how}`)
              .join(", ") + ", each captured once"
          : "not run"
      }`,
      ms: Object.values(outcomes).reduce((n, o) => n + o.ms, 0) + (layout?.ms ?? 0),
    })
  })

  /**
   * `servers`: two servers that both run the job, traffic spread over both; or a server taking all the
   * traffic while a worker runs the job (Medusa's server + worker split).
   */
  async function run(locking: "redis" | "postgres", layout: "servers" | "server+worker" = "servers"): Promise<Outcome> {
    let stop: (() => Promise<void>) | undefined
    const started = Date.now()
    let logDir: string | undefined
    try {
      const store: RunningStore = await startDemoStore({
        adminDashboard: false,
        say: () => undefined,
        onStop: (s) => (stop = s),
        env: {
          CRYPTO_LOCKING: locking,
          REDIS_URL: redisUrl,
          CRYPTO_RECONCILE_INTERVAL_SECONDS: "5",
          // a hung status read ends after 6 s, longer than the job's 5 s interval (see the ticks below)
          CRYPTO_REQUEST_TIMEOUT_MS: "6000",
          // the job logs each tick's span at debug: the ticks of both processes are counted from it
          LOG_LEVEL: "debug",
          ...(layout === "server+worker" ? { MEDUSA_WORKER_MODE: "server" } : {}),
        },
        ...databaseFromEnv(),
        // Postgres locking keeps its locks in a table of its own
        migrate: locking === "postgres",
      })
      logDir = store.logDir
      const second = await store.startAnother(layout === "server+worker" ? { MEDUSA_WORKER_MODE: "worker" } : {})
      await store.control.setWebhooks({ enabled: false })
      // a worker serves no API routes: there all the traffic goes to the server, and the job runs on the worker
      const urls = layout === "server+worker" ? [store.backendUrl, store.backendUrl] : [store.backendUrl, second.url]
      const headers = { "x-publishable-api-key": store.store.publishableKey }
      const storeApi = axios.create({ baseURL: store.backendUrl, headers })
      keepAnswers("two-processes", storeApi, store.admin)

      const openCart = (i: number) => openCryptoCart(storeApi, store, `buyer${i}@example.com`)
      const carts: Array<{ cartId: string; paymentId: string; webhookPath: string }> = []
      for (let i = 0; i < PAYMENTS; i++) {
        const { cartId, paymentId } = await openCart(i)
        await store.control.pay(paymentId)
        await store.control.confirm(paymentId)
        carts.push({
          cartId,
          paymentId,
          webhookPath: new URL((await store.control.payment(paymentId)).webhookUrl!).pathname,
        })
      }

      const statuses: number[] = []
      await Promise.all(
        carts.flatMap(({ cartId, webhookPath }) => [
          ...Array.from({ length: DELIVERIES }, (_, i) =>
            axios
              .post(`${urls[i % 2]}${webhookPath}`, {}, { validateStatus: () => true })
              .then((r) => (keepAnswer("two-processes", r), statuses.push(r.status)))
          ),
          ...urls.map((url) =>
            axios
              .post(`${url}/store/carts/${cartId}/complete`, {}, { headers, validateStatus: () => true })
              .then((r) => keepAnswer("two-processes", r))
          ),
        ])
      )
      // what a retrying service would end with: every payment applied
      for (const { webhookPath } of carts)
        await waitFor(
          () => axios.post(`${urls[0]}${webhookPath}`, {}, { validateStatus: () => true }),
          (r) => r.status === 200,
          { what: "a retried delivery" }
        )

      const { orders } = (
        await store.admin.get("/admin/orders", {
          params: { fields: "id,*payment_collections.payments.captures", limit: 100 },
        })
      ).data as {
        orders: Array<{ payment_collections: Array<{ payments: Array<{ captures: unknown[] }> }> }>
      }
      const capturesOf = (o: (typeof orders)[number]) =>
        o.payment_collections.flatMap((c) => c.payments).reduce((n, p) => n + p.captures.length, 0)
      const paid = await paidEventsAndEmails(
        store.databaseUrl,
        carts.map((c) => c.paymentId)
      )
      // Ticks that read nothing last milliseconds and rarely meet. Open payments whose status reads
      // hang past the client's timeout make a tick longer than the job's interval, so the other
      // process's timer fires while it runs: the lock must make it skip, never overlap.
      for (let i = 0; i < 2; i++) await openCart(PAYMENTS + i)
      await store.control.addFault({ kind: "hang", path: "/status", times: 2 })
      const logs = () =>
        ["medusa.log", "medusa-2.log"].map((name) => fs.readFileSync(path.join(store.logDir, name), "utf8"))
      await waitFor(
        async () => countTicks(logs()),
        (t) => t.longestMs > 5000 && (layout === "server+worker" || t.skipped >= 1),
        { what: "a tick longer than the interval", timeoutMs: 90_000, intervalMs: 1000 }
      )
      const tally = Object.entries(statuses.reduce<Record<number, number>>((t, s) => ((t[s] = (t[s] ?? 0) + 1), t), {}))
        .map(([s, n]) => `${n}×${s}`)
        .join(", ")
      return {
        orders: orders.length,
        doubleCaptures: orders.filter((o) => capturesOf(o) > 1).length,
        uncaptured: orders.filter((o) => capturesOf(o) === 0).length,
        refused: statuses.filter((s) => s >= 500).length,
        statuses: tally,
        ticks: countTicks(logs()),
        paid,
        ms: Date.now() - started,
      }
    } finally {
      await stop?.()
      // for R7's scan of the whole run: everything both Medusa processes logged
      if (logDir) keepLogFiles("two-processes", logDir)
    }
  }

  it("the tick counter sees an overlap (the count below can fail)", () => {
    const tick = (from: string, to: string) =>
      `debug: medusa-payment-crypto: reconciliation tick 2026-01-01T00:00:${from}Z → 2026-01-01T00:00:${to}Z, heap 104857600\n`
    expect(countTicks([tick("00.000", "01.000") + tick("05.000", "06.000"), tick("01.500", "02.000")])).toEqual({
      ran: [2, 1],
      skipped: 0,
      overlapping: 0,
      longestMs: 1000,
    })
    expect(countTicks([tick("00.000", "01.000"), tick("00.900", "02.000")]).overlapping).toBe(1)
  })

  it("with Redis locking: one order and one capture per paid cart, no webhook refused", async () => {
    const before = redisLockCommands()
    const outcome = (outcomes.redis = await run("redis"))
    expect(outcome).toMatchObject({ orders: PAYMENTS, doubleCaptures: 0, refused: 0, ticks: { overlapping: 0 } })
    // duplicate webhooks and completions over two processes: one paid event per payment, delivered, one email
    expect(outcome.paid).toEqual(outcome.paid.map(() => ({ events: 1, delivered: 1, emails: 1 })))
    expect(redisLockCommands() - before).toBeGreaterThan(PAYMENTS * 2)
  })

  it("server + worker with Redis locking: the worker's reconciliation and the server's webhooks make one order and one capture per cart", async () => {
    const outcome = (outcomes.worker = await run("redis", "server+worker"))
    expect(outcome).toMatchObject({
      orders: PAYMENTS,
      doubleCaptures: 0,
      uncaptured: 0,
      refused: 0,
      ticks: { overlapping: 0 },
    })
    // the server runs no jobs: every tick is the worker's
    expect(outcome.ticks.ran[0]).toBe(0)
  })

  /**
   * Medusa's production layout: a server for HTTP and a worker for the job and subscribers, with the event
   * bus, workflow engine, caching and locking on Redis. Orders placed awaiting payment are paid three ways:
   * by the plugin's webhook (answered on the server), by Medusa's /hooks/payment route (its subscriber runs
   * on the worker, and brings the job's read forward) and by the job alone.
   */
  async function productionLayout() {
    let stop: (() => Promise<void>) | undefined
    let logDir: string | undefined
    const started = Date.now()
    try {
      const store: RunningStore = await startDemoStore({
        adminDashboard: false,
        say: () => undefined,
        onStop: (s) => (stop = s),
        env: {
          CRYPTO_LOCKING: "redis",
          CRYPTO_REDIS_MODULES: "1",
          REDIS_URL: redisUrl,
          CRYPTO_RECONCILE_INTERVAL_SECONDS: "5",
          MEDUSA_WORKER_MODE: "server",
        },
        ...databaseFromEnv(),
        // the Redis workflow engine has migrations of its own
        migrate: true,
      })
      logDir = store.logDir
      await store.startAnother({ MEDUSA_WORKER_MODE: "worker" })
      await store.control.setWebhooks({ enabled: false })
      const headers = { "x-publishable-api-key": store.store.publishableKey }
      const storeApi = axios.create({ baseURL: store.backendUrl, headers })
      keepAnswers("two-processes", storeApi, store.admin)

      /** An order placed awaiting its BTC payment, then paid in full at the service. */
      const paidAwaitingOrder = async (i: number) => {
        const { cartId, paymentId } = await openCryptoCart(storeApi, store, `layout${i}@example.com`)
        const { order } = (await storeApi.post(`/store/carts/${cartId}/complete`, {})).data
        await store.control.pay(paymentId)
        await store.control.confirm(paymentId)
        return { orderId: order.id as string, paymentId }
      }
      const paths = {
        webhook: async (paymentId: string) => {
          const answer = await axios.post((await store.control.payment(paymentId)).webhookUrl!, { paymentId })
          keepAnswer("two-processes", answer)
        },
        "/hooks/payment": async (paymentId: string) => {
          const answer = await axios.post(`${store.backendUrl}/hooks/payment/crypto_crypto`, { paymentId })
          keepAnswer("two-processes", answer)
        },
        job: async () => undefined,
      }
      /** The answer to a well-formed token for the payment's session signed with a key that is not the shop's. */
      const forged = async (paymentId: string) => {
        const url = (await store.control.payment(paymentId)).webhookUrl!
        const sessionId = url.slice(url.lastIndexOf("/") + 1).split(".")[0]
        const signature = createHmac("sha256", "not the shop's key").update(sessionId).digest("base64url")
        const forgedUrl = `${url.slice(0, url.lastIndexOf("/") + 1)}${sessionId}.${signature}`
        return (await axios.post(forgedUrl, { paymentId }, { validateStatus: () => true })).status
      }
      const captured: Record<string, number> = {}
      const paymentIds: string[] = []
      let forgedStatus: number | undefined
      let i = 0
      for (const [name, notify] of Object.entries(paths)) {
        const orders = []
        for (let n = 0; n < 2; n++) orders.push(await paidAwaitingOrder(i++))
        paymentIds.push(...orders.map((o) => o.paymentId))
        // the token check's refusal keeps its type through the Redis workflow engine: 401, not a retry
        forgedStatus ??= await forged(orders[0].paymentId)
        for (const { paymentId } of orders) await notify(paymentId)
        for (const { orderId } of orders)
          await waitFor(
            async () =>
              (await store.admin.get(`/admin/orders/${orderId}`, { params: { fields: "id,payment_status" } })).data
                .order.payment_status,
            (status) => status === "captured",
            { what: `order ${orderId} paid by ${name} to be captured`, timeoutMs: 60_000, intervalMs: 500 }
          )
        captured[name] = orders.length
      }
      const { orders } = (
        await store.admin.get("/admin/orders", {
          params: { fields: "id,*payment_collections.payments.captures", limit: 100 },
        })
      ).data as { orders: Array<{ payment_collections: Array<{ payments: Array<{ captures: unknown[] }> }> }> }
      const captures = orders.map((o) =>
        o.payment_collections.flatMap((c) => c.payments).reduce((n, p) => n + p.captures.length, 0)
      )
      const workerLog = fs.readFileSync(path.join(store.logDir, "medusa-2.log"), "utf8")
      const paid = await paidEventsAndEmails(store.databaseUrl, paymentIds)
      return { captured, orders: orders.length, captures, workerLog, paid, forgedStatus, ms: Date.now() - started }
    } finally {
      await stop?.()
      if (logDir) keepLogFiles("two-processes", logDir)
    }
  }

  it("production layout (server + worker, event bus, workflow engine, caching and locking on Redis): orders paid by webhook, by /hooks/payment and by the job alone are captured once; a forged webhook token is refused", async () => {
    const before = redisLockCommands()
    const outcome = await productionLayout()
    layout = outcome
    expect(outcome.forgedStatus).toBe(401)
    expect(outcome.captured).toEqual({ webhook: 2, "/hooks/payment": 2, job: 2 })
    expect(outcome.orders).toBe(6)
    expect(outcome.captures).toEqual([1, 1, 1, 1, 1, 1])
    // the modules really ran on Redis: locks through it, and the worker used the Redis event bus
    expect(redisLockCommands() - before).toBeGreaterThan(6)
    expect(outcome.workerLog).not.toContain("Local Event Bus installed")
    // the events went through the Redis event bus to the worker's subscribers: one paid email per order
    expect(outcome.paid).toEqual(outcome.paid.map(() => ({ events: 1, delivered: 1, emails: 1 })))
  })

  it("with Postgres locking: the plugin never captures a payment twice (what core's cart lock lets through is measured)", async () => {
    const outcome = (outcomes.postgres = await run("postgres"))
    expect(outcome).toMatchObject({ doubleCaptures: 0, ticks: { overlapping: 0 } })
    // the race, measured on the provider alone: with owner ids (as the plugin locks) never both
    const { database } = databaseFromEnv()
    const config = database ? { ...database, database: "postgres" } : { connectionString: process.env.DATABASE_URL }
    races = []
    for (let batch = 0; batch < RACE_BATCHES; batch++) races.push(await raceLockingPostgres(config))
    expect(races.map((r) => r.bothHeldWithOwner)).toEqual(races.map(() => 0))
  })
})
