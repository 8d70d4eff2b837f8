/**
 * The bench's year-old shop: a ledger of a million payments seeded in SQL (a year of them, most settled,
 * some open, rare flags, owed records), then what the admin and the accountant ask of it:
 *
 *   P6  the admin's Crypto payments list: the first page and a deep one, with each filter (p50 ≤ 50 ms,
 *       deep page ≤ 1.5× the first)
 *   P7  the accounting export of 100,000 payments: rows per second, time to the first byte, and the
 *       server's heap growth while it streams (≥ 20,000 rows/s, first byte ≤ 200 ms, heap ≤ 64 MB)
 *
 * Timings are reported, never failed on; the export's completeness (every row once) is a guarantee.
 */
import fs from "node:fs"
import type { AxiosInstance } from "axios"
import type { Client } from "pg"
import { cursorTimeSql, encodeCursor } from "../../src/modules/crypto-payment/list-cursor"
import { count, mb, median, ms, ratio, timed } from "../lib/figures"

export type ScaleContext = {
  db: Client
  admin: AxiosInstance
  say: (line: string) => void
  row: (id: string, what: string, result: string) => void
  guarantee: (what: string, held: boolean, measured: string) => boolean
  quick: boolean
}

const COINS = ["BTC", "ETH", "LTC", "USDT_ERC20", "USDT_BEP20"]
/** Seeded rows are inserted this many per statement (progress, and no single huge transaction). */
const SEED_CHUNK = 100_000
/** The seeded rows' order display ids start here, clear of the store's own orders. */
const DISPLAY_ID_BASE = 10_000_000

/**
 * Fills the ledger with seeded payments until it holds `total` rows: created over the last year, each
 * with microseconds; 90 % settled COMPLETED with an order, 5 % settled EXPIRED, 5 % open but not due (so
 * the job's due set stays what P4 made it); rare flags (needs attention 0.1 %, refund owed 0.5 % with an
 * owed record each, paid late 0.2 %, underpaid and overpaid 1 % each). Returns how many were added.
 */
export async function seedLedger(ctx: ScaleContext, total: number): Promise<number> {
  const have = Number((await ctx.db.query(`select count(*) from crypto_payment`)).rows[0].count)
  const add = Math.max(0, total - have)
  const started = Date.now()
  for (let done = 0; done < add; done += SEED_CHUNK) {
    const n = Math.min(SEED_CHUNK, add - done)
    await ctx.db.query(
      `insert into crypto_payment (id, payment_id, session_id, provider_id, kind, base_amount, base_currency,
         usd_amount, exchange_rate, rate_source, rate_published_on, crypto_amount, coin, status, outcome,
         required_amount, received_amount, confirmations, required_confirmations, settled, settled_at, settled_by,
         applied, order_id, order_display_id, underpaid, overpaid, paid_late, needs_attention, attention,
         refund_owed, watch_until, next_check_at, created_at, updated_at)
       select 'cryptopay_seed_' || lpad(g::text, 8, '0'), 'pay_seed_' || g, 'payses_seed_' || g, 'pp_crypto_crypto',
         case when g % 3 = 0 then 'invoice' else 'payment' end,
         ((g % 500) + 10)::text || '.00', case when g % 4 = 0 then 'EUR' else 'USD' end,
         case when g % 4 = 0 then round((((g % 500) + 10) * 1.0842)::numeric, 2)::text end,
         case when g % 4 = 0 then '1.0842' end, case when g % 4 = 0 then 'ecb' end,
         case when g % 4 = 0 then to_char(t::date, 'YYYY-MM-DD') end,
         '0.00123456', c, s, case s when 'COMPLETED' then 'paid' when 'EXPIRED' then 'expired' else 'pending' end,
         '0.00123456', case s when 'PENDING' then '0' else '0.00123456' end, 6, 3,
         s <> 'PENDING', case when s <> 'PENDING' then t + interval '20 minutes' end,
         case when s <> 'PENDING' then 'webhook' end,
         case s when 'COMPLETED' then 'capture' when 'EXPIRED' then 'cancel_order' end,
         case when s = 'COMPLETED' then 'order_seed_' || g end,
         case when s = 'COMPLETED' then ${DISPLAY_ID_BASE} + g end,
         g % 100 = 5, g % 100 = 6, g % 500 = 11, g % 1000 = 7,
         case when g % 1000 = 7 then 'Seeded: look at this payment.' end,
         g % 200 = 3, t + interval '25 hours', case when s = 'PENDING' then now() + interval '30 days' end, t, t
       from (
         select g, (array['${COINS.join("','")}'])[1 + g % 5] as c,
           case when g % 20 = 0 then 'EXPIRED' when g % 20 = 1 then 'PENDING' else 'COMPLETED' end as s,
           now() - interval '366 days' + (g::double precision / $2) * interval '365 days'
             + make_interval(secs => (g % 997) / 1000000.0) as t
         from generate_series($1::bigint + 1, $1::bigint + $3) as g
       ) seeded`,
      [have + done, Math.max(total, 1), n]
    )
    ctx.say(
      `  seeded ${count(have + done + n)} of ${count(total)} ledger rows (${Math.round((Date.now() - started) / 1000)} s)`
    )
  }
  if (add) {
    await ctx.db.query(
      `insert into crypto_owed_amount (id, payment_id, kind, key, coin, coin_amount, base_amount, base_currency, created_at, updated_at)
       select 'cryptoowed_seed_' || p.id, p.payment_id, 'excess', 'excess:' || p.payment_id, p.coin, '0.0001',
         '1.00', p.base_currency, p.created_at + interval '1 hour', p.created_at + interval '1 hour'
       from crypto_payment p where p.id like 'cryptopay_seed_%' and p.refund_owed
       on conflict do nothing`
    )
    // as autovacuum leaves a ledger whose rows were written long ago: without it, the first scan of fresh rows
    // sets their hint bits (writing every page it reads), which a real ledger at rest never pays
    await ctx.db.query(`vacuum (analyze) crypto_payment`)
    await ctx.db.query(`vacuum (analyze) crypto_owed_amount`)
  }
  return add
}

type ListCase = { name: string; query: Record<string, string>; where: string; params: unknown[] }

/** The filters a merchant uses, each with the SQL that finds where its deep page starts. */
async function listCases(ctx: ScaleContext): Promise<ListCase[]> {
  const { rows } = await ctx.db.query(
    `select order_display_id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at
     from crypto_payment where order_display_id is not null and deleted_at is null
     order by created_at desc offset (select count(*) / 2 from crypto_payment) / 2 limit 1`
  )
  const middle = new Date(rows[0].at)
  const from = new Date(middle.getTime() - 30 * 86_400_000).toISOString()
  const to = middle.toISOString()
  return [
    { name: "no filter", query: {}, where: "true", params: [] },
    { name: "status EXPIRED", query: { status: "EXPIRED" }, where: "status = 'EXPIRED'", params: [] },
    { name: "flag needs_attention", query: { flag: "needs_attention" }, where: "needs_attention", params: [] },
    { name: "flag refund_owed", query: { flag: "refund_owed" }, where: "refund_owed", params: [] },
    { name: "coin LTC", query: { coin: "LTC" }, where: "coin = 'LTC'", params: [] },
    {
      name: "30 days",
      query: { created_from: from, created_to: to },
      where: "created_at >= $1 and created_at < $2",
      params: [from, to],
    },
    {
      name: "order display id",
      query: { order: String(rows[0].order_display_id) },
      where: "order_display_id = $1",
      params: [rows[0].order_display_id],
    },
  ]
}

/** P6: the admin list's first page and a deep page (half way through the filter's rows), interleaved. */
export async function p6(ctx: ScaleContext, ledgerRows: number) {
  const samples = ctx.quick ? 5 : 25
  const cases = await listCases(ctx)
  const lines: string[] = []
  let worstFirst = 0
  let worstDeep = 0
  let worstRatio = 0
  for (const c of cases) {
    const matching = Number(
      (await ctx.db.query(`select count(*) from crypto_payment where deleted_at is null and ${c.where}`, c.params))
        .rows[0].count
    )
    const deepAt =
      matching > 40
        ? (
            await ctx.db.query(
              `select ${cursorTimeSql("created_at")} as at, id from crypto_payment where deleted_at is null and ${c.where}
               order by created_at desc, id desc offset ${Math.floor(matching / 2)} limit 1`,
              c.params
            )
          ).rows[0]
        : undefined
    const deepCursor = deepAt ? encodeCursor({ direction: "next", createdAt: deepAt.at, id: deepAt.id }) : undefined
    const get = async (cursor?: string) => {
      const { value, ms: took } = await timed(() =>
        ctx.admin.get("/admin/crypto/payments", { params: { limit: 20, ...c.query, ...(cursor ? { cursor } : {}) } })
      )
      if (!Array.isArray(value.data.payments)) throw new Error(`P6 ${c.name}: no payments in the answer`)
      return { took, rows: value.data.payments.length as number }
    }
    await get()
    if (deepCursor) await get(deepCursor)
    const first: number[] = []
    const deep: number[] = []
    for (let i = 0; i < samples; i++) {
      first.push((await get()).took)
      if (deepCursor) deep.push((await get(deepCursor)).took)
    }
    worstFirst = Math.max(worstFirst, median(first))
    if (deep.length) {
      worstDeep = Math.max(worstDeep, median(deep))
      worstRatio = Math.max(worstRatio, median(deep) / median(first))
    }
    lines.push(
      `${c.name} (${count(matching)} rows): first ${ms(median(first))}${deep.length ? `, deep ${ms(median(deep))} (${ratio(median(deep) / median(first))})` : ", one page"}`
    )
    ctx.say(`  P6 ${lines[lines.length - 1]}`)
  }
  ctx.row(
    "P6",
    `the admin's Crypto payments list at ${count(ledgerRows)} ledger rows: the first page and a deep one (half way through the filter's rows, by cursor) of 20 payments, each filter, ${samples} of each interleaved, through GET /admin/crypto/payments (the views included)`,
    `p50 worst first page **${ms(worstFirst)}**, worst deep page **${ms(worstDeep)}** (goal ≤ 50 ms); deep ÷ first at most **${ratio(worstRatio)}** (goal ≤ 1.5×); ${lines.join("; ")}`
  )
}

type ProbeSample = { at: string; heapUsed: number }

/** The probe's samples (scripts/soak/probe.js) written since `from`. */
function probeSamples(file: string, from: number): ProbeSample[] {
  if (!fs.existsSync(file)) return []
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ProbeSample & { heap?: { used: number } })
    .map((s) => ({ at: s.at, heapUsed: s.heapUsed ?? s.heap?.used ?? 0 }))
    .filter((s) => Date.parse(s.at) >= from)
}

/** P7: the accounting export of `size` payments, streamed; every row once is a guarantee. */
export async function p7(ctx: ScaleContext, probeFile: string, size: number) {
  const { rows } = await ctx.db.query(
    `select ${cursorTimeSql("created_at")} as at from crypto_payment where deleted_at is null
     order by created_at asc, id asc offset (select count(*) / 4 from crypto_payment) limit ${size + 1}`
  )
  if (rows.length < size + 1) throw new Error(`P7: the ledger holds fewer than ${size} rows after its first quarter`)
  const from = rows[0].at as string
  const to = rows[size].at as string
  const expected = Number(
    (
      await ctx.db.query(
        `select count(*) from crypto_payment where deleted_at is null and created_at >= $1 and created_at < $2`,
        [from, to]
      )
    ).rows[0].count
  )
  // one warm-up export of a single row (the process's first), timed apart, as context
  const cold = await timed(() =>
    ctx.admin.get("/admin/crypto/payments/export", { params: { from, to: rows[1].at }, responseType: "text" })
  )
  const runs: Array<{
    rowsPerSecond: number
    firstByteMs: number
    heapGrowth: number | undefined
    lines: number
    unique: number
  }> = []
  // the timed runs with the probe paused (its forced full collection every 500 ms halved the rows/s and
  // delayed first bytes at random), then one run with it sampling, for the heap alone
  const timedRuns = ctx.quick ? 1 : 2
  fs.writeFileSync(`${probeFile}.pause`, "")
  // a run that throws must not leave the probe paused for whatever the server does next
  try {
    for (let run = 0; run <= timedRuns; run++) {
      if (run === timedRuns) {
        fs.rmSync(`${probeFile}.pause`, { force: true })
        // a sample of the heap before this run, taken after the probe's first collection
        await new Promise((resolve) => setTimeout(resolve, 700))
      }
      const before = probeSamples(probeFile, 0).pop()
      const startedAt = Date.now()
      const started = process.hrtime.bigint()
      const res = await ctx.admin.get("/admin/crypto/payments/export", {
        params: { from, to },
        responseType: "stream",
        decompress: true,
      })
      let firstByteMs: number | undefined
      let lines = 0
      let rest = ""
      const ids = new Set<string>()
      await new Promise<void>((resolve, reject) => {
        res.data.on("data", (chunk: Buffer) => {
          firstByteMs ??= Number(process.hrtime.bigint() - started) / 1e6
          const text = rest + chunk.toString("utf8")
          const parts = text.split("\r\n")
          rest = parts.pop() ?? ""
          for (const line of parts) {
            lines++
            // the payment id is a cell of its own: the first cell that starts pay_seed_ or pay_
            const id = /(?:^|,)(pay_[A-Za-z0-9_]+)(?:,|$)/.exec(line)?.[1]
            if (id) ids.add(id)
          }
        })
        res.data.on("end", () => resolve())
        res.data.on("error", reject)
      })
      const totalMs = Number(process.hrtime.bigint() - started) / 1e6
      // the probe samples every 500 ms after a full collection: what the server held, not its garbage
      await new Promise((resolve) => setTimeout(resolve, 600))
      const during = probeSamples(probeFile, startedAt)
      const heapGrowth =
        before && during.length ? Math.max(...during.map((s) => s.heapUsed)) - before.heapUsed : undefined
      runs.push({
        rowsPerSecond: expected / (totalMs / 1000),
        firstByteMs: firstByteMs ?? totalMs,
        heapGrowth,
        lines: lines - 1,
        unique: ids.size,
      })
      ctx.say(
        `  P7 run ${run + 1}: ${count(lines - 1)} rows in ${ms(totalMs)} (${count(Math.round(expected / (totalMs / 1000)))} rows/s), first byte ${ms(firstByteMs ?? totalMs)}, heap growth ${heapGrowth === undefined ? "not sampled" : mb(heapGrowth)}`
      )
    }
  } finally {
    fs.rmSync(`${probeFile}.pause`, { force: true })
  }
  const complete = ctx.guarantee(
    `P7 the export of ${count(expected)} payments has each once`,
    runs.every((r) => r.lines === expected && r.unique === expected),
    runs.map((r) => `${r.lines} rows, ${r.unique} payment ids`).join("; ")
  )
  const timedOnes = runs.slice(0, timedRuns)
  const heapRun = runs[timedRuns]
  const worst = {
    rowsPerSecond: Math.min(...timedOnes.map((r) => r.rowsPerSecond)),
    firstByteMs: Math.max(...timedOnes.map((r) => r.firstByteMs)),
  }
  ctx.row(
    "P7",
    `the accounting export (GET /admin/crypto/payments/export) of ${count(expected)} payments out of the ledger above, streamed as CSV: ${timedRuns} timed run${timedRuns > 1 ? "s" : ""} after one warm-up export of a single row (${ms(cold.ms)}), then one run for the heap, sampled in the server every 500 ms after a full collection (paused during the timed runs: the forced collections slow what is timed)`,
    `**${count(Math.round(worst.rowsPerSecond))} rows/s** worst timed run (goal ≥ 20,000), first byte **${ms(worst.firstByteMs)}** (goal ≤ 200 ms), heap growth **${heapRun.heapGrowth === undefined ? "not sampled" : mb(heapRun.heapGrowth)}** (goal ≤ 64 MB); every row once, in every run: ${complete ? "held" : "**broken**"} (timed runs ${timedOnes.map((r) => `${count(Math.round(r.rowsPerSecond))} rows/s, ${ms(r.firstByteMs)}`).join("; ")}; the heap's run ${count(Math.round(heapRun.rowsPerSecond))} rows/s)`
  )
}
