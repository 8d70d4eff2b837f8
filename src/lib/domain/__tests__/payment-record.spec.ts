import { paymentRecordFor, TimelineEntry } from "../payment-record"
import type { PaymentRead, RecordedRow } from "../payment-read"
import { completedBy, owedToRecord, refundsCount } from "../owed-to-record"
import type { PaymentDecision } from "../decision-terms"
import type { PaymentAssessment } from "../payment-assessment"
import { baseFor } from "../owed"

const NOW = new Date("2026-05-01T12:00:00.000Z")
const hours = (h: number) => new Date(NOW.getTime() + h * 3600_000)

/** A payment created an hour ago, expiring in an hour, watched a day after: PENDING, nothing flagged. */
const row: RecordedRow = {
  payment_id: "pay_1",
  session_id: "payses_1",
  remainder_of: null,
  status: "PENDING",
  coin: "BTC",
  address: "bc1q",
  required_amount: "0.00038462",
  required_confirmations: 3,
  underpaid: false,
  overpaid: false,
  paid_late: false,
  paid_twice: false,
  replaced_session: false,
  mismatch: false,
  quote_drift: false,
  accepted_short: false,
  captured_no_order: false,
  needs_attention: false,
  attention: null,
  warned: null,
  order_id: null,
  applied: null,
  settled: false,
  watch_until: hours(25),
  expires_at: hours(1),
  created_at: hours(-1),
  timeline: null,
}

const paid: PaymentAssessment = {
  outcome: "paid",
  status: "COMPLETED",
  coin: "BTC",
  address: "bc1q",
  received: "0.00038462",
  required: "0.00038462",
  confirmations: 3,
  requiredConfirmations: 3,
  underpaid: false,
  overpaid: false,
}
const pending: PaymentAssessment = { ...paid, outcome: "pending", status: "PENDING", confirmations: 1 }

const capture: PaymentDecision = {
  action: "capture",
  sessionId: "payses_1",
  settled: true,
  watchLate: false,
  flags: {},
}
const wait: PaymentDecision = { action: "none", settled: false, watchLate: false, flags: {} }

type Case = {
  assessment?: PaymentAssessment
  decision?: PaymentDecision
  row?: Partial<RecordedRow>
  /** The checkout's first payment, when not the row's default terms. */
  terms?: Partial<PaymentRead["terms"]>
  source?: string
  order_id?: string
  no_order?: boolean
  read_again_by?: string
}

function read(c: Case = {}): PaymentRead {
  return {
    read: {
      source: c.source ?? "reconcile",
      assessment: c.assessment ?? pending,
      decision: c.decision ?? wait,
      policy: { reconcileIntervalSeconds: 60 },
      ...(c.order_id ? { order_id: c.order_id } : {}),
      ...(c.no_order ? { no_order: true } : {}),
      ...(c.read_again_by ? { read_again_by: c.read_again_by } : {}),
    },
    row: { ...row, ...c.row },
    terms: { payment_id: c.row?.remainder_of ?? "pay_1", base_amount: "25.00", base_currency: "USD", ...c.terms },
    now: NOW,
  }
}

const entry = (fields: Partial<TimelineEntry>): TimelineEntry => ({
  at: hours(-0.5).toISOString(),
  source: "reconcile",
  status: "PENDING",
  outcome: "pending",
  confirmations: 1,
  received: "0.00038462",
  ...fields,
})

describe("paymentRecordFor: the status and amounts a read writes", () => {
  it.each<[string, Case, Record<string, unknown> | undefined]>([
    [
      "a read moves the row forward",
      { assessment: paid, decision: capture },
      { status: "COMPLETED", outcome: "paid", received_amount: "0.00038462", confirmations: 3 },
    ],
    ["a delayed PENDING does not overwrite COMPLETED", { row: { status: "COMPLETED" } }, undefined],
    [
      "a delayed PENDING with fewer coins does not lower what arrived",
      { assessment: { ...pending, received: "0.0001" }, row: { received_amount: "0.0002" } },
      undefined,
    ],
    [
      "more coins in the same status move it forward",
      { assessment: { ...pending, received: "0.0003" }, row: { received_amount: "0.0002" } },
      { received_amount: "0.0003" },
    ],
    [
      "EXPIRED does not overwrite COMPLETED",
      { assessment: { ...pending, status: "EXPIRED" }, row: { status: "COMPLETED" } },
      undefined,
    ],
    [
      "a remainder's row keeps its own amounts, not the pair's",
      { assessment: { ...paid, own: { received: "0.00008462", required: "0.00008462" } }, decision: capture },
      { received_amount: "0.00008462", required_amount: "0.00008462" },
    ],
    [
      "what the service does not say yet (an invoice without a coin) is kept from the row",
      {
        assessment: {
          ...pending,
          coin: undefined,
          address: undefined,
          required: undefined,
          requiredConfirmations: undefined,
        },
      },
      { coin: "BTC", address: "bc1q", required_amount: "0.00038462", required_confirmations: 3 },
    ],
  ])("%s", (_, c, status) => {
    const { fields } = paymentRecordFor(read(c))
    if (status) expect(fields).toMatchObject(status)
    else expect(fields).not.toHaveProperty("status")
  })
})

describe("paymentRecordFor: flags and attention", () => {
  it.each<[string, Case, Record<string, boolean>]>([
    ["a flag the decision raises is set", { decision: { ...wait, flags: { overpaid: true } } }, { overpaid: true }],
    ["a flag once raised is never lowered", { row: { paid_late: true } }, { paid_late: true }],
    ["nothing raised stays down", {}, { underpaid: false, paid_twice: false, mismatch: false }],
  ])("%s", (_, c, flags) => {
    expect(paymentRecordFor(read(c)).fields).toMatchObject(flags)
  })

  it.each<[string, Case, string | null]>([
    ["nothing to look at", {}, null],
    ["the decision's attention", { decision: { ...wait, attention: "Look." } }, "Look."],
    [
      "a capture that made no order says so before anything else",
      { decision: { ...capture, attention: "Look." }, no_order: true },
      "Captured, no order: the payment was captured in Medusa, but completing the cart failed after it (an item sold out meanwhile, say), so no order holds the money. Create the order by hand, or send the coins back from the service's dashboard and mark them sent.",
    ],
    [
      "past its watch and still undecided: no longer read",
      { row: { watch_until: hours(-1) } },
      "Still PENDING after the late-payment window; no longer read. Check it on the service's dashboard.",
    ],
    ["a late payment's attention lasts", { row: { paid_late: true, attention: "Paid late." } }, "Paid late."],
    [
      "a replaced session's attention lasts while it needs attention",
      { row: { replaced_session: true, needs_attention: true, attention: "Replaced." } },
      "Replaced.",
    ],
    ["an underpayment's attention does not outlive the read", { row: { underpaid: true, attention: "Short." } }, null],
  ])("%s", (_, c, attention) => {
    const { fields } = paymentRecordFor(read(c))
    expect(fields.attention).toBe(attention)
    expect(fields.needs_attention).toBe(attention !== null)
  })
})

describe("paymentRecordFor: settled, and when to read again", () => {
  const seconds = (at: Date | null) => (at ? (at.getTime() - NOW.getTime()) / 1000 : null)

  it.each<[string, Case, boolean, number | null]>([
    ["pending inside its window: every interval", {}, false, 60],
    [
      "settled inside its watch, young: at least ten intervals apart",
      { decision: capture, row: { created_at: hours(-0.1) } },
      true,
      600,
    ],
    ["settled inside its watch, an hour old: half its age", { decision: capture }, true, 1800],
    ["settled past its watch: no more reads", { decision: capture, row: { watch_until: hours(-1) } }, true, null],
    ["past its watch: settled, not read again", { row: { watch_until: hours(-1) } }, true, null],
    ["nothing can arrive: leaves the due index", { decision: { ...wait, stopReading: true } }, true, null],
    ["a kept read's notification: read by then", { read_again_by: hours(0.005).toISOString() }, false, 18],
    ["a later notification deadline does not delay the interval", { read_again_by: hours(1).toISOString() }, false, 60],
    [
      "an order held for the window: read a second after it ends",
      { decision: { ...wait, watchLate: true, holdUntilWindowEnd: true }, row: { watch_until: hours(0.01) } },
      false,
      37,
    ],
    [
      "nothing can arrive: a notification's deadline does not bring it back",
      { decision: { ...wait, stopReading: true }, read_again_by: hours(0.005).toISOString() },
      true,
      null,
    ],
  ])("%s", (_, c, settled, nextInSeconds) => {
    const { fields } = paymentRecordFor(read(c))
    expect(fields.settled).toBe(settled)
    expect(seconds(fields.next_check_at)).toBe(nextInSeconds)
    expect(fields.check_failures).toBe(0)
    expect(fields.last_checked_at).toEqual(NOW)
  })

  it.each<[string, Case, Record<string, unknown>, string[]]>([
    [
      "what settled it first is kept (setup health)",
      { decision: capture, source: "webhook" },
      { settled_at: NOW, settled_by: "webhook", last_webhook_at: NOW },
      [],
    ],
    ["settled before: not again", { decision: capture, row: { settled: true } }, {}, ["settled_at", "settled_by"]],
    ["read by the job: no webhook time", { decision: capture }, { settled_by: "reconcile" }, ["last_webhook_at"]],
    [
      "a capture with no order is marked so, with its order id null",
      { decision: capture, no_order: true },
      { captured_no_order: true, order_id: null, applied: "capture" },
      [],
    ],
    ["the order the capture made is written", { decision: capture, order_id: "order_1" }, { order_id: "order_1" }, []],
    [
      "a decision that applies nothing keeps what was applied",
      { row: { applied: "capture" } },
      { applied: "capture" },
      [],
    ],
  ])("%s", (_, c, written, absent) => {
    const { fields } = paymentRecordFor(read(c))
    expect(fields).toMatchObject(written)
    for (const key of absent) expect(fields).not.toHaveProperty(key)
  })

  it("keeps the last re-price seen, with its percent", () => {
    const drift = { coin: "BTC" as const, quoted: "0.00038462", required: "0.00040386", basisPoints: 500 }
    const { fields } = paymentRecordFor(read({ assessment: { ...pending, quoteDrift: drift } }))
    expect(fields.drift).toEqual({ coin: "BTC", quoted: "0.00038462", required: "0.00040386", percent: "5.00" })
  })
})

describe("paymentRecordFor: the timeline", () => {
  it.each<[string, Case, number, Partial<TimelineEntry> | undefined]>([
    ["the first read is an entry", {}, 1, { status: "PENDING", received: "0.00038462", source: "reconcile" }],
    ["the same read again adds none", { row: { timeline: { entries: [entry({})] } } }, 1, undefined],
    [
      "more confirmations are an entry",
      { assessment: { ...pending, confirmations: 2 }, row: { timeline: { entries: [entry({})] } } },
      2,
      { confirmations: 2 },
    ],
    [
      "what was applied is an entry",
      { assessment: paid, decision: capture, row: { timeline: { entries: [entry({})] } } },
      2,
      { applied: "capture", required: "0.00038462" },
    ],
    [
      "a new attention is an entry, with it as the note",
      { decision: { ...wait, attention: "Look." }, row: { timeline: { entries: [entry({})] } } },
      2,
      { note: "Look." },
    ],
    [
      "coins below the chain's unit kept as rounding are on the entry",
      {
        assessment: paid,
        decision: { ...capture, rounding: "0.000000211" },
        row: { timeline: { entries: [entry({})] } },
      },
      2,
      { applied: "capture", rounding: "0.000000211" },
    ],
    [
      "a note says more than the attention",
      { decision: { ...wait, attention: "Look.", note: "Noted." }, row: { timeline: { entries: [entry({})] } } },
      2,
      { note: "Noted." },
    ],
  ])("%s", (_, c, count, last) => {
    const { entries } = paymentRecordFor(read(c)).fields.timeline
    expect(entries).toHaveLength(count)
    if (last) expect(entries[entries.length - 1]).toMatchObject({ ...last, at: NOW.toISOString() })
    else expect(entries[entries.length - 1].at).not.toBe(NOW.toISOString())
  })

  it("says what the owed record written for the read is, in the timeline and the log", () => {
    const owedRecord = {
      kind: "excess",
      coin: "BTC",
      coin_amount: "0.00010000",
      base_amount: "6.50",
      base_currency: "USD",
    }
    const record = paymentRecordFor(read({ assessment: paid, decision: capture, order_id: "order_1" }), owedRecord)
    const said =
      "Owed to the customer: 0.00010000 BTC (≈ 6.50 USD, beyond what the order took). Send it from the service's dashboard, then mark it sent."
    expect(record.fields.timeline.entries[0].note).toBe(said)
    expect(record.warnings).toEqual([`owed — payment pay_1, order order_1: ${said}`])
  })

  it("says the coins as the shop sends them: rounded down to the places a wallet sends", () => {
    const owedRecord = {
      kind: "late",
      coin: "ETH",
      coin_amount: "0.003336413333333333",
      base_amount: "10.84",
      base_currency: "USD",
    }
    const record = paymentRecordFor(read({ assessment: paid, decision: capture, order_id: "order_1" }), owedRecord)
    expect(record.fields.timeline.entries[0].note).toBe(
      "Owed to the customer: 0.00333641 ETH (≈ 10.84 USD, a late payment). Send it from the service's dashboard, then mark it sent."
    )
  })
})

describe("paymentRecordFor: each flag and note is logged once", () => {
  it.each<[string, Case, string[], string[]]>([
    ["nothing flagged: nothing logged", {}, [], []],
    [
      "a flag raised is logged with the attention, and marked logged",
      { decision: { ...wait, flags: { underpaid: true }, attention: "Short." } },
      ["underpaid — payment pay_1, session payses_1: received 0.00038462 of 0.00038462 BTC. Short."],
      ["underpaid"],
    ],
    [
      "a flag logged before is not logged again",
      { decision: { ...wait, flags: { underpaid: true } }, row: { warned: { underpaid: "earlier" } } },
      [],
      ["underpaid"],
    ],
    [
      "a note stands for the flags it raises (they are marked logged too)",
      { decision: { ...capture, flags: { replaced_session: true }, note: "Captured it." }, order_id: "order_1" },
      ["notice — payment pay_1, order order_1: received 0.00038462 of 0.00038462 BTC. Captured it."],
      ["replaced_session", "note"],
    ],
    [
      "a re-price is said as one",
      {
        assessment: {
          ...pending,
          quoteDrift: { coin: "BTC", quoted: "0.00038462", required: "0.00037000", basisPoints: -380 },
        },
        decision: { ...wait, flags: { quote_drift: true } },
      },
      [
        "quote drift — payment pay_1, session payses_1: received 0.00038462 of 0.00038462 BTC. Re-priced by the service: quoted 0.00038462, required 0.00037000 BTC (-3.80 %); informational.",
      ],
      ["quote_drift"],
    ],
  ])("%s", (_, c, warnings, warned) => {
    const record = paymentRecordFor(read(c))
    expect(record.warnings).toEqual(warnings)
    expect(Object.keys(record.fields.warned).sort()).toEqual([...warned].sort())
  })
})

describe("paymentRecordFor: a remainder's capture completes its short payment", () => {
  it.each<[string, Case, { paymentId: string; remainderId?: string } | undefined]>([
    ["nothing to complete", { decision: capture }, undefined],
    ["the short payment read itself", { decision: { ...capture, completesFirst: true } }, { paymentId: "pay_1" }],
    [
      "its remainder read",
      { decision: { ...capture, completesFirst: true }, row: { remainder_of: "pay_0" } },
      { paymentId: "pay_0", remainderId: "pay_1" },
    ],
  ])("%s", (_, c, completes) => {
    expect(completedBy(read(c), c.row?.remainder_of ? [c.row.remainder_of] : [])).toEqual(
      completes && {
        paymentIds: [completes.paymentId],
        ...(completes.remainderId ? { remainderId: completes.remainderId } : {}),
      }
    )
  })
})

describe("owedToRecord: what a read owes, and on which payment", () => {
  const refund = (coins: string | null) => ({ kind: "refund", coin_amount: coins })

  it.each<[string, Case, Array<{ kind: string; coin_amount: string | null }>, unknown]>([
    ["nothing owed", { decision: capture }, [], undefined],
    [
      "the decision's excess, on the payment, keyed by what it received",
      { assessment: paid, decision: { ...capture, owed: { kind: "excess", coins: "0.0001" } } },
      [],
      {
        paymentId: "pay_1",
        owed: { kind: "excess", coins: "0.0001" },
        rate: { coin: "BTC", required: "0.00038462", baseAmount: "25.00", baseCurrency: "USD" },
        received: "0.00038462",
      },
    ],
    [
      "a pair's excess is owed on the first payment, keyed by what both received",
      {
        assessment: { ...paid, received: "0.00040000", own: { received: "0.00010000" } },
        decision: { ...capture, owed: { kind: "excess", coins: "0.00001538", pair: true } },
        row: { remainder_of: "pay_0" },
      },
      [],
      { paymentId: "pay_0", received: "0.00040000" },
    ],
    [
      "a remainder's own excess stays on it, keyed by its own coins",
      {
        assessment: { ...paid, received: "0.00040000", own: { received: "0.00010000" } },
        decision: { ...capture, owed: { kind: "excess", coins: "0.00010000" } },
        row: { remainder_of: "pay_0" },
      },
      [],
      { paymentId: "pay_1", received: "0.00010000" },
    ],
    [
      "a capture with no order owes every coin, less the refunds recorded",
      { assessment: paid, decision: capture, no_order: true },
      [refund("0.00010000"), { kind: "late", coin_amount: "0.00020000" }],
      { owed: { kind: "late", coins: "0.00028462" } },
    ],
    [
      "a capture with no order whose coins were all refunded owes nothing more",
      { assessment: paid, decision: capture, no_order: true },
      [refund("0.00038462")],
      undefined,
    ],
    [
      "captured with no order before: the late coins less the refunds",
      {
        assessment: paid,
        decision: { ...wait, settled: true, owed: { kind: "late", coins: "0.00038462" } },
        row: { captured_no_order: true },
      },
      [refund("0.00008462"), refund(null)],
      { owed: { kind: "late", coins: "0.00030000" } },
    ],
    [
      "late coins of an ordinary payment: refunds are not taken off",
      { assessment: paid, decision: { ...wait, owed: { kind: "late", coins: "0.00038462" } } },
      [refund("0.00038462")],
      { owed: { kind: "late", coins: "0.00038462" } },
    ],
    [
      "without the required amount there is no rate: nothing is written",
      {
        assessment: { ...paid, required: undefined },
        decision: { ...capture, owed: { kind: "excess", coins: "0.0001" } },
      },
      [],
      undefined,
    ],
  ])("%s", (_, c, recorded, owed) => {
    const result = owedToRecord(read(c), recorded)
    if (owed === undefined) expect(result).toBeUndefined()
    else expect(result).toMatchObject(owed as object)
  })

  it.each<[string, Case, string | undefined]>([
    ["an ordinary read: no refunds to read", { assessment: paid, decision: capture }, undefined],
    ["a capture that made no order: its refunds", { assessment: paid, decision: capture, no_order: true }, "pay_1"],
    [
      "captured with no order before: its refunds",
      { assessment: paid, decision: { ...wait, owed: { kind: "late", coins: "1" } }, row: { captured_no_order: true } },
      "pay_1",
    ],
    [
      "no order, but nothing arrived and nothing owed: none",
      { assessment: { ...paid, received: "0" }, decision: capture, no_order: true },
      undefined,
    ],
    [
      "no order, a pair's excess: the first payment's (the owner follows the decision)",
      {
        assessment: paid,
        decision: { ...capture, owed: { kind: "excess", coins: "1", pair: true } },
        no_order: true,
        row: { remainder_of: "pay_0" },
      },
      "pay_0",
    ],
  ])("refundsCount: %s", (_, c, payment) => {
    expect(refundsCount(read(c))).toBe(!!payment)
    if (payment) expect(owedToRecord(read(c))?.paymentId ?? payment).toBe(payment)
  })
})

describe("a remainder's owed coins and a capture with no order, on the checkout", () => {
  // pay_0 asked 0.01 BTC for 100.00 EUR; its remainder pay_1 asked the 0.001 left
  const terms = { payment_id: "pay_0", base_amount: "100.00", base_currency: "EUR", required_amount: "0.01" }
  const remainderRow = { remainder_of: "pay_0", required_amount: "0.001" }

  it("4. a remainder's own late coins are priced at the checkout's rate: 0.001 BTC is 10.00 EUR, not 100.00", () => {
    const late = { ...paid, received: "0.001", required: "0.001" }
    const owed = owedToRecord(
      read({
        assessment: late,
        decision: { ...wait, settled: true, owed: { kind: "late", coins: "0.001" } },
        row: remainderRow,
        terms,
      })
    )!
    expect(owed).toMatchObject({ paymentId: "pay_1", rate: { required: "0.01", baseAmount: "100.00" } })
    expect(baseFor(owed.rate, owed.owed.coins)).toBe("10.00")
  })

  it("3. a remainder's capture with no order owes the checkout's coins on the first payment, less the refund recorded there", () => {
    const pair = { ...paid, received: "0.01", required: "0.01", own: { received: "0.006", required: "0.006" } }
    const c: Case = {
      assessment: pair,
      decision: { ...capture, completesFirst: true },
      no_order: true,
      row: remainderRow,
      terms,
    }
    expect(refundsCount(read(c))).toBe(true)
    // refunds "manual": Medusa's compensation recorded a refund of the whole amount on the first payment
    expect(owedToRecord(read(c), [{ kind: "refund", coin_amount: "0.01" }])).toBeUndefined()
    // refunds "disabled": nothing recorded, every coin of the checkout is owed on the first payment
    expect(owedToRecord(read(c), [])).toMatchObject({
      paymentId: "pay_0",
      owed: { kind: "late", coins: "0.01000000", noOrder: true, pair: true },
      received: "0.01",
    })
  })

  it("7. past the watch window the full amount still confirming is read again, not left", () => {
    const record = paymentRecordFor(
      read({
        assessment: {
          ...paid,
          outcome: "expired",
          status: "EXPIRED",
          confirmations: 1,
          covered: true,
          confirmed: false,
        },
        decision: { ...wait, watchLate: true, untilConfirmed: true },
        row: { watch_until: hours(-1) },
      })
    )
    expect(record.fields.settled).toBe(false)
    expect(record.fields.next_check_at).toBeInstanceOf(Date)
    expect(record.fields.attention).toBeNull()
  })
})
