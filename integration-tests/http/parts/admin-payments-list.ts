import type { CryptoSuite } from "../../helpers/runner"
import type { SandboxHandle } from "../../helpers/sandbox"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { Knex } from "knex"
import type { AdminHeaders } from "../../helpers/admin"
import {
  completeCart,
  createCryptoCart,
  CryptoStore,
  failing,
  paidCryptoOrder,
  startCryptoSession,
} from "../../helpers/checkout"
import { holdReconciliationInEachTest } from "../../helpers/reconciliation"
import { CRYPTO_PAYMENT_MODULE, CryptoPaymentModuleService } from "../../../src/modules/crypto-payment"
import { Migration20261126180000 } from "../../../src/modules/crypto-payment/migrations/Migration20261126180000"
import { ledgerRowOf } from "../../helpers/ledger"

// the list's rows are written here directly; the display id tests pay a real order through the sandbox

const LIST = "/admin/crypto/payments"

/** A ledger row of the seed: `at` is its created_at (UTC, microseconds), none for the transaction's now(). */
type Seed = {
  key: string
  at?: string
  status: "PENDING" | "COMPLETED" | "EXPIRED"
  coin: string | null
  flags?: Array<"paid_late" | "needs_attention" | "refund_owed">
  order_id?: string
  order_display_id?: number
  deleted?: boolean
}

/**
 * Four rows written in one transaction (the same created_at: ties ordered by id), four in one
 * millisecond (a cursor with milliseconds would skip them), the edges of June 2020 for [from, to), a
 * soft-deleted row, and rows of two orders (one known by its display id alone).
 */
const TIES: Seed[] = [
  { key: "list_01", status: "PENDING", coin: "BTC" },
  { key: "list_02", status: "COMPLETED", coin: "ETH", flags: ["paid_late"] },
  { key: "list_03", status: "PENDING", coin: "BTC" },
  { key: "list_04", status: "EXPIRED", coin: "LTC" },
]
const DATED: Seed[] = [
  { key: "list_05", at: "2020-06-15T10:00:00.000001Z", status: "COMPLETED", coin: "LTC" },
  { key: "list_06", at: "2020-06-15T10:00:00.000002Z", status: "COMPLETED", coin: "BTC", flags: ["needs_attention"] },
  {
    key: "list_07",
    at: "2020-06-15T10:00:00.000003Z",
    status: "EXPIRED",
    coin: "BTC",
    flags: ["paid_late", "refund_owed"],
  },
  { key: "list_08", at: "2020-06-15T10:00:00.000004Z", status: "PENDING", coin: null },
  { key: "list_09", at: "2020-06-01T00:00:00.000000Z", status: "COMPLETED", coin: "BTC" },
  { key: "list_10", at: "2020-05-31T23:59:59.999999Z", status: "EXPIRED", coin: "LTC" },
  { key: "list_11", at: "2020-06-30T23:59:59.999999Z", status: "PENDING", coin: "BTC" },
  { key: "list_12", at: "2020-07-01T00:00:00.000000Z", status: "COMPLETED", coin: "ETH" },
  {
    key: "list_13",
    at: "2020-06-10T00:00:00.000000Z",
    status: "COMPLETED",
    coin: "BTC",
    flags: ["paid_late"],
    deleted: true,
  },
  { key: "list_14", at: "2020-04-01T00:00:00.000000Z", status: "COMPLETED", coin: "ETH", order_id: "order_01LISTA" },
  {
    key: "list_15",
    at: "2020-04-01T00:00:00.000000Z",
    status: "COMPLETED",
    coin: "ETH",
    order_id: "order_01LISTB",
    order_display_id: 90001,
  },
]
const SEEDS = [...TIES, ...DATED]

/** The service's payment id of a seed (the API's `id`). */
const paymentIdOf = (seed: Seed) => `pay_${seed.key}`

/** The list's order, worked out here: newest first (the transaction's rows are the newest), ties by id, descending. */
function newestFirst(seeds: Seed[]): string[] {
  const at = (seed: Seed) => seed.at ?? "9999"
  return seeds
    .filter((seed) => !seed.deleted)
    .sort((a, b) => (at(a) === at(b) ? (a.key < b.key ? 1 : -1) : at(a) < at(b) ? 1 : -1))
    .map(paymentIdOf)
}

const ids = (page: { payments: Array<{ id: string }> }) => page.payments.map((p) => p.id)

export function adminPaymentsListTests(
  { api, getContainer }: CryptoSuite,
  sandbox: SandboxHandle,
  fileShop: () => CryptoStore
) {
  let admin: AdminHeaders
  // the job's tick copies display ids too: held, so the tests drive every copy
  holdReconciliationInEachTest(getContainer)

  const db = (): Knex => getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const cryptoPayment = (): CryptoPaymentModuleService => getContainer().resolve(CRYPTO_PAYMENT_MODULE)

  /** Writes a seed as the provider writes a row, with its created_at, status, coin, flags and order. */
  const insert = async (trx: Knex | Knex.Transaction, seed: Seed) => {
    const flags = seed.flags ?? []
    await trx.raw(
      `insert into "crypto_payment" ("id", "payment_id", "session_id", "provider_id", "kind", "base_amount", "base_currency",
           "status", "coin", "created_at", "order_id", "order_display_id", "deleted_at"${flags.map((f) => `, "${f}"`).join("")})
         values (?, ?, ?, 'pp_crypto_crypto', 'payment', '25.00', 'USD', ?, ?, coalesce(?::timestamptz, now()), ?, ?,
           ${seed.deleted ? "now()" : "null"}${flags.map(() => ", true").join("")})`,
      [
        `cryptopay_${seed.key}`,
        paymentIdOf(seed),
        `payses_${seed.key}`,
        seed.status,
        seed.coin,
        seed.at ?? null,
        seed.order_id ?? null,
        seed.order_display_id ?? null,
      ]
    )
  }

  const seed = async () => {
    await db().transaction(async (trx) => {
      for (const s of TIES) await insert(trx, s)
    })
    for (const s of DATED) await insert(db(), s)
  }

  /** The list's answer to some query parts ("status=PENDING", "limit=2" …). */
  const list = async (...parts: string[]) => (await api.get(`${LIST}?${parts.filter(Boolean).join("&")}`, admin)).data

  /**
   * Every page of a query, `limit` a page, from the first to the last by next_cursor, then back to the
   * first by prev_cursor: both ways must show the same rows, each once, in the same order.
   */
  const walk = async (query: string, limit: number): Promise<string[]> => {
    const forward: string[][] = []
    let page = await list(query, `limit=${limit}`)
    expect(page.prev_cursor).toBeNull()
    for (;;) {
      expect(page.limit).toBe(limit)
      expect(page.payments.length).toBeLessThanOrEqual(limit)
      forward.push(ids(page))
      if (!page.next_cursor) break
      expect(page.payments.length).toBe(limit)
      page = await list(query, `limit=${limit}`, `cursor=${page.next_cursor}`)
    }
    const back: string[][] = [forward[forward.length - 1]]
    while (page.prev_cursor) {
      page = await list(query, `limit=${limit}`, `cursor=${page.prev_cursor}`)
      expect(page.next_cursor).not.toBeNull()
      back.unshift(ids(page))
    }
    expect(back.flat()).toEqual(forward.flat())
    return forward.flat()
  }

  describe("keyset pages", () => {
    beforeEach(async () => {
      admin = fileShop().admin
      await seed()
    })

    it("answers a page with its cursors, and no count", async () => {
      const page = await list("limit=3")
      expect(Object.keys(page).sort()).toEqual(["limit", "next_cursor", "payments", "prev_cursor"])
      expect(page).toMatchObject({ limit: 3, prev_cursor: null, next_cursor: expect.stringMatching(/^[\w-]+$/) })
      expect(ids(page)).toEqual(newestFirst(SEEDS).slice(0, 3))
      expect(page.payments[0]).toMatchObject({ order_display_id: null, status: expect.any(String) })
    })

    it.each([2, 3])(
      "walks every page forward and back, %i a page: each row once, newest first, ties and microseconds kept",
      async (limit) => {
        // the created_at of the transaction's rows is one value, to the microsecond
        const { rows } = await db().raw(
          `select count(distinct "created_at")::int as "times" from "crypto_payment" where "id" = any(?)`,
          [TIES.map((s) => `cryptopay_${s.key}`)]
        )
        expect(rows[0].times).toBe(1)
        expect(await walk("", limit)).toEqual(newestFirst(SEEDS))
      }
    )

    it.each([
      ["status", "status=COMPLETED", (s: Seed) => s.status === "COMPLETED"],
      ["flag", "flag=paid_late", (s: Seed) => !!s.flags?.includes("paid_late")],
      ["flag needs_attention", "flag=needs_attention", (s: Seed) => !!s.flags?.includes("needs_attention")],
      ["coin", "coin=BTC", (s: Seed) => s.coin === "BTC"],
      [
        "date range [from, to)",
        "created_from=2020-06-01T00:00:00Z&created_to=2020-07-01T00:00:00Z",
        (s: Seed) => !!s.at && s.at >= "2020-06-01T00:00:00.000000Z" && s.at < "2020-07-01T00:00:00.000000Z",
      ],
      [
        "date range with offsets (%2B is the '+')",
        "created_from=2020-06-01T02:00:00%2B02:00&created_to=2020-06-30T20:00:00-04:00",
        (s: Seed) => !!s.at && s.at >= "2020-06-01T00:00:00.000000Z" && s.at < "2020-07-01T00:00:00.000000Z",
      ],
      [
        "created_from alone",
        "created_from=2020-06-15T10:00:00.000003Z",
        (s: Seed) => !s.at || s.at >= "2020-06-15T10:00:00.000003Z",
      ],
      [
        "created_to alone",
        "created_to=2020-06-01T00:00:00Z",
        (s: Seed) => !!s.at && s.at < "2020-06-01T00:00:00.000000Z",
      ],
      ["order id", "order=order_01LISTA", (s: Seed) => s.order_id === "order_01LISTA"],
      ["order_id (as before)", "order_id=order_01LISTA", (s: Seed) => s.order_id === "order_01LISTA"],
      ["display id", "order=90001", (s: Seed) => s.order_display_id === 90001],
      ["display id with #", "order=%2390001", (s: Seed) => s.order_display_id === 90001],
      ["a display id no payment has", "order=777", () => false],
      [
        "status, coin and dates together",
        "status=COMPLETED&coin=BTC&created_from=2020-06-01T00:00:00Z&created_to=2020-07-01T00:00:00Z",
        (s: Seed) =>
          s.status === "COMPLETED" &&
          s.coin === "BTC" &&
          !!s.at &&
          s.at >= "2020-06-01T00:00:00.000000Z" &&
          s.at < "2020-07-01T00:00:00.000000Z",
      ],
      [
        "flag and status together",
        "flag=paid_late&status=EXPIRED",
        (s: Seed) => !!s.flags?.includes("paid_late") && s.status === "EXPIRED",
      ],
      [
        "order and coin together",
        "order=order_01LISTB&coin=ETH&status=COMPLETED",
        (s: Seed) => s.order_id === "order_01LISTB",
      ],
    ])("filters by %s, every page of it", async (_, query, keep) => {
      const expected = newestFirst(SEEDS.filter(keep))
      for (const limit of [2, 3]) expect(await walk(query, limit)).toEqual(expected)
    })

    it("never lists a soft-deleted row", async () => {
      expect(await walk("", 200)).not.toContain("pay_list_13")
      expect(await walk("flag=paid_late", 2)).not.toContain("pay_list_13")
    })

    it("keeps answering the deprecated offset, with its count, said deprecated in its headers", async () => {
      const expected = newestFirst(SEEDS)
      const first = await api.get(`${LIST}?offset=0&limit=3`, admin)
      expect(first.data).toMatchObject({ count: expected.length, limit: 3, offset: 0 })
      expect(ids(first.data)).toEqual(expected.slice(0, 3))
      expect(first.headers.deprecation).toMatch(/^@\d+$/)
      expect(first.headers.warning).toMatch(/^299 - "offset is deprecated/)
      const second = (await api.get(`${LIST}?offset=3&limit=3&status=COMPLETED`, admin)).data
      const completed = newestFirst(SEEDS.filter((s) => s.status === "COMPLETED"))
      expect(second).toMatchObject({ count: completed.length, offset: 3 })
      expect(ids(second)).toEqual(completed.slice(3, 6))
      // the keyset pages say nothing of it
      expect((await api.get(`${LIST}?limit=3`, admin)).headers.deprecation).toBeUndefined()
    })

    it.each([
      ["a cursor it never handed out", "cursor=bm90LWEtY3Vyc29y", /cursor is not one this list handed out/],
      [
        "a cursor with milliseconds only",
        `cursor=${Buffer.from(JSON.stringify(["n", "2020-06-15T10:00:00.000Z", "cryptopay_list_05"])).toString("base64url")}`,
        /cursor/,
      ],
      ["a date without its offset", "created_from=2020-06-01T00:00:00", /created_from must be an ISO 8601/],
      ["a day for created_to", "created_to=2020-07-01", /created_to must be an ISO 8601/],
      ["February 30th", "created_from=2020-02-30T00:00:00Z", /created_from must be an ISO 8601/],
      [
        "created_to before created_from",
        "created_from=2020-07-01T00:00:00Z&created_to=2020-06-01T00:00:00Z",
        /created_to must be later than created_from/,
      ],
      ["a cursor with an offset", "offset=3&cursor=abc", /cursor/],
      ["an order that is none", "order=cart_01", /order must be an order id/],
      ["a coin the service has not", "coin=DOGE", /coin/],
      ["a flag the ledger has not", "flag=rich", /flag/],
      ["an unknown parameter", "page=2", /page/],
    ])("answers 400 naming the field for %s", async (_, query, message) => {
      const res = await failing(api.get(`${LIST}?${query}`, admin))
      expect(res.status).toBe(400)
      expect(res.data.message).toMatch(message)
    })
  })

  describe("the order's display id", () => {
    let shop: CryptoStore

    beforeEach(async () => {
      shop = fileShop()
      admin = shop.admin
      await sandbox.control().setWebhooks({ enabled: false })
    })

    const displayIdOf = async (orderId: string): Promise<number> =>
      (await api.get(`/admin/orders/${orderId}?fields=id,display_id`, shop.admin)).data.order.display_id
    const displayIdsOf = async (paymentIds: string[]) =>
      (
        await db().raw(`select "payment_id", "order_display_id" from "crypto_payment" where "payment_id" = any(?)`, [
          paymentIds,
        ])
      ).rows.reduce(
        (all: Record<string, number | null>, r: { payment_id: string; order_display_id: number | null }) => ({
          ...all,
          [r.payment_id]: r.order_display_id,
        }),
        {}
      )

    it("is written with the order at capture, shown in the list, and filters by number or id", async () => {
      const { order, paymentId } = await paidCryptoOrder(api, shop, sandbox.control())
      const displayId = await displayIdOf(order.id)
      expect(displayId).toEqual(expect.any(Number))
      expect((await ledgerRowOf(getContainer(), paymentId)).order_display_id).toBe(displayId)

      for (const ref of [String(displayId), `%23${displayId}`, order.id]) {
        const page = await list(`order=${ref}`)
        expect(ids(page)).toEqual([paymentId])
        expect(page.payments[0]).toMatchObject({ order_id: order.id, order_display_id: displayId })
      }
      expect(ids(await list(`order=${displayId}&order_id=${order.id}&status=COMPLETED`))).toEqual([paymentId])
      expect(ids(await list(`order=${displayId}&status=EXPIRED`))).toEqual([])
      expect(ids(await list(`order=${displayId + 1000}`))).toEqual([])
    })

    it("finds an order still awaiting payment by its number, through its payment collection", async () => {
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
      const { order } = await completeCart(api, shop, cart.id)
      const displayId = await displayIdOf(order.id)
      expect(ids(await list(`order=${displayId}`))).toEqual([session.data.paymentId])
      expect(ids(await list(`order=${order.id}`))).toEqual([session.data.paymentId])
    })

    it("is copied onto older rows by the job's backfill, a batch at a time, and by the migration", async () => {
      const { order, paymentId } = await paidCryptoOrder(api, shop, sandbox.control())
      const displayId = await displayIdOf(order.id)
      // rows written before the column existed: the order, no display id; one whose order is unknown here
      for (const key of ["bf_1", "bf_2", "bf_3"]) {
        await insert(db(), {
          key,
          at: "2020-01-01T00:00:00.000000Z",
          status: "COMPLETED",
          coin: "BTC",
          order_id: order.id,
        })
      }
      await insert(db(), { key: "bf_gone", status: "COMPLETED", coin: "BTC", order_id: "order_01GONE" })
      await db().raw(`update "crypto_payment" set "order_display_id" = null where "payment_id" = ?`, [paymentId])
      const copied = ["pay_bf_1", "pay_bf_2", "pay_bf_3", paymentId]

      // at most 3 rows read a call, on from where the last stopped: 4 copied over the calls, then none
      const copies: number[] = []
      for (let call = 0; call < 4; call++) copies.push(await cryptoPayment().paymentList.backfillOrderDisplayIds(3))
      expect(Math.max(...copies)).toBeLessThanOrEqual(3)
      expect(copies.reduce((a, b) => a + b, 0)).toBe(4)
      expect(await cryptoPayment().paymentList.backfillOrderDisplayIds(3)).toBe(0)
      expect(await displayIdsOf([...copied, "pay_bf_gone"])).toEqual({
        ...Object.fromEntries(copied.map((id) => [id, displayId])),
        pay_bf_gone: null,
      })
      const page = await list(`order=${displayId}&limit=10`)
      expect(new Set(ids(page))).toEqual(new Set(copied))
      expect(page.payments.every((p: { order_display_id: number }) => p.order_display_id === displayId)).toBe(true)

      // a database that had orders before the migration: its own copy, run again (every statement is idempotent)
      await db().raw(`update "crypto_payment" set "order_display_id" = null`)
      const migration = new Migration20261126180000(undefined as never, undefined as never)
      await migration.up()
      for (const sql of migration.getQueries()) await db().raw(sql as string)
      expect(await displayIdsOf([...copied, "pay_bf_gone"])).toEqual({
        ...Object.fromEntries(copied.map((id) => [id, displayId])),
        pay_bf_gone: null,
      })
    })
  })
}
