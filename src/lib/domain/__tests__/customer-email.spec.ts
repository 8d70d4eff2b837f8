import { customerEmailData, emailKindOfEvent, emailLocale } from "../customer-email"
import { refundEmailOf } from "../refund-email"
import { emailPayment } from "./email-fixtures"

const payment = emailPayment
const order = { id: "order_1", display_id: 12, email: "ada@example.com", locale: "fr-FR" }
const links = { storefrontUrl: "https://shop.example/", orderPath: "/order/{order_id}" }

describe("customer emails", () => {
  it.each([
    ["crypto_payment.created", null, undefined],
    ["crypto_payment.created", "pay_0", "remainder"],
    ["crypto_payment.detected", null, "detected"],
    ["crypto_payment.paid", null, "paid"],
    ["crypto_payment.expired", null, "expired"],
    ["crypto_payment.refund_owed", null, undefined],
    ["crypto_payment.refund_owed", "pay_0", undefined],
    ["crypto_payment.underpaid", null, undefined],
    ["order.placed", null, undefined],
  ])("%s (remainder of %s) sends %s", (name, remainderOf, kind) => {
    expect(emailKindOfEvent(name, { remainder_of: remainderOf })).toBe(kind)
  })

  it.each([
    ["fr-FR", "fr"],
    ["pt_BR", "pt"],
    ["DE", "de"],
    [null, "en"],
    ["", "en"],
    ["not a locale!", "en"],
  ])("locale %s is %s", (locale, language) => {
    expect(emailLocale(locale, "en")).toBe(language)
  })

  it("the link carries what to pay, where and until when", () => {
    const data = customerEmailData("link", payment, order, links, "fr")
    expect(data).toMatchObject({
      kind: "link",
      locale: "fr",
      order_display_id: "12",
      order_url: "https://shop.example/order/order_1",
      store_amount: "25.00",
      store_currency: "EUR",
      coin: "BTC",
      coin_amount: "0.00038462",
      invoice_url: "https://pay.example/pay_1",
      expires_at: "2026-11-26T12:00:00.000Z",
      received_amount: null,
    })
  })

  it("an invoice's link lists the quotes per coin", () => {
    const invoice = { ...payment, kind: "invoice", coin: null, crypto_amount: null, quotes: { BTC: "0.1", ETH: 2 } }
    expect(customerEmailData("link", invoice, order, links, "en").quotes).toEqual({ BTC: "0.1" })
  })

  it("expired: start again for a canceled checkout order, a new payment link for an order's collection", () => {
    expect(customerEmailData("expired", { ...payment, applied: "cancel_order" }, order, links, "en")).toMatchObject({
      order_canceled: true,
      start_again_url: "https://shop.example/",
      payment_link_url: null,
    })
    expect(customerEmailData("expired", { ...payment, applied: "cancel_session" }, order, links, "en")).toMatchObject({
      order_canceled: false,
      start_again_url: null,
      payment_link_url: "https://shop.example/payment-collection/pay_col_1?order_id=order_1",
    })
  })

  it("detected carries the confirmations; paid does not ask for coins", () => {
    expect(customerEmailData("detected", payment, order, links, "en")).toMatchObject({
      received_amount: "0.0001",
      confirmations: 1,
      required_confirmations: 3,
      invoice_url: null,
    })
    expect(customerEmailData("paid", payment, order, links, "en")).toMatchObject({
      coin_amount: null,
      confirmations: null,
    })
  })

  describe("the refund-address email", () => {
    const link = { url: "https://shop.example/crypto-refund#tok", expires_at: "2026-12-27T12:00:00.000Z" }
    const owed = (coin: string | null, coinAmount: string | null) => ({
      kind: "late",
      coin,
      coin_amount: coinAmount,
      base_amount: "10.84",
      base_currency: "USD",
    })

    it.each([
      ["ETH", "0.003336413333333333", "0.00333641"],
      ["BTC", "0.00012345", "0.00012345"],
      ["LTC", "0.1", "0.10000000"],
      ["USDT_ERC20", "10.840000", "10.840000"],
      ["USDT_BEP20", "10.839999999999999999", "10.839999"],
    ])("shows %s %s as the shop sends it, %s, the exact figure beside it", (coin, exact, sendable) => {
      expect(refundEmailOf(owed(coin, exact), link)).toEqual({
        owed_kind: "late",
        coin,
        coin_amount_sendable: sendable,
        coin_amount: exact,
        store_amount: "10.84",
        store_currency: "USD",
        link_url: link.url,
        link_expires_at: link.expires_at,
        address_masked: null,
        network: null,
      })
    })

    it("has no coins while none are worked out; a confirmation names the address masked and its network", () => {
      expect(refundEmailOf(owed(null, null), link)).toMatchObject({ coin_amount_sendable: null, coin_amount: null })
      const confirmed = refundEmailOf(owed("BTC", "0.0001"), link, {
        address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        coin: "BTC",
      })
      expect(confirmed).toMatchObject({ coin_amount_sendable: "0.00010000", network: "Bitcoin" })
      expect(confirmed.address_masked).not.toContain("rrr7xfkvy5l643")
    })
  })
})
