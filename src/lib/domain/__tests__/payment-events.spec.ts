import {
  attentionKey,
  CryptoPaymentEvents as E,
  CRYPTO_PAYMENT_EVENT_NAMES,
  EventRecordFields,
  EventRowBefore,
  onceKey,
  owedKey,
  owedRecordKeyOf,
  recordEventsOf,
} from "../payment-events"

const before: EventRowBefore = {
  payment_id: "pay_1",
  status: "PENDING",
  received_amount: null,
  underpaid: false,
  overpaid: false,
  paid_late: false,
  needs_attention: false,
  attention: null,
}
const after = (over: Partial<EventRecordFields> = {}): EventRecordFields => ({
  status: "PENDING",
  outcome: "pending",
  received_amount: "0",
  underpaid: false,
  overpaid: false,
  paid_late: false,
  needs_attention: false,
  attention: null,
  ...over,
})
const none = { action: "none", captured: false }
const names = (events: Array<{ name: string }>) => events.map((e) => e.name)

describe("the events a read's record makes", () => {
  it.each([
    ["nothing changed", before, after(), none, []],
    ["coins seen while pending", before, after({ received_amount: "0.0001" }), none, [E.DETECTED]],
    [
      "coins seen before: no second detected",
      { ...before, received_amount: "0.0001" },
      after({ received_amount: "0.0002" }),
      none,
      [],
    ],
    [
      "zero written with decimals is still nothing",
      before,
      after({ received_amount: "0.000000000000000000" }),
      none,
      [],
    ],
    [
      "first read already COMPLETED: paid, not detected",
      before,
      after({ status: "COMPLETED", outcome: "paid", received_amount: "1" }),
      { action: "capture", captured: true },
      [E.PAID],
    ],
    [
      "captured earlier (the storefront's completion)",
      { ...before, status: "COMPLETED", received_amount: "1" },
      after({ status: "COMPLETED", outcome: "paid", received_amount: "1" }),
      { action: "none", captured: true },
      [E.PAID],
    ],
    [
      "expired, order canceled",
      before,
      after({ status: "EXPIRED", outcome: "expired" }),
      { action: "cancel_order", captured: false },
      [E.EXPIRED],
    ],
    [
      "failed, session closed",
      before,
      after({ status: "FAILED", outcome: "failed" }),
      { action: "cancel_session", captured: false },
      [E.EXPIRED],
    ],
    [
      "expired, nothing applied (held for the late window)",
      before,
      after({ status: "EXPIRED", outcome: "expired" }),
      none,
      [],
    ],
    [
      "paid late closes its session: not expired",
      before,
      after({ status: "EXPIRED", outcome: "paid", paid_late: true, received_amount: "1" }),
      { action: "cancel_session", captured: false },
      [E.PAID_LATE],
    ],
    [
      "short and expired",
      before,
      after({ status: "EXPIRED", outcome: "expired", underpaid: true, received_amount: "0.5" }),
      { action: "cancel_order", captured: false },
      [E.UNDERPAID, E.EXPIRED],
    ],
    [
      "overpaid and paid",
      before,
      after({ status: "COMPLETED", outcome: "paid", overpaid: true, received_amount: "2" }),
      { action: "capture", captured: true },
      [E.OVERPAID, E.PAID],
    ],
    ["a flag already raised is not raised again", { ...before, overpaid: true }, after({ overpaid: true }), none, []],
    ["attention raised", before, after({ needs_attention: true, attention: "look" }), none, [E.NEEDS_ATTENTION]],
    [
      "attention already there, other words: nothing new",
      { ...before, needs_attention: true, attention: "a" },
      after({ needs_attention: true, attention: "b" }),
      none,
      [],
    ],
  ] as const)("%s", (_why, row, fields, effect, expected) => {
    expect(names(recordEventsOf(row, fields, effect))).toEqual(expected)
  })

  it("gives the same keys for the same transition, whoever records it", () => {
    const fields = after({
      status: "COMPLETED",
      outcome: "paid",
      received_amount: "1",
      needs_attention: true,
      attention: "x",
    })
    const effect = { action: "capture", captured: true }
    expect(recordEventsOf(before, fields, effect)).toEqual(recordEventsOf(before, fields, effect))
    expect(recordEventsOf(before, fields, effect).map((e) => e.key)).toEqual(["pay_1:paid", attentionKey("pay_1", "x")])
  })

  it("keys attention per reason and owed money per record", () => {
    expect(attentionKey("pay_1", "a")).not.toBe(attentionKey("pay_1", "b"))
    expect(attentionKey("pay_1", "a")).toMatch(/^pay_1:needs_attention:[0-9a-f]{16}$/)
    expect(owedKey("pay_1", "excess@1.5")).toBe("pay_1:refund_owed:excess@1.5")
    expect(onceKey("pay_1", E.CREATED)).toBe("pay_1:created")
    expect(owedRecordKeyOf("pay_1", owedKey("pay_1", "refund:ref_1"))).toBe("refund:ref_1")
    expect(owedRecordKeyOf("pay_1", owedKey("pay_2", "refund:ref_1"))).toBeUndefined()
    expect(owedRecordKeyOf("pay_1", "pay_1:paid")).toBeUndefined()
    expect(owedRecordKeyOf("pay_1", "pay_1:refund_owed:")).toBeUndefined()
  })

  it("names every event crypto_payment.<what>, nine in all", () => {
    expect(CRYPTO_PAYMENT_EVENT_NAMES).toHaveLength(9)
    for (const name of CRYPTO_PAYMENT_EVENT_NAMES) expect(name).toMatch(/^crypto_payment\.[a-z_]+$/)
  })
})
