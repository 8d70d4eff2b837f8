import { CUSTOMER_EMAIL_KINDS } from "../../../lib/domain/customer-email"
import { CRYPTO_PAYMENT_EVENT_NAMES } from "../../../lib/domain/payment-events"
import { EXPIRED_OWED } from "../../__tests__/fixtures"
import { translator } from "../../i18n/__tests__/messages"
import { activityLines, emailsOff, emailText, eventText, type PaymentActivityData } from "../payment-activity"
import { EMAIL_KINDS, emailKindLabel, emailLabel, EVENT_NAMES, eventLabel } from "../payment-labels"
import type { PaymentEmailView, PaymentEventView } from "../payment-types"

const en = translator("en")
const de = translator("de")
const fr = translator("fr")
const es = translator("es")

const event = (over: Partial<PaymentEventView>): PaymentEventView => ({
  name: "crypto_payment.paid",
  event_key: "cp_1:paid",
  at: "2026-11-02T10:00:00.000Z",
  delivered_at: "2026-11-02T10:00:01.000Z",
  ...over,
})

const email = (over: Partial<PaymentEmailView>): PaymentEmailView => ({
  kind: "paid",
  template: "crypto-payment-paid",
  status: "sent",
  to: "customer@example.com",
  locale: "en",
  reason: null,
  at: "2026-11-02T10:00:02.000Z",
  ...over,
})

/** A payment that owes nothing: no record names an email. */
const NOTHING_OWED: PaymentActivityData["refund"] = { records: [], coin: null }

const activity = (over: Partial<PaymentActivityData>): PaymentActivityData => ({
  events: [],
  emails: [],
  emails_enabled: true,
  refund: NOTHING_OWED,
  ...over,
})

/** A line's text without its time (which follows the machine's time zone). */
const words = (text: string) => text.split(" · ").slice(1).join(" · ")

describe("a payment's events and emails in the admin's language", () => {
  it("knows every event and every kind of email of the server (the admin keeps its own lists)", () => {
    expect([...EVENT_NAMES]).toEqual([...CRYPTO_PAYMENT_EVENT_NAMES])
    expect([...EMAIL_KINDS]).toEqual([...CUSTOMER_EMAIL_KINDS])
  })

  it("names every event in a few words, and shows one it does not know as its name", () => {
    expect(eventLabel(en, "crypto_payment.paid")).toBe("Paid")
    expect(eventLabel(en, "crypto_payment.detected")).toBe("Coins detected")
    expect(eventLabel(en, "crypto_payment.refund_owed")).toBe("Refund owed")
    expect(eventLabel(de, "crypto_payment.paid_late")).toBe("Verspätet bezahlt")
    expect(eventLabel(de, "crypto_payment.some_new_event")).toBe("crypto_payment.some_new_event")
    for (const name of EVENT_NAMES) expect(eventLabel(de, name)).not.toBe(name)
  })

  it("names every kind of email, and shows one it does not know as its code", () => {
    expect(emailKindLabel(en, "link")).toBe("Payment link")
    expect(emailKindLabel(de, "remainder")).toBe("Restbetrag-Anforderung")
    expect(emailKindLabel(de, "newsletter")).toBe("newsletter")
    for (const kind of EMAIL_KINDS) expect(emailKindLabel(de, kind)).not.toBe(kind)
  })

  it("names a refund email by what it is and the owed record it is about, never by its sent-record's key", () => {
    // rec_1 a refund of 0.2 LTC, its address given twice (chg_addr_2 the second); rec_2 excess, coins not worked out
    const { refund } = EXPIRED_OWED
    expect(emailLabel(en, "en", "refund_link:rec_1", refund)).toBe("Refund link (Refund, 0.2 LTC)")
    expect(emailLabel(en, "en", "refund_link:rec_2", refund)).toBe("Refund link (Overpaid (excess), ≈ 5.00 USD)")
    expect(emailLabel(en, "en", "refund_address:chg_addr_2", refund)).toBe("Refund address confirmed (Refund, 0.2 LTC)")
    expect(emailLabel(de, "de", "refund_link:rec_3", refund)).toBe("Erstattungslink (Verspätet bezahlt, 0,3 LTC)")
    expect(emailLabel(fr, "fr", "refund_address:chg_addr_3", refund)).toBe(
      "Adresse de remboursement confirmée (Payé en retard, 0,3 LTC)"
    )
  })

  it("names a refund email whose record the payment no longer has by its kind alone", () => {
    expect(emailLabel(en, "en", "refund_link:cryptoowed_gone", EXPIRED_OWED.refund)).toBe("Refund link")
    expect(emailLabel(es, "es", "refund_address:chg_gone", NOTHING_OWED)).toBe("Dirección de reembolso confirmada")
  })

  it("names the other emails by their kind, and one it does not know without what it is about", () => {
    expect(emailLabel(en, "en", "paid", NOTHING_OWED)).toBe("Payment received")
    expect(emailLabel(en, "en", "refund_address", NOTHING_OWED)).toBe("Refund address")
    expect(emailLabel(en, "en", "newsletter:cryptoowed_1", NOTHING_OWED)).toBe("newsletter")
  })

  it("words a refund email's line with the owed record it is about", () => {
    const [line] = activityLines(
      en,
      "en",
      activity({ emails: [email({ kind: "refund_link:rec_3" })], refund: EXPIRED_OWED.refund })
    )
    expect(words(line.text)).toBe("Email “Refund link (Paid late, 0.3 LTC)” sent to customer@example.com")
    expect(line.text).not.toContain("refund_link")
  })

  it("says when an event was not delivered yet", () => {
    expect(eventText(en, event({}))).toBe("Paid")
    expect(eventText(en, event({ delivered_at: null }))).toBe("Paid · not delivered yet")
    expect(eventText(de, event({ delivered_at: null }))).toBe("Bezahlt · noch nicht zugestellt")
  })

  it("says to whom an email went, or why it failed or was not sent", () => {
    expect(emailText(en, "en", email({}), NOTHING_OWED)).toBe("Email “Payment received” sent to customer@example.com")
    expect(emailText(en, "en", email({ status: "sending" }), NOTHING_OWED)).toBe(
      "Email “Payment received” being sent to customer@example.com"
    )
    expect(emailText(en, "en", email({ status: "failed", reason: "mailbox full" }), NOTHING_OWED)).toBe(
      "Email “Payment received” failed: mailbox full"
    )
    expect(
      emailText(
        en,
        "en",
        email({ kind: "link", status: "skipped", to: null, reason: "no email on the order" }),
        NOTHING_OWED
      )
    ).toBe("Email “Payment link” not sent: no email on the order")
    expect(emailText(de, "de", email({ kind: "expired" }), NOTHING_OWED)).toBe(
      "E-Mail „Zahlung abgelaufen“ an customer@example.com gesendet"
    )
  })

  it("words what the record leaves out, and a state it does not know", () => {
    expect(emailText(en, "en", email({ to: null }), NOTHING_OWED)).toBe("Email “Payment received” sent to no address")
    expect(emailText(en, "en", email({ status: "failed", reason: null }), NOTHING_OWED)).toBe(
      "Email “Payment received” failed: no reason given"
    )
    expect(emailText(en, "en", email({ status: "bounced" }), NOTHING_OWED)).toBe("Email “Payment received”: bounced")
  })

  it("lists events and emails together, oldest first, an event before the email it caused at the same time", () => {
    const lines = activityLines(
      en,
      "en",
      activity({
        events: [
          event({ name: "crypto_payment.paid", event_key: "k:paid", at: "2026-11-02T10:10:00.000Z" }),
          event({ name: "crypto_payment.created", event_key: "k:created", at: "2026-11-02T10:00:00.000Z" }),
        ],
        emails: [
          email({ kind: "paid", at: "2026-11-02T10:10:00.000Z" }),
          email({ kind: "link", at: "2026-11-02T10:00:05.000Z" }),
        ],
      })
    )
    expect(lines.map((line) => (line.type === "event" ? line.name : `email:${line.kind}`))).toEqual([
      "crypto_payment.created",
      "email:link",
      "crypto_payment.paid",
      "email:paid",
    ])
    expect(lines.map((line) => words(line.text))).toEqual([
      "Payment created",
      "Email “Payment link” sent to customer@example.com",
      "Paid",
      "Email “Payment received” sent to customer@example.com",
    ])
    expect(new Set(lines.map((line) => line.key)).size).toBe(lines.length)
  })

  it("starts each line with its time in the admin's language", () => {
    const at = "2026-11-02T10:00:00.000Z"
    const [line] = activityLines(de, "de", activity({ events: [event({ at, delivered_at: null })] }))
    expect(line.text).toBe(`${new Date(at).toLocaleString("de")} · Bezahlt · noch nicht zugestellt`)
    expect(line).toMatchObject({ type: "event", delivered: false })
  })

  it("says customer emails are off only when they are and none was recorded", () => {
    expect(emailsOff(activity({ emails_enabled: false }))).toBe(true)
    expect(emailsOff(activity({ emails_enabled: false, emails: [email({})] }))).toBe(false)
    expect(emailsOff(activity({ emails_enabled: true }))).toBe(false)
  })
})
