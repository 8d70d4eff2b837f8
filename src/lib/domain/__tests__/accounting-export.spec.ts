import {
  coinPrice,
  exportFileName,
  OwedForTotals,
  owedTotals,
  PAYMENT_COLUMNS,
  PaymentExportRow,
  pricedAtCheckout,
  refundColumns,
  RefundExportRow,
} from "../accounting-export"
import { csvHeader, csvRecord } from "../csv"

const payment = (over: Partial<PaymentExportRow> = {}): PaymentExportRow => ({
  created_at: "2026-11-03T10:00:00.123Z",
  settled_at: "2026-11-03T10:20:00.000Z",
  payment_id: "pay_1",
  kind: "payment",
  order_id: "order_1",
  order_display_id: 1042,
  status: "COMPLETED",
  outcome: "paid",
  coin: "BTC",
  required: "0.00038462",
  received: "0.00038462",
  confirmations: 3,
  base_currency: "USD",
  base_amount: "25.00",
  usd_amount: null,
  exchange_rate: null,
  rate_source: null,
  rate_published_on: null,
  flags: "",
  owed: null,
  ...over,
})

const owed = (over: Partial<OwedForTotals> = {}): OwedForTotals => ({
  kind: "excess",
  coin_amount: "0.00010000",
  base_amount: "6.50",
  sent_at: null,
  reference: null,
  ...over,
})

describe("the coin price a payment implies (store currency per coin)", () => {
  it.each([
    ["25.00", "0.00038462", "64999.22000936"],
    ["25.00", "0.00038461", "65000.91001274"],
    ["100.00", "100.000000", "1.00000000"],
    ["46.02", "0.015", "3068.00000000"],
    ["3500", "0.02333333", "150000.02142857"],
    ["0.00100000", "0.03", "0.03333333"],
    ["1", "3", "0.33333333"],
    ["2", "3", "0.66666667"],
  ])("%s for %s coins is %s (half-up at 8 places)", (store, coins, price) => {
    expect(coinPrice(store, coins)).toBe(price)
  })

  it.each([
    [null, "0.1"],
    ["25.00", null],
    ["25.00", "0"],
    ["0.00", "0.1"],
    ["25,00", "0.1"],
    ["25.00", "1e-5"],
    ["-25.00", "0.1"],
  ])("is unknown for %p and %p", (store, coins) => {
    expect(coinPrice(store, coins)).toBeNull()
  })
})

describe("a payment's owed records summed", () => {
  it("is null when there is none", () => {
    expect(owedTotals("BTC", "USD", [])).toBeNull()
  })

  it("sums what is still owed, each kind, and what was sent, in coins and in the store currency", () => {
    const totals = owedTotals("BTC", "USD", [
      owed({ kind: "excess", coin_amount: "0.0001", base_amount: "6.50" }),
      owed({
        kind: "refund",
        coin_amount: "0.00015384",
        base_amount: "10.00",
        sent_at: "2026-11-05T09:00:00.000Z",
        reference: "tx 1",
      }),
      owed({
        kind: "refund",
        coin_amount: "0.00007692",
        base_amount: "5.00",
        sent_at: "2026-11-07T09:00:00.000Z",
        reference: " tx 2 ",
      }),
      owed({
        kind: "late",
        coin_amount: "0.00038462",
        base_amount: "25.00",
        sent_at: "2026-11-06T09:00:00.000Z",
        reference: "tx 1",
      }),
    ])
    expect(totals).toEqual({
      owed_coin: "0.00010000",
      owed_store: "6.50",
      excess_coin: "0.00010000",
      excess_store: "6.50",
      late_coin: "0.00038462",
      late_store: "25.00",
      refunded_coin: "0.00023076",
      refunded_store: "15.00",
      sent_coin: "0.00061538",
      sent_store: "40.00",
      last_sent_at: "2026-11-07T09:00:00.000Z",
      references: "tx 1; tx 2",
    })
  })

  it("leaves a coin sum unknown when one record's coins are, the store amount still summed", () => {
    const totals = owedTotals("ETH", "EUR", [
      owed({ kind: "refund", coin_amount: null, base_amount: "5.00" }),
      owed({ kind: "refund", coin_amount: "0.001", base_amount: "2.00" }),
    ])
    expect(totals).toMatchObject({ refunded_coin: null, refunded_store: "7.00", owed_coin: null, owed_store: "7.00" })
    expect(totals).toMatchObject({ excess_coin: null, excess_store: null, sent_coin: null, sent_store: null })
    expect(totals).toMatchObject({ last_sent_at: null, references: null })
  })

  it("leaves coin sums unknown when the payment's coin is (an invoice before the coin was chosen)", () => {
    expect(owedTotals(null, "USD", [owed({ kind: "refund" })])).toMatchObject({
      refunded_coin: null,
      refunded_store: "6.50",
    })
  })

  it("sums at the store currency's decimals (JPY has none), and a text that is not a decimal leaves its sum blank", () => {
    expect(owedTotals("BTC", "JPY", [owed({ base_amount: "1500" }), owed({ base_amount: "200" })])).toMatchObject({
      excess_store: "1700",
    })
    expect(owedTotals("BTC", "USD", [owed({ coin_amount: "lots", base_amount: "x" })])).toMatchObject({
      excess_coin: null,
      excess_store: null,
    })
  })
})

describe("the payments file's lines", () => {
  it("7. names a remainder's checkout in remainder_of, the last column, so a checkout's lines can be summed", () => {
    const line = csvRecord(PAYMENT_COLUMNS, payment({ payment_id: "pay_2", remainder_of: "pay_1" }))
    expect(line.trimEnd().split(",").pop()).toBe("pay_1")
    expect(csvRecord(PAYMENT_COLUMNS, payment()).trimEnd().endsWith(",")).toBe(true)
  })

  it("6. prices a remainder at its checkout's rate: 0.004 BTC of a 0.01 BTC / 100 EUR checkout is 40.00 EUR, whatever its row says", () => {
    // R2, a remainder of R1, written at F's coins for R1's 60.00 EUR (issue 59): 24.00 recorded
    const R2 = payment({
      payment_id: "pay_r2",
      remainder_of: "pay_f",
      status: "EXPIRED",
      outcome: "expired",
      required: "0.00400000",
      received: "0.00100000",
      base_currency: "EUR",
      base_amount: "24.00",
      checkout: { base_amount: "100.00", required: "0.01000000" },
    })
    expect(pricedAtCheckout(R2)).toEqual({ storeAmount: "40.00", coinPrice: "10000.00000000" })
    const cells = csvRecord(PAYMENT_COLUMNS, R2).split(",")
    const cell = (header: string) => cells[PAYMENT_COLUMNS.findIndex((c) => c.header === header)]
    expect([cell("store_amount"), cell("coin_price")]).toEqual(["40.00", "10000.00000000"])
    // a USD remainder's USD amount is its store amount at the checkout's rate too
    const usd = { ...R2, base_currency: "USD", checkout: { base_amount: "25.00", required: "0.00038462" } }
    expect(pricedAtCheckout({ ...usd, required: "0.00008462" })).toEqual({
      storeAmount: "5.50",
      coinPrice: "64999.22000936",
    })
    // without its checkout's terms (a first payment missing from the ledger), or a first payment: as recorded
    expect(pricedAtCheckout({ ...R2, checkout: null })).toEqual({ storeAmount: "24.00", coinPrice: "6000.00000000" })
    expect(pricedAtCheckout(payment())).toEqual({ storeAmount: "25.00", coinPrice: "64999.22000936" })
  })

  it("has its header, in order", () => {
    expect(csvHeader(PAYMENT_COLUMNS)).toBe(
      "created_at,settled_at,payment_id,kind,order_id,order_display_id,status,verdict,coin,required,received," +
        "confirmations,store_currency,store_amount,usd_amount,exchange_rate,rate_source,rate_published_on,coin_price," +
        "flags,owed_coin,owed_store,excess_coin,excess_store,late_coin,late_store,refunded_coin,refunded_store," +
        "sent_coin,sent_store,last_sent_at,references,remainder_of\r\n"
    )
  })

  it("writes a USD payment: its store amount is its USD amount, nothing owed", () => {
    expect(csvRecord(PAYMENT_COLUMNS, payment())).toBe(
      "2026-11-03T10:00:00.123Z,2026-11-03T10:20:00.000Z,pay_1,payment,order_1,1042,COMPLETED,paid,BTC,0.00038462," +
        "0.00038462,3,USD,25.00,25.00,,,,64999.22000936,,,,,,,,,,,,,,\r\n"
    )
  })

  it("writes a converted EUR payment with its rate, flags and owed sums; an open invoice with blanks", () => {
    const eur = payment({
      base_currency: "EUR",
      base_amount: "46.02",
      usd_amount: "49.88",
      exchange_rate: "1.0842",
      rate_source: "ecb",
      rate_published_on: "2026-11-02",
      required: "0.015",
      received: "0.016",
      coin: "ETH",
      flags: "overpaid refund_owed",
      owed: owedTotals("ETH", "EUR", [owed({ kind: "excess", coin_amount: "0.001", base_amount: "3.06" })]),
    })
    expect(csvRecord(PAYMENT_COLUMNS, eur)).toBe(
      "2026-11-03T10:00:00.123Z,2026-11-03T10:20:00.000Z,pay_1,payment,order_1,1042,COMPLETED,paid,ETH,0.015,0.016,3," +
        "EUR,46.02,49.88,1.0842,ecb,2026-11-02,3068.00000000,overpaid refund_owed,0.00100000,3.06,0.00100000,3.06," +
        ",,,,,,,,\r\n"
    )
    const open = payment({
      kind: "invoice",
      settled_at: null,
      order_id: null,
      order_display_id: null,
      status: "PENDING",
      outcome: "pending",
      coin: null,
      required: null,
      received: null,
      confirmations: 0,
    })
    expect(csvRecord(PAYMENT_COLUMNS, open)).toBe(
      "2026-11-03T10:00:00.123Z,,pay_1,invoice,,,PENDING,pending,,,0,0,USD,25.00,25.00,,,,,,,,,,,,,,,,,,\r\n"
    )
  })
})

describe("the refunds file's lines", () => {
  const record = (over: Partial<RefundExportRow> = {}): RefundExportRow => ({
    id: "cryptoowed_1",
    payment_id: "pay_1",
    order_id: "order_1",
    order_display_id: 7,
    kind: "refund",
    coin: "BTC",
    coin_amount: "0.00015384",
    base_currency: "USD",
    base_amount: "10.00",
    created_at: "2026-03-10T08:00:00.000Z",
    sent_at: null,
    reference: null,
    refund_address: "bc1qexample",
    refund_coin: "BTC",
    basis: null,
    fee_percent: null,
    created_in: true,
    sent_in: false,
    sent_by_as_of: false,
    payment_base_amount: "25.00",
    payment_required: "0.00038462",
    payment_exchange_rate: null,
    ...over,
  })
  const columns = refundColumns("2026-04-01T00:00:00.000Z")

  it("has its header, in order", () => {
    expect(csvHeader(columns)).toBe(
      "as_of,owed_id,payment_id,order_id,order_display_id,kind,in_period,coin,coin_amount,store_currency,store_amount," +
        "created_at,sent_at,reference,refund_address,refund_coin,basis,fee_percent,payment_coin_price," +
        "payment_exchange_rate\r\n"
    )
  })

  it("writes a record created in the period and still owed at its end", () => {
    expect(csvRecord(columns, record())).toBe(
      "2026-04-01T00:00:00.000Z,cryptoowed_1,pay_1,order_1,7,refund,created,BTC,0.00015384,USD,10.00," +
        "2026-03-10T08:00:00.000Z,,,bc1qexample,BTC,,,64999.22000936,\r\n"
    )
  })

  it("writes a record sent in the period (a refund of an earlier payment) with its sending and reference", () => {
    const sent = record({
      created_at: "2026-01-20T08:00:00.000Z",
      sent_at: "2026-03-02T12:00:00.000Z",
      reference: "=HYPERLINK(1)",
      created_in: false,
      sent_in: true,
      sent_by_as_of: true,
      basis: "fixed_coins",
      fee_percent: "1.5",
    })
    expect(csvRecord(columns, sent)).toBe(
      "2026-04-01T00:00:00.000Z,cryptoowed_1,pay_1,order_1,7,refund,sent,BTC,0.00015384,USD,10.00," +
        "2026-01-20T08:00:00.000Z,2026-03-02T12:00:00.000Z,'=HYPERLINK(1),bc1qexample,BTC,fixed_coins,1.5,64999.22000936,\r\n"
    )
    expect(
      csvRecord(columns, record({ sent_in: true, sent_at: "2026-03-11T00:00:00.000Z", sent_by_as_of: true }))
    ).toContain(",refund,created sent,")
  })

  it("shows a record sent after the file's moment as not sent yet", () => {
    const later = record({ sent_at: "2026-04-02T00:00:00.000Z", reference: "tx 9", sent_by_as_of: false })
    expect(csvRecord(columns, later)).toContain(",2026-03-10T08:00:00.000Z,,,bc1qexample,")
  })
})

describe("the export's file name", () => {
  it.each([
    ["payments", "2026-11-01T00:00:00+01:00", "2026-12-01T00:00:00+01:00", "crypto-payments-2026-11-01-2026-12-01.csv"],
    ["payments", "2026-11-01T00:00:00Z", "2026-11-01T15:30:00.5Z", "crypto-payments-2026-11-01-2026-11-01T153000.csv"],
    [
      "refunds",
      "2026-03-01T00:00:00.000000-05:00",
      "2026-04-01T00:00:00-04:00",
      "crypto-refunds-2026-03-01-2026-04-01.csv",
    ],
  ] as const)("names a %s file from %s to %s %s", (kind, from, to, name) => {
    expect(exportFileName(kind, from, to)).toBe(name)
  })
})
