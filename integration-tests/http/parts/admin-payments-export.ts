import type { CryptoSuite } from "../../helpers/runner"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { Knex } from "knex"
import type { AdminHeaders } from "../../helpers/admin"
import { CryptoStore, failing } from "../../helpers/checkout"
import { holdReconciliationInEachTest } from "../../helpers/reconciliation"
import { EXPORT_BATCH_SIZE_ENV } from "../../../src/modules/crypto-payment/payment-export"

// the ledger is written here directly: no payment goes through the service

const EXPORT = "/admin/crypto/payments/export"
const MARCH = "from=2026-03-01T00:00:00Z&to=2026-04-01T00:00:00Z"
const BOM = "\uFEFF"
const PAYMENTS_HEADER =
  "created_at,settled_at,payment_id,kind,order_id,order_display_id,status,verdict,coin,required,received," +
  "confirmations,store_currency,store_amount,usd_amount,exchange_rate,rate_source,rate_published_on,coin_price," +
  "flags,owed_coin,owed_store,excess_coin,excess_store,late_coin,late_store,refunded_coin,refunded_store," +
  "sent_coin,sent_store,last_sent_at,references,remainder_of\r\n"
const REFUNDS_HEADER =
  "as_of,owed_id,payment_id,order_id,order_display_id,kind,in_period,coin,coin_amount,store_currency,store_amount," +
  "created_at,sent_at,reference,refund_address,refund_coin,basis,fee_percent,payment_coin_price," +
  "payment_exchange_rate\r\n"
/** A reference a spreadsheet would run as a formula (OWASP's example). */
const FORMULA = "=cmd|' /C calc'!A0"

/**
 * The accounting export (issue 37): GET /admin/crypto/payments/export streams the ledger as CSV, read in
 * keyset batches. Exact bytes for a small ledger; batches crossed on rows created in the same microsecond.
 */
export function adminPaymentsExportTests({ api, getContainer }: CryptoSuite, fileShop: () => CryptoStore) {
  let admin: AdminHeaders
  holdReconciliationInEachTest(getContainer)

  beforeEach(() => {
    admin = fileShop().admin
  })

  afterEach(async () => {
    delete process.env[EXPORT_BATCH_SIZE_ENV]
  })

  const db = (): Knex => getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)

  /** Inserts rows as given (column → value) into a table of the plugin. */
  const insert = async (table: "crypto_payment" | "crypto_owed_amount", rows: Array<Record<string, unknown>>) => {
    for (const row of rows) {
      const columns = Object.keys(row)
      await db().raw(
        `insert into "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) values (${columns.map(() => "?").join(", ")})`,
        columns.map((c) => row[c] as Knex.Value)
      )
    }
  }

  /** A ledger row as the provider writes one, with `fields` over it. */
  const payment = (key: string, createdAt: string, fields: Record<string, unknown> = {}) => ({
    id: `cryptopay_${key}`,
    payment_id: `pay_${key}`,
    session_id: `payses_${key}`,
    provider_id: "pp_crypto_crypto",
    kind: "payment",
    base_amount: "25.00",
    base_currency: "USD",
    created_at: createdAt,
    ...fields,
  })

  /** The export's body as bytes, decoded (axios would drop the byte order mark from a string). */
  const exported = async (query: string) => {
    const res = await api.get(`${EXPORT}?${query}`, { ...admin, responseType: "arraybuffer" })
    return { res, text: Buffer.from(res.data).toString("utf8") }
  }

  describe("who may export, and what period", () => {
    it("answers 401 without an admin", async () => {
      const res = await failing(api.get(`${EXPORT}?${MARCH}`))
      expect(res.status).toBe(401)
    })

    it.each([
      ["no from", "to=2026-04-01T00:00:00Z", /'from' is required/],
      ["from without an offset", "from=2026-03-01T00:00:00&to=2026-04-01T00:00:00Z", /from must be an ISO 8601/],
      ["a day for to", "from=2026-03-01T00:00:00Z&to=2026-04-01", /to must be an ISO 8601/],
      ["February 30th", "from=2026-02-30T00:00:00Z&to=2026-04-01T00:00:00Z", /from must be an ISO 8601/],
      ["to before from", "from=2026-04-01T00:00:00Z&to=2026-03-01T00:00:00Z", /to must be later than from/],
      ["to equal to from", "from=2026-04-01T00:00:00Z&to=2026-04-01T02:00:00%2B02:00", /to must be later than from/],
      // Medusa words an enum's refusal itself: "Expected: 'payments, refunds' for field 'kind', but got: 'orders'"
      ["an unknown kind", `${MARCH}&kind=orders`, /'payments, refunds' for field 'kind'/],
      ["another provider's id", `${MARCH}&provider_id=pp_stripe_stripe`, /provider_id must be a crypto provider id/],
    ])("answers 400 naming the field for %s", async (_, query, message) => {
      const res = await failing(api.get(`${EXPORT}?${query}`, admin))
      expect(res.status).toBe(400)
      expect(res.data.message).toMatch(message)
    })
  })

  describe("payments", () => {
    beforeEach(async () => {
      await insert("crypto_payment", [
        // at the period's first instant: in it
        payment("exp_a", "2026-03-01 00:00:00+00", {
          coin: "BTC",
          crypto_amount: "0.00038462",
          required_amount: "0.00038462",
          received_amount: "0.00038462",
          confirmations: 3,
          status: "COMPLETED",
          outcome: "paid",
          order_id: "order_exp_a",
          order_display_id: 1001,
          applied: "capture",
          settled: true,
          settled_at: "2026-03-01 00:10:00+00",
        }),
        // a converted EUR invoice, overpaid, with an excess owed and two refunds sent
        payment("exp_b", "2026-03-15 10:00:00.123456+00", {
          kind: "invoice",
          base_amount: "46.02",
          base_currency: "EUR",
          usd_amount: "49.90",
          exchange_rate: "1.0842",
          rate_source: "ecb",
          rate_url: "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml",
          rate_published_on: "2026-03-13",
          rate_markup_percent: "0",
          coin: "ETH",
          required_amount: "0.015",
          received_amount: "0.016",
          confirmations: 12,
          status: "COMPLETED",
          outcome: "paid",
          order_id: "order_exp_b",
          order_display_id: 1002,
          overpaid: true,
          refund_owed: true,
          settled: true,
          settled_at: "2026-03-15 10:05:00.5+00",
        }),
        // another provider's invoice, no coin chosen yet, in the period's last microsecond
        payment("exp_f", "2026-03-31 23:59:59.999999+00", {
          provider_id: "pp_crypto_other",
          kind: "invoice",
          base_amount: "19.99",
        }),
        // outside: at the period's end, a microsecond before it starts, and a deleted row
        payment("exp_c", "2026-04-01 00:00:00+00"),
        payment("exp_d", "2026-02-28 23:59:59.999999+00"),
        payment("exp_e", "2026-03-10 00:00:00+00", { deleted_at: "2026-03-11 00:00:00+00" }),
      ])
      const owed = (key: string, fields: Record<string, unknown>) => ({
        id: `cryptoowed_${key}`,
        payment_id: "pay_exp_b",
        coin: "ETH",
        base_currency: "EUR",
        key,
        ...fields,
      })
      await insert("crypto_owed_amount", [
        owed("excess@0.016", {
          kind: "excess",
          coin_amount: "0.001",
          base_amount: "3.06",
          created_at: "2026-03-15 10:06:00+00",
        }),
        owed("refund_1", {
          kind: "refund",
          coin_amount: "0.0032",
          base_amount: "10.00",
          created_at: "2026-03-16 00:00:00+00",
          sent_at: "2026-03-20 09:00:00+00",
          reference: FORMULA,
        }),
        owed("refund_2", {
          kind: "refund",
          coin_amount: "0.0016",
          base_amount: "5.00",
          created_at: "2026-03-17 00:00:00+00",
          sent_at: "2026-03-21 09:00:00+00",
          reference: 'tx "a", b\nline 2',
        }),
        // withdrawn: not counted
        owed("late@0.016", {
          kind: "late",
          coin_amount: "0.016",
          base_amount: "46.02",
          created_at: "2026-03-15 10:07:00+00",
          deleted_at: "2026-03-15 10:08:00+00",
        }),
      ])
    })

    const A =
      "2026-03-01T00:00:00.000Z,2026-03-01T00:10:00.000Z,pay_exp_a,payment,order_exp_a,1001,COMPLETED,paid,BTC," +
      "0.00038462,0.00038462,3,USD,25.00,25.00,,,,64999.22000936,,,,,,,,,,,,,,\r\n"
    const B =
      "2026-03-15T10:00:00.123Z,2026-03-15T10:05:00.500Z,pay_exp_b,invoice,order_exp_b,1002,COMPLETED,paid,ETH," +
      "0.015,0.016,12,EUR,46.02,49.90,1.0842,ecb,2026-03-13,3068.00000000,overpaid refund_owed," +
      "0.00100000,3.06,0.00100000,3.06,,,0.00480000,15.00,0.00480000,15.00,2026-03-21T09:00:00.000Z," +
      `"'=cmd|' /C calc'!A0; tx ""a"", b\nline 2",\r\n`
    const F =
      "2026-03-31T23:59:59.999Z,,pay_exp_f,invoice,,,PENDING,pending,,,0,0,USD,19.99,19.99,,,,,,,,,,,,,,,,,,\r\n"

    it("streams the period's payments as CSV, byte for byte", async () => {
      const { res, text } = await exported(MARCH)
      expect(res.status).toBe(200)
      expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8")
      expect(res.headers["content-disposition"]).toBe(
        'attachment; filename="crypto-payments-2026-03-01-2026-04-01.csv"'
      )
      expect(text).toBe(BOM + PAYMENTS_HEADER + A + B + F)
      expect([...Buffer.from(res.data).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    })

    it("takes the bounds in any offset: the same instants give the same file", async () => {
      const { res, text } = await exported(
        "from=2026-03-01T01:00:00%2B01:00&to=2026-03-31T20:00:00-04:00&kind=payments"
      )
      expect(text).toBe(BOM + PAYMENTS_HEADER + A + B + F)
      expect(res.headers["content-disposition"]).toBe(
        'attachment; filename="crypto-payments-2026-03-01T010000-2026-03-31T200000.csv"'
      )
    })

    it("keeps [from, to): a row at `to` is out, one a microsecond before `to` is in", async () => {
      const { text } = await exported("from=2026-03-15T10:00:00.123457Z&to=2026-03-31T23:59:59.999999Z")
      expect(text).toBe(BOM + PAYMENTS_HEADER)
      const { text: both } = await exported("from=2026-03-15T10:00:00.123456Z&to=2026-04-01T00:00:00.000001Z")
      expect(both.split("\r\n").map((line) => line.split(",")[2])).toEqual([
        "payment_id",
        "pay_exp_b",
        "pay_exp_f",
        "pay_exp_c",
        undefined,
      ])
    })

    it("filters by provider", async () => {
      const { text } = await exported(`${MARCH}&provider_id=pp_crypto_crypto`)
      expect(text).toBe(BOM + PAYMENTS_HEADER + A + B)
    })

    it("is a file with its header only for a period without payments", async () => {
      const { res, text } = await exported("from=2025-01-01T00:00:00Z&to=2025-02-01T00:00:00Z")
      expect(res.status).toBe(200)
      expect(text).toBe(BOM + PAYMENTS_HEADER)
    })
  })

  describe("batches", () => {
    // seven payments within one millisecond, five of them in the same microsecond
    const TIES = ["0", "1", "2", "3", "4", "5", "6"]
    beforeEach(async () => {
      const at = (micros: string) => `2026-05-10 12:00:00.${micros}+00`
      await insert(
        "crypto_payment",
        // inserted out of order: the file's order is (created_at, id)
        [
          payment("tie_6", at("123457")),
          payment("tie_3", at("123456")),
          payment("tie_1", at("123456")),
          payment("tie_5", at("123456")),
          payment("tie_0", at("123455")),
          payment("tie_4", at("123456")),
          payment("tie_2", at("123456")),
        ]
      )
    })

    const mayFile = async (batchSize?: number) => {
      if (batchSize) process.env[EXPORT_BATCH_SIZE_ENV] = String(batchSize)
      else delete process.env[EXPORT_BATCH_SIZE_ENV]
      return (await exported("from=2026-05-01T00:00:00Z&to=2026-06-01T00:00:00Z")).text
    }

    it.each([1, 2, 3, 7])(
      "writes each row once, in order, across batches of %i in the same microsecond",
      async (batchSize) => {
        const text = await mayFile(batchSize)
        const ids = text
          .split("\r\n")
          .slice(1, -1)
          .map((line) => line.split(",")[2])
        expect(ids).toEqual(TIES.map((n) => `pay_tie_${n}`))
        expect(text).toBe(await mayFile())
      }
    )
  })

  describe("refunds", () => {
    beforeEach(async () => {
      // a January payment, refunded in March
      await insert("crypto_payment", [
        payment("ref_p", "2026-01-10 00:00:00+00", {
          coin: "BTC",
          crypto_amount: "0.00038462",
          required_amount: "0.00038462",
          received_amount: "0.00038462",
          status: "COMPLETED",
          outcome: "paid",
          order_id: "order_ref_p",
          order_display_id: 2001,
        }),
      ])
      const owed = (n: string, fields: Record<string, unknown>) => ({
        id: `cryptoowed_ref_${n}`,
        payment_id: "pay_ref_p",
        key: `key_${n}`,
        coin: "BTC",
        base_currency: "USD",
        ...fields,
      })
      await insert("crypto_owed_amount", [
        // created in January, sent in March: in March's file
        owed("1", {
          kind: "refund",
          coin_amount: "0.00015384",
          base_amount: "10.00",
          created_at: "2026-01-20 08:00:00+00",
          sent_at: "2026-03-02 12:00:00+00",
          reference: FORMULA,
          refund_address: "bc1qexampleaddress",
          refund_coin: "BTC",
          basis: "rate_then",
          fee_percent: "1.5",
        }),
        // created and sent in January: not in March's
        owed("4", {
          kind: "refund",
          coin_amount: "0.00007692",
          base_amount: "5.00",
          created_at: "2026-01-21 00:00:00+00",
          sent_at: "2026-01-25 00:00:00+00",
        }),
        // sent at March's first instant
        owed("6", {
          kind: "refund",
          coin_amount: "0.00007692",
          base_amount: "5.00",
          created_at: "2026-02-27 00:00:00+00",
          sent_at: "2026-03-01 00:00:00+00",
          reference: "tx 6",
        }),
        // created in March, still owed
        owed("2", {
          kind: "excess",
          coin_amount: "0.00001",
          base_amount: "0.65",
          created_at: "2026-03-05 09:30:00.25+00",
        }),
        // created in March, sent in April: not sent yet as of March's end
        owed("3", {
          kind: "late",
          coin_amount: "0.00038462",
          base_amount: "25.00",
          created_at: "2026-03-31 23:00:00+00",
          sent_at: "2026-04-02 10:00:00+00",
          reference: "tx later",
        }),
        // withdrawn
        owed("5", {
          kind: "refund",
          coin_amount: "0.00001",
          base_amount: "0.65",
          created_at: "2026-03-10 00:00:00+00",
          deleted_at: "2026-03-10 01:00:00+00",
        }),
      ])
    })

    const line = (rest: string) => `2026-04-01T00:00:00.000Z,${rest},64999.22000936,\r\n`

    it("lists the owed records created or sent in the period, as of its end, byte for byte", async () => {
      const { res, text } = await exported(`${MARCH}&kind=refunds`)
      expect(res.headers["content-disposition"]).toBe('attachment; filename="crypto-refunds-2026-03-01-2026-04-01.csv"')
      expect(text).toBe(
        BOM +
          REFUNDS_HEADER +
          line(
            "cryptoowed_ref_1,pay_ref_p,order_ref_p,2001,refund,sent,BTC,0.00015384,USD,10.00," +
              "2026-01-20T08:00:00.000Z,2026-03-02T12:00:00.000Z,'=cmd|' /C calc'!A0,bc1qexampleaddress,BTC,rate_then,1.5"
          ) +
          line(
            "cryptoowed_ref_6,pay_ref_p,order_ref_p,2001,refund,sent,BTC,0.00007692,USD,5.00," +
              "2026-02-27T00:00:00.000Z,2026-03-01T00:00:00.000Z,tx 6,,,,"
          ) +
          line(
            "cryptoowed_ref_2,pay_ref_p,order_ref_p,2001,excess,created,BTC,0.00001,USD,0.65," +
              "2026-03-05T09:30:00.250Z,,,,,,"
          ) +
          line(
            "cryptoowed_ref_3,pay_ref_p,order_ref_p,2001,late,created,BTC,0.00038462,USD,25.00," +
              "2026-03-31T23:00:00.000Z,,,,,,"
          )
      )
    })

    it("is as of now for a period that has not ended, with what was sent by now", async () => {
      const before = Date.now()
      const { text } = await exported("from=2026-03-01T00:00:00Z&to=2099-01-01T00:00:00Z&kind=refunds")
      const lines = text.slice(BOM.length).split("\r\n").slice(1, -1)
      expect(lines.map((l) => l.split(",")[1])).toEqual([
        "cryptoowed_ref_1",
        "cryptoowed_ref_6",
        "cryptoowed_ref_2",
        "cryptoowed_ref_3",
      ])
      const asOf = Date.parse(lines[0].split(",")[0])
      expect(asOf).toBeGreaterThanOrEqual(before - 1000)
      expect(asOf).toBeLessThanOrEqual(Date.now())
      expect(lines[3]).toContain(
        ",late,created sent,BTC,0.00038462,USD,25.00,2026-03-31T23:00:00.000Z,2026-04-02T10:00:00.000Z,tx later,"
      )
    })
  })
}
