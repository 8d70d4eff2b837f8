import { CUSTOMER_EMAIL_KINDS } from "../../../lib/domain/customer-email"
import { CRYPTO_PAYMENT_EVENT_NAMES } from "../../../lib/domain/payment-events"
import { translator } from "../../i18n/__tests__/messages"
import { activityLines, emailsOff, emailText, eventText, type PaymentActivityData } from "../payment-activity"
import { EMAIL_KINDS, emailKindLabel, EVENT_NAMES, eventLabel } from "../payment-labels"
import type { PaymentEmailView, PaymentEventView } from "../payment-types"

const en = translator("en")
const de = translator("de")

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

const activity = (over: Partial<PaymentActivityData>): PaymentActivityData => ({
  events: [],
  emails: [],
  emails_enabled: true,
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

  it("says when an event was not delivered yet", () => {
    expect(eventText(en, event({}))).toBe("Paid")
    expect(eventText(en, event({ delivered_at: null }))).toBe("Paid · not delivered yet")
    expect(eventText(de, event({ delivered_at: null }))).toBe("Bezahlt · noch nicht zugestellt")
  })

  it("says to whom an email went, or why it failed or was not sent", () => {
    expect(emailText(en, email({}))).toBe("Email “Payment received” sent to customer@example.com")
    expect(emailText(en, email({ status: "sending" }))).toBe(
      "Email “Payment received” being sent to customer@example.com"
    )
    expect(emailText(en, email({ status: "failed", reason: "mailbox full" }))).toBe(
      "Email “Payment received” failed: mailbox full"
    )
    expect(emailText(en, email({ kind: "link", status: "skipped", to: null, reason: "no email on the order" }))).toBe(
      "Email “Payment link” not sent: no email on the order"
    )
    expect(emailText(de, email({ kind: "expired" }))).toBe(
      "E-Mail „Zahlung abgelaufen“ an customer@example.com gesendet"
    )
  })

  it("words what the record leaves out, and a state it does not know", () => {
    expect(emailText(en, email({ to: null }))).toBe("Email “Payment received” sent to no address")
    expect(emailText(en, email({ status: "failed", reason: null }))).toBe(
      "Email “Payment received” failed: no reason given"
    )
    expect(emailText(en, email({ status: "bounced" }))).toBe("Email “Payment received”: bounced")
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
