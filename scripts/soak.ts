/**
 * `npm run soak` (`-- --minutes 60`, `--locking postgres|redis|local`, `--rate 20`, `--record`,
 * `--record-kill`): one
 * `medusa develop` of this repository (the development store, medusa-config.ts) on a throwaway
 * PostgreSQL and the service sandbox, under steady load for the whole run:
 *
 * - checkouts at a steady rate (`--rate` a minute), invoices and payments in turn, in USD and EUR, each
 *   one scenario of scripts/soak/checkouts.ts: paid in full, half then the rest, over, paid with the
 *   notification lost (reconciliation captures it), paid before the order was placed, expired
 *   (notified or not), paid late after the expiry; two storefront tabs poll each payment's status;
 * - the service's notifications sent by the soak, with duplicates at once and retries;
 * - forged notifications (bad tokens of real payments) every few seconds: each must be answered 401;
 * - polls for made-up payment ids (404), which fill the processes' bounded caches;
 * - the reconciliation job every 10 s (CRYPTO_RECONCILE_INTERVAL_SECONDS);
 * - once, in the middle, `kill -9` of the process while the captures of three paid orders are under way
 *   (their notifications sent, the service's status reads answered), then a restart: every payment must
 *   still settle, the locks the dead process held (Postgres or Redis locking) must not hold a
 *   collection for ever.
 *
 * Every sample period (a minute; a twelfth of a shorter run) it records, inside the Medusa process
 * (scripts/soak/probe.js, loaded with NODE_OPTIONS), the heap after a full collection, the RSS and the
 * event loop's delay (p50, p99), and the database's connections. It fails (exit 1) when a paid order is
 * lost (every payment the sandbox completed in time must end with its order captured once, every expired
 * one canceled and never captured, a late one flagged) or a guarantee breaks (a forged notification not
 * refused, a capture twice, a 5xx or no answer while the process was up, a customer turned away while it
 * was up, a victim of the kill not captured within its bound: PLUGIN_LOCKS_BOUND_MS where the dead
 * process left only the plugin's locks, CART_LOCK_BOUND_MS where it held Medusa's cart lock). It reports
 * the trend, the last window against the first after warm-up (scripts/soak/trend.ts; goal ≤ 1.1× for the
 * heap and the loop's p99), and never fails on it. With `--minutes` ≥ 60 or `--record` it writes
 * RELIABILITY.md's R10 row (the soak) and R11 row (the kill's victims) for its locking provider, stamped
 * with the commit; `--record-kill` writes R11 alone.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { createHmac } from "node:crypto"
import axios, { AxiosInstance } from "axios"
import { Client } from "pg"
import { databaseFromEnv, RunningStore, startDemoStore } from "./demo/store"
import { restock } from "./demo/checkout"
import { commitStamp } from "./lib/commit"
import { SWEEP_GRACE_SECONDS } from "../src/modules/crypto-payment/lock-table"
import { mb as megabytes, ratio } from "./lib/figures"
import { redisEntries, startThrowawayRedis, ThrowawayRedis } from "./lib/throwaway-redis"
import { Checkout, CheckoutPlan, planOf, Shopper, Verdict } from "./soak/checkouts"
import { Traffic } from "./soak/traffic"
import { killLeftovers } from "./soak/leftovers"
import { trendOf, trendWindows } from "./soak/trend"

const { withRow } = require("./lib/reliability-doc")

const PROBE = path.join(__dirname, "soak", "probe.js")
const RELIABILITY = path.join(__dirname, "..", "RELIABILITY.md")
const RECONCILE_INTERVAL_SECONDS = 10
/** Checkouts under way at most: beyond it the shop is behind and new customers are not started (counted). */
const MAX_IN_FLIGHT = 12
/** Orders paid and notified when the process is killed. */
const VICTIMS = 3
/**
 * From the restart to a victim's capture when the dead process left only the plugin's locks: they are
 * leases of LEASE_SECONDS, Postgres locking's expired rows are swept SWEEP_GRACE_SECONDS later, then
 * the job's next read (at its interval: a busy lock is never backed off) or the service's retried
 * notification captures.
 */
const PLUGIN_LOCKS_BOUND_MS = 60_000
/** Medusa's own cart lock (processPaymentWorkflow, completeCartWorkflow): 120 s, no owner, no renewal. */
const CART_LOCK_MS = 120_000
/** A victim whose cart lock the dead process held: that lock's TTL, then one interval of the job. */
const CART_LOCK_BOUND_MS = CART_LOCK_MS + (SWEEP_GRACE_SECONDS + RECONCILE_INTERVAL_SECONDS) * 1000
/** How long the victims are waited for before the kill counts as not survived. */
const RECOVERY_BOUND_MS = CART_LOCK_BOUND_MS + 60_000
/**
 * How long after the restart answers are still put down to the kill (a 503 while a victim's lock is
 * held, a customer who gave up): the longest lock it can leave (a cart's) and a minute. A lock still held
 * after it is one held for ever.
 */
const KILL_AFTERMATH_MS = CART_LOCK_BOUND_MS + 60_000
/** After the load stops: every checkout must reach what the shop must show within this. */
const SETTLE_BOUND_MS = 5 * 60_000
/** The trend's goal for the heap and the loop's p99, last window against first: reported, never failed on. */
const TREND_GOAL = 1.1
const FORGE_EVERY_MS = 3_000
const STRANGER_EVERY_MS = 5_000

const say = (line: string) => process.stdout.write(`${line}\n`)

type Locking = "postgres" | "redis" | "local"
const LOCKING_NAMES: Record<Locking, string> = { postgres: "Postgres", redis: "Redis", local: "in-process" }

function options(argv: string[]) {
  const value = (name: string) => {
    const i = argv.indexOf(`--${name}`)
    return i === -1 ? undefined : argv[i + 1]
  }
  const minutes = Number(value("minutes") ?? 10)
  const rate = Number(value("rate") ?? 20)
  const locking = (value("locking") ?? process.env.CRYPTO_LOCKING ?? "postgres") as Locking
  if (!(minutes > 0)) throw new Error("--minutes: a number of minutes above 0")
  if (!(rate > 0)) throw new Error("--rate: checkouts a minute, above 0")
  if (!(locking in LOCKING_NAMES)) throw new Error("--locking: postgres, redis or local")
  const record = argv.includes("--record") || minutes >= 60
  return { minutes, rate, locking, record, recordKill: record || argv.includes("--record-kill") }
}

type Sample = {
  minute: number
  pid: number
  heapUsed: number
  rss: number
  p50: number
  p99: number
  connections?: number
}

/** A guarantee the soak checks; a broken one fails it. */
type Guarantee = { what: string; held: boolean; measured: string }

// a figure a window may lack (no sample in it) shows as "–"
const mb = (bytes?: number) => (bytes === undefined ? "–" : megabytes(bytes))
const msText = (ms?: number) => (ms === undefined ? "–" : `${ms.toFixed(1)} ms`)
const ratioText = (value?: number) => (value === undefined ? "–" : ratio(value))
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** Tokens that are not ours, made from a real one (`<session id>.<signature>`). */
function forgeries(token: string, other: string): string[] {
  const dot = token.lastIndexOf(".")
  const [session, signature] = [token.slice(0, dot), token.slice(dot + 1)]
  const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1)
  return [
    `${session}.${flip(signature, Math.floor(Math.random() * signature.length))}`,
    `${session}.${other.slice(other.lastIndexOf(".") + 1)}`,
    `${session}.${createHmac("sha256", "not-the-shops-secret").update(session).digest("base64url")}`,
    `${session}.${signature.slice(0, -4)}`,
    `${flip(session, session.length - 1)}.${signature}`,
  ]
}

async function main() {
  const opts = options(process.argv.slice(2))
  const lockingName = LOCKING_NAMES[opts.locking]
  const started = Date.now()
  // minutes of the load (from the store's first customer): the trend's windows and the samples' times
  let loadStarted = started
  const minuteOf = (at: number) => (at - loadStarted) / 60_000
  const periodMs = Math.round(Math.min(60_000, (opts.minutes * 60_000) / 12))
  let stop: (() => Promise<void>) | undefined
  let redis: ThrowawayRedis | undefined
  let db: Client | undefined
  let probeFile: string | undefined
  const cleanUp = async () => {
    await db?.end().catch(() => undefined)
    await stop?.()
    await redis?.stop()
    const left = probeFile ? killLeftovers("SOAK_PROBE_FILE", probeFile) : 0
    if (left) say(`(${left} Medusa processes outlived the stop: killed)`)
  }
  process.on("SIGINT", () => void cleanUp().then(() => process.exit(130)))

  const guarantees: Guarantee[] = []
  const guarantee = (what: string, held: boolean, measured: string) => {
    guarantees.push({ what, held, measured })
    if (!held) say(`  ✖ guarantee broken: ${what} (${measured})`)
  }

  try {
    say(
      `Soak: ${opts.minutes} min, ${opts.rate} checkouts a minute, ${lockingName} locking, a sample every ${seconds(periodMs)}`
    )
    if (opts.locking === "redis") redis = await startThrowawayRedis()
    const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "crypto-soak-"))
    const probe = path.join(logDir, "probe.jsonl")
    probeFile = probe
    const running: RunningStore = await startDemoStore({
      adminDashboard: false,
      say: () => undefined,
      onStop: (s) => (stop = s),
      env: {
        CRYPTO_RECONCILE_INTERVAL_SECONDS: String(RECONCILE_INTERVAL_SECONDS),
        ...(opts.locking === "local" ? {} : { CRYPTO_LOCKING: opts.locking }),
        ...(redis ? { REDIS_URL: redis.url } : {}),
        NODE_OPTIONS: [process.env.NODE_OPTIONS, `--require ${JSON.stringify(PROBE)}`].filter(Boolean).join(" "),
        SOAK_PROBE_FILE: probe,
        SOAK_PROBE_MS: String(periodMs),
      },
      ...databaseFromEnv(),
    })
    say(`Medusa on ${running.backendUrl}, logs in ${running.logDir}, samples in ${probe}`)
    const { control, store } = running
    await control.setWebhooks({ enabled: false })
    await restock(running)

    const traffic = new Traffic()
    const headers = { "x-publishable-api-key": store.publishableKey }
    const storeApi = axios.create({ baseURL: running.backendUrl, headers })
    const raw = axios.create({ baseURL: running.backendUrl, headers, validateStatus: () => true })
    for (const instance of [storeApi, raw, running.admin]) traffic.watch(instance)
    const tally = { polls: 0, deliveries: 0, duplicates: 0 }
    /** The payments opened last (the forger names them, most still pending). */
    const opened: Checkout[] = []
    const shopper = new Shopper({
      backendUrl: running.backendUrl,
      store,
      storeApi,
      admin: running.admin,
      raw,
      control,
      traffic,
      tabs: 2,
      tally,
      onOpened: (checkout) => {
        opened.push(checkout)
        if (opened.length > 40) opened.shift()
      },
    })
    db = new Client({ connectionString: running.databaseUrl })
    await db.connect()
    loadStarted = Date.now()

    const checkouts: Checkout[] = []
    const inFlight = new Set<Promise<unknown>>()
    let next = 0
    let behind = 0
    const endAt = loadStarted + opts.minutes * 60_000
    const loading = () => Date.now() < endAt

    /** Customers arriving at a steady rate. */
    const arrivals = (async () => {
      const every = 60_000 / opts.rate
      for (let due = Date.now(); loading(); due += every) {
        await sleep(Math.max(0, due - Date.now()))
        await traffic.whenUp()
        if (!loading()) break
        // after the kill's downtime, arrivals go on at the rate, not in a burst of the missed ones
        due = Math.max(due, Date.now() - every)
        if (inFlight.size >= MAX_IN_FLIGHT) {
          behind++
          continue
        }
        const run = shopper.run(planOf(next++, store.regions)).then((checkout) => void checkouts.push(checkout))
        inFlight.add(run)
        void run.finally(() => inFlight.delete(run))
      }
    })()

    /** Forged notifications for real payments: each must be refused with 401. */
    const forged = { sent: 0, refused: 0, other: [] as string[], targets: new Set<string>() }
    const forger = (async () => {
      let i = 0
      while (loading()) {
        await sleep(FORGE_EVERY_MS)
        await traffic.whenUp()
        const pool = opened.slice(-20)
        if (pool.length < 2 || !loading()) continue
        const at = i++ % pool.length
        // another payment's token lends its signature to one forgery: never the target's own
        const [target, other] = [pool[at], pool[(at + 1) % pool.length]]
        const tokenOf = (c: Checkout) => c.webhookPath!.split("/").pop()!
        const token = forgeries(tokenOf(target), tokenOf(other))[i % 5]
        const body = { paymentId: target.paymentId, status: "COMPLETED", event: "payment.completed" }
        const answer = await raw.post(`/hooks/crypto/${token}`, body).then(
          (r) => r.status,
          () => 0
        )
        if (answer === 0 && traffic.phase !== "up") continue
        forged.sent++
        forged.targets.add(target.paymentId!)
        if (answer === 401) forged.refused++
        else forged.other.push(`${answer} for ${target.paymentId}`)
      }
    })()

    /** Polls for payment ids the shop never made (404): the bounded caches of unknown ids fill. */
    const strangers = { polls: 0, other: [] as string[] }
    const stranger = (async () => {
      while (loading()) {
        await sleep(STRANGER_EVERY_MS)
        await traffic.whenUp()
        const id = `pay_${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`
        const status = await raw.get(`/store/crypto/payments/${id}`).then(
          (r) => r.status,
          () => 0
        )
        if (status === 0 && traffic.phase !== "up") continue
        strangers.polls++
        if (status !== 404) strangers.other.push(`${status}`)
      }
    })()

    /** The samples: the probe's lines, the database's connections, a line on the console. */
    const samples: Sample[] = []
    let probeRead = 0
    let crashing = false
    const takeSamples = async () => {
      const text = fs.existsSync(probe) ? fs.readFileSync(probe, "utf8") : ""
      const fresh = text.slice(probeRead)
      probeRead = text.lastIndexOf("\n") + 1
      const connections = await db!
        .query(
          `select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`
        )
        .then((r) => r.rows[0].n as number)
        .catch(() => undefined)
      const lines = fresh
        .slice(0, fresh.lastIndexOf("\n") + 1)
        .split("\n")
        .filter(Boolean)
      for (const line of lines) {
        const p = JSON.parse(line)
        samples.push({
          minute: minuteOf(Date.parse(p.at)),
          pid: p.pid,
          heapUsed: p.heapUsed,
          rss: p.rss,
          p50: p.loop.p50,
          p99: p.loop.p99,
          connections,
        })
      }
      const last = samples.at(-1)
      const count = (pick: (c: Checkout) => boolean) => checkouts.filter(pick).length
      say(
        `  ${minuteOf(Date.now()).toFixed(1).padStart(5)} min  heap ${mb(last?.heapUsed)}  rss ${mb(last?.rss)}  loop p50 ${msText(last?.p50)} p99 ${msText(last?.p99)}  db ${connections ?? "–"}  checkouts ${checkouts.length} (+${inFlight.size} under way; paid ${count((c) => c.paid)}, expired ${count((c) => c.expired)})  polls ${tally.polls}  forged ${forged.sent}`
      )
      // the sandbox's request log grows with the run: kept short (the kill reads it)
      if (!crashing) await control.clearRequests().catch(() => undefined)
    }
    const sampler = (async () => {
      while (loading()) {
        await sleep(periodMs)
        await takeSamples()
      }
    })()

    /** The kill, in the middle of the run. */
    await sleep(Math.max(0, loadStarted + (opts.minutes * 60_000) / 2 - Date.now()))
    crashing = true
    say(`  ${minuteOf(Date.now()).toFixed(1).padStart(5)} min  kill -9 while ${VICTIMS} captures are under way …`)
    const crash = await killMidCapture({
      running,
      shopper,
      traffic,
      raw,
      db,
      redis,
      plan: () => planOf(next++, store.regions),
      minuteOf,
    })
    crashing = false
    checkouts.push(...crash.victims)
    guarantee(
      `kill -9 survived: each order paid at the kill captured within its bound of the restart (${PLUGIN_LOCKS_BOUND_MS / 1000} s where only the plugin's locks were left, ${CART_LOCK_BOUND_MS / 1000} s where Medusa's cart lock was)`,
      crash.outcomes.every((o) => o.settledMs !== undefined && o.settledMs <= o.boundMs),
      crash.outcomes.map(victimText).join("; ")
    )
    guarantee(
      `no lock left by the dead process held ${KILL_AFTERMATH_MS / 1000} s after the restart (${lockingName} locking)`,
      crash.stillHeld.length === 0,
      crash.stillHeld.length ? `still held: ${crash.stillHeld.join(", ")}` : `${crash.locksLeft.length} left, all gone`
    )
    say(
      `  ${minuteOf(Date.now()).toFixed(1).padStart(5)} min  restarted in ${seconds(crash.restartMs)}; ${crash.locksLeft.length} locks left by the dead process; victims settled ${crash.settledMs === undefined ? "NOT within the bound" : `${seconds(crash.settledMs)} after the restart`}`
    )

    await Promise.all([arrivals, forger, stranger, sampler])
    say(`Load stopped at ${minuteOf(Date.now()).toFixed(1)} min; ${inFlight.size} checkouts finishing …`)
    await Promise.race([Promise.all([...inFlight]), sleep(SETTLE_BOUND_MS, undefined, { ref: false })])
    await takeSamples()

    say("Waiting for every checkout to show what it must …")
    const verdicts = new Map<Checkout, Verdict>()
    const settleStarted = Date.now()
    for (;;) {
      for (const checkout of checkouts) {
        if (verdicts.get(checkout)?.ok) continue
        verdicts.set(
          checkout,
          await shopper.verdict(checkout).catch((error) => ({ ok: false, why: (error as Error).message, captures: 0 }))
        )
      }
      const open = checkouts.filter((c) => !verdicts.get(c)!.ok)
      if (!open.length || Date.now() - settleStarted > SETTLE_BOUND_MS) break
      await sleep(5_000)
    }
    const settleMs = Date.now() - settleStarted

    // what the sandbox says it completed in time is what the soak counted as paid
    const book = new Map((await control.payments()).map((p) => [p.paymentId, p]))
    const miscounted = checkouts.filter((c) => c.paid && book.get(c.paymentId!)?.status !== "COMPLETED")

    const wrong = checkouts.filter((c) => !verdicts.get(c)!.ok)
    const paid = checkouts.filter((c) => c.paid)
    const expired = checkouts.filter((c) => c.expired)
    const lost = wrong.filter((c) => c.paid && verdicts.get(c)!.captures <= 1)
    const twice = checkouts.filter((c) => verdicts.get(c)!.captures > 1)
    const expiredWrong = wrong.filter((c) => c.expired)
    const why = (list: Checkout[]) =>
      list
        .slice(0, 5)
        .map((c) => `#${c.n} ${c.scenario} ${c.paymentId}: ${verdicts.get(c)!.why}`)
        .join("; ") || "none"
    guarantee(
      "no paid order lost: every payment the sandbox completed in time ends with its order captured",
      lost.length === 0,
      `${paid.length - lost.length}/${paid.length}; ${why(lost)}`
    )
    guarantee("no capture twice", twice.length === 0, `${twice.length} orders; ${why(twice)}`)
    guarantee(
      "every expired payment's order canceled, never captured (paid late: flagged)",
      expiredWrong.length === 0,
      `${expired.length - expiredWrong.length}/${expired.length}; ${why(expiredWrong)}`
    )
    guarantee(
      "the soak's count of paid payments is the sandbox's",
      miscounted.length === 0,
      `${miscounted.length} differ`
    )
    guarantee(
      "every forged notification refused with 401",
      forged.other.length === 0,
      `${forged.refused}/${forged.sent} × 401${forged.other.length ? `; answered ${forged.other.slice(0, 5).join(", ")}` : ""}`
    )
    const forgedPaid = checkouts.filter((c) => forged.targets.has(c.paymentId!) && !c.paid && verdicts.get(c)!.captures)
    guarantee(
      "no forged notification changed anything: no payment it named was captured unless the sandbox completed it",
      forgedPaid.length === 0,
      `${forged.targets.size} payments named, ${forgedPaid.length} captured unpaid`
    )
    guarantee("unknown payment ids answered 404", strangers.other.length === 0, `${strangers.polls} polls`)
    guarantee(
      "no 5xx and no request unanswered while the process was up",
      traffic.broken.length === 0,
      traffic.broken.length
        ? traffic.broken
            .slice(0, 5)
            .map((b) => `${b.status} ${b.route} ${b.detail}`)
            .join("; ")
        : "none"
    )
    const turnedAway = checkouts.filter((c) => c.error && c.failedWhile === "up")
    guarantee(
      "no customer turned away while the process was up",
      turnedAway.length === 0,
      turnedAway
        .slice(0, 5)
        .map((c) => `#${c.n} ${c.scenario}: ${c.error}`)
        .join("; ") || "none"
    )

    // the trend: heap after a full collection, RSS, loop delay, connections
    const within = samples.filter((s) => s.minute <= opts.minutes + 1e-9)
    const trends = {
      heap: trendOf(within, opts.minutes, (s) => s.heapUsed),
      rss: trendOf(within, opts.minutes, (s) => s.rss),
      p50: trendOf(within, opts.minutes, (s) => s.p50),
      p99: trendOf(within, opts.minutes, (s) => s.p99),
      connections: trendOf(
        within.filter((s) => s.connections !== undefined),
        opts.minutes,
        (s) => s.connections!
      ),
    }
    const windows = trendWindows(opts.minutes)
    const span = ([from, to]: [number, number]) => `${from.toFixed(1)}–${to.toFixed(1)}`
    const goal = (value?: number) =>
      value === undefined
        ? ""
        : value <= TREND_GOAL
          ? ` (goal ≤ ${TREND_GOAL}×: met)`
          : ` (goal ≤ ${TREND_GOAL}×: not met)`
    const pids = [...new Set(samples.map((s) => s.pid))]
    const watcherRestarts = (
      fs
        .readFileSync(path.join(running.logDir, "medusa.log"), "utf8")
        .match(/\[(Watcher|HMR)\] \S+ .* (restarting|reloading) dev server/g) ?? []
    ).length
    const maxConnections = Math.max(0, ...samples.map((s) => s.connections ?? 0))

    const count = (scenario: string) => paid.filter((c) => c.scenario === scenario && !c.atKill).length
    const late = checkouts.filter((c) => c.scenario === "late" && c.expired)
    const summary = [
      `${checkouts.length} checkouts (${checkouts.filter((c) => c.mode === "invoice").length} invoices, ${checkouts.filter((c) => c.mode === "payment").length} payments; ${behind} arrivals skipped while ${MAX_IN_FLIGHT} were under way; ${checkouts.filter((c) => c.error).length} customers gave up, ${turnedAway.length} of them while the process was up)`,
      `paid ${paid.length} (in full ${count("full")}, half then the rest ${count("topped")}, over ${count("over")}, notification lost ${count("lost")}, paid before the order ${count("unplaced")}, at the kill ${crash.victims.length}): ${paid.length - lost.length} captured once`,
      `expired ${expired.length} (of which paid late ${late.length}): ${expired.length - expiredWrong.length} canceled and never captured`,
      `${tally.deliveries} notifications (${tally.duplicates} duplicates), ${forged.sent} forged (${forged.refused} × 401), ${tally.polls} status polls and ${strangers.polls} for unknown ids (${strangers.polls - strangers.other.length} × 404)`,
      `5xx or unanswered: ${traffic.broken.length} while up, ${traffic.aroundKill.length} around the kill (answers to notifications, forged ones included: ${traffic.tally(/hooks\/crypto/) || "none"})`,
      `kill -9 at ${crash.atMinute.toFixed(1)} min with ${crash.underWay} of ${crash.victims.length} notified captures under way (${crash.locksLeft.length} locks left by the dead process${crash.locksLeft.length ? `: ${summarizeKeys(crash.locksLeft)}` : ""}; ${crash.stillHeld.length} still held ${KILL_AFTERMATH_MS / 1000} s after the restart), restart ${seconds(crash.restartMs)}, restart to settled ${crash.settledMs === undefined ? `not within ${RECOVERY_BOUND_MS / 60_000} min` : seconds(crash.settledMs)}`,
      `trend, minutes ${span(windows.first)} against ${span(windows.last)} (medians): heap after GC ${mb(trends.heap.first)} → ${mb(trends.heap.last)} **${ratioText(trends.heap.ratio)}**${goal(trends.heap.ratio)}, loop delay p99 ${msText(trends.p99.first)} → ${msText(trends.p99.last)} **${ratioText(trends.p99.ratio)}**${goal(trends.p99.ratio)}, p50 ${msText(trends.p50.first)} → ${msText(trends.p50.last)}, RSS ${mb(trends.rss.first)} → ${mb(trends.rss.last)} (${ratioText(trends.rss.ratio)}), database connections ${trends.connections.first ?? "–"} → ${trends.connections.last ?? "–"} (at most ${maxConnections})`,
      `settled ${seconds(settleMs)} after the load stopped; ${samples.length} samples from ${pids.length} processes${watcherRestarts ? `; the dev server restarted ${watcherRestarts} times on file changes (the trend mixes processes)` : ""}`,
    ]
    const broken = guarantees.filter((g) => !g.held)
    say("")
    say(`Soak at ${commitStamp()}, ${opts.minutes} min, ${lockingName} locking:`)
    for (const line of summary) say(`- ${line.replace(/\*\*/g, "")}`)
    say(
      broken.length
        ? `✖ ${broken.length} of ${guarantees.length} guarantees broken: ${broken.map((g) => g.what).join("; ")}`
        : `✔ all ${guarantees.length} guarantees held`
    )

    if (opts.recordKill) {
      const killRow = `| R11 | kill -9 mid-capture, ${lockingName} locking | ${crash.outcomes.length} | at commit ${commitStamp()}, in the soak (${opts.minutes} min): restart ${seconds(crash.restartMs)}; from the restart to captured, by what the dead process left: ${crash.outcomes.map(victimText).join("; ")}; worst where only the plugin's locks were left **${worstOf(crash.outcomes, "plugin")}** (goal ≤ ${PLUGIN_LOCKS_BOUND_MS / 1000} s), where Medusa's cart lock was ${worstOf(crash.outcomes, "cart")} (bound ${CART_LOCK_BOUND_MS / 1000} s: its 120 s TTL + one interval) | ${seconds(crash.restartMs + Math.max(...crash.outcomes.map((o) => o.settledMs ?? RECOVERY_BOUND_MS)))} |`
      const text = fs.existsSync(RELIABILITY) ? fs.readFileSync(RELIABILITY, "utf8") : "# Reliability\n"
      fs.writeFileSync(
        RELIABILITY,
        withRow(
          text,
          killRow,
          (line: string) => line.startsWith("| R11 |") && line.includes(`, ${lockingName} locking |`)
        )
      )
      say(`RELIABILITY.md: R11 (${lockingName} locking) written`)
    }
    if (opts.record) {
      const result = `at commit ${commitStamp()}: ${summary.join("; ")}. Guarantees: ${broken.length ? `**${broken.length} broken**: ${broken.map((g) => `${g.what} (${g.measured})`).join("; ")}` : `all ${guarantees.length} held`}`
      const row = `| R10 | soak, ${opts.minutes} min, ${lockingName} locking | ${checkouts.length} | ${result.replace(/\|/g, "\\|").replace(/\n/g, " ")} | ${((Date.now() - started) / 1000).toFixed(1)} s |`
      const text = fs.existsSync(RELIABILITY) ? fs.readFileSync(RELIABILITY, "utf8") : "# Reliability\n"
      fs.writeFileSync(
        RELIABILITY,
        withRow(text, row, (line: string) => line.startsWith("| R10 |") && line.includes(`, ${lockingName} locking |`))
      )
      say(`RELIABILITY.md: R10 (${lockingName} locking) written`)
    }
    if (broken.length) process.exitCode = 1
  } finally {
    await cleanUp()
  }
}

type CrashReport = {
  atMinute: number
  victims: Checkout[]
  /** Victims whose notification had not been answered at the kill. */
  underWay: number
  /** Locks the dead process held that its successor still found, with the same owner, KILL_AFTERMATH_MS after the restart. */
  stillHeld: string[]
  restartMs: number
  locksLeft: string[]
  settledMs?: number
  unsettled: string[]
  /** Each victim: what held it (only the plugin's locks, or Medusa's cart lock too), its bound and when it settled. */
  outcomes: VictimOutcome[]
}

type VictimOutcome = { paymentId: string; held: "plugin" | "cart"; boundMs: number; settledMs?: number }

const victimText = (o: VictimOutcome) =>
  `${o.held === "cart" ? "cart lock" : "plugin locks"} ${o.settledMs === undefined ? "not settled" : seconds(o.settledMs)}`

/** The worst time to captured of the victims held by `held`, or "none" when no victim was. */
function worstOf(outcomes: VictimOutcome[], held: VictimOutcome["held"]): string {
  const times = outcomes.filter((o) => o.held === held).map((o) => o.settledMs ?? Infinity)
  if (!times.length) return "none"
  const worst = Math.max(...times)
  return Number.isFinite(worst) ? seconds(worst) : "not settled"
}

/**
 * Three orders placed awaiting payment, paid and confirmed at the service; their notifications sent
 * at once, and the moment the service has answered the first of their status reads (a capture is
 * then under way, its locks taken or being taken) the process is killed with SIGKILL. The locks it
 * held are listed; the process restarts; the service keeps notifying (as it retries) until each is
 * answered 200, and the orders must be captured once.
 */
async function killMidCapture({
  running,
  shopper,
  traffic,
  raw,
  db,
  redis,
  plan,
  minuteOf,
}: {
  running: RunningStore
  shopper: Shopper
  traffic: Traffic
  raw: AxiosInstance
  db: Client
  redis: ThrowawayRedis | undefined
  plan: () => CheckoutPlan
  minuteOf: (at: number) => number
}): Promise<CrashReport> {
  const { control } = running
  const victims: Checkout[] = []
  for (let i = 0; i < VICTIMS; i++) victims.push(await shopper.paidAwaiting(plan()))
  await control.clearRequests()
  const read = async () =>
    (await control.requests("/status")).filter((r) => victims.some((v) => r.path.includes(v.paymentId!)) && r.status)
  /** The notifications answered before the kill: those captures had ended. */
  let answeredBefore = 0
  let killed = false
  for (const victim of victims)
    void raw.post(victim.webhookPath!, { paymentId: victim.paymentId, event: "payment.completed" }).then(
      (r) => void (!killed && r.status === 200 && answeredBefore++),
      () => undefined
    )
  const deadline = Date.now() + 10_000
  while (!(await read()).length && Date.now() < deadline) await sleep(5)
  // then until a victim's collection is locked (a shared provider shows it; in-process locks do not)
  const locked = async () =>
    (await heldLocks(db, redis)).some((lock) => victims.some((v) => lock.key.includes(v.collectionId!)))
  if (redis || (await heldLocks(db, redis, true))) {
    const lockDeadline = Date.now() + 2_000
    while (!(await locked()) && Date.now() < lockDeadline) await sleep(2)
  } else await sleep(50)
  traffic.down()
  killed = true
  const atMinute = minuteOf(Date.now())
  await running.crash()
  const locksLeft = await heldLocks(db, redis)
  const restarting = Date.now()
  await running.restart()
  const restartMs = Date.now() - restarting
  const healthyAt = Date.now()
  traffic.restarted()

  // the service retries until answered 200 (in the background); the job reads them too
  for (const victim of victims) void shopper.notify(victim, 1).catch(() => undefined)
  const outcomes: VictimOutcome[] = victims.map((victim) => {
    const cart = locksLeft.some((lock) => !!victim.cartId && lock.key.endsWith(victim.cartId))
    return {
      paymentId: victim.paymentId!,
      held: cart ? "cart" : "plugin",
      boundMs: cart ? CART_LOCK_BOUND_MS : PLUGIN_LOCKS_BOUND_MS,
    }
  })
  let unsettled: string[] = []
  for (;;) {
    unsettled = []
    for (const [i, victim] of victims.entries()) {
      if (outcomes[i].settledMs !== undefined) continue
      const verdict = await shopper.verdict(victim).catch((error) => ({ ok: false, why: (error as Error).message }))
      if (verdict.ok) outcomes[i].settledMs = Date.now() - healthyAt
      else unsettled.push(`${victim.paymentId}: ${verdict.why}`)
    }
    if (!unsettled.length || Date.now() - healthyAt > RECOVERY_BOUND_MS) break
    await sleep(1_000)
  }
  const settledMs = unsettled.length ? undefined : Date.now() - healthyAt
  // what the kill left behind (locks until they expire) may still refuse other customers a while
  await sleep(Math.max(0, healthyAt + KILL_AFTERMATH_MS - Date.now()))
  const now = await heldLocks(db, redis)
  const stillHeld = locksLeft.filter((left) => now.some((lock) => lock.key === left.key && lock.owner === left.owner))
  traffic.recovered()
  return {
    atMinute,
    victims,
    underWay: VICTIMS - answeredBefore,
    restartMs,
    locksLeft: locksLeft.map((lock) => lock.key),
    stillHeld: stillHeld.map((lock) => lock.key),
    settledMs,
    unsettled,
    outcomes,
  }
}

type HeldLock = { key: string; owner: string | null }

/**
 * The locks the store holds now, with their owners: rows of Postgres locking's table, or Redis's keys
 * (in-process locks are not seen). `probe`: whether the store locks through Postgres at all.
 */
async function heldLocks(db: Client, redis: ThrowawayRedis | undefined): Promise<HeldLock[]>
async function heldLocks(db: Client, redis: ThrowawayRedis | undefined, probe: true): Promise<boolean>
async function heldLocks(db: Client, redis: ThrowawayRedis | undefined, probe?: true) {
  if (redis) return redisEntries(redis.port).map(({ key, value }) => ({ key, owner: value }))
  const rows = await db.query(`select "id", "owner_id" from "locking"`).then(
    (r) => r.rows as Array<{ id: string; owner_id: string | null }>,
    () => undefined
  )
  if (probe) return rows !== undefined
  return (rows ?? []).map((r) => ({ key: r.id, owner: r.owner_id }))
}

/** "crypto-collection ×3, cart ×1": lock keys by kind. */
function summarizeKeys(keys: string[]): string {
  const kinds = new Map<string, number>()
  for (const key of keys) {
    const kind = key.includes(":") ? key.slice(0, key.lastIndexOf(":")) : key.replace(/_[A-Za-z0-9]+$/, "")
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1)
  }
  return [...kinds].map(([kind, n]) => `${kind} ×${n}`).join(", ")
}

// the load's loops may still be waiting when the run ends early: the exit does not wait for them
main().then(
  () => process.exit(process.exitCode ?? 0),
  (error) => {
    const answer =
      axios.isAxiosError(error) && error.response
        ? ` (${error.config?.method?.toUpperCase()} ${error.config?.url} answered ${error.response.status}: ${JSON.stringify(error.response.data)})`
        : ""
    console.error(`soak failed: ${(error as Error).message}${answer}`)
    process.exit(1)
  }
)
