import fs from "node:fs"
import path from "node:path"
import { parsePluginOptions } from "../../../modules/crypto-payment/plugin-options"
import { CUSTOMER_EMAIL_KINDS, customerEmailData, EmailPayment } from "../customer-email"
import { emailPayment } from "./email-fixtures"
import { newLinkSecret, refundLinkUrl, refundToken } from "../refund-link"
import { afterMiddleware, GUIDE_PAGES, starterPageOf } from "./starter-routes"

/**
 * Every link the plugin sends a customer, opened on Medusa's starter wired as docs/storefront.md says,
 * with the plugin's default options: each lands on a page that exists (not the starter's 404).
 */
const { notifications } = parsePluginOptions({ notifications: { storefrontUrl: "https://shop.example" } })
const links = { storefrontUrl: notifications!.storefrontUrl, orderPath: notifications!.orderPath }

const payment = emailPayment
const order = { id: "order_01JABC", display_id: 12, email: "ada@example.com", locale: "de-DE" }

/** Every URL field of every email kind, in each state that changes which links it holds. */
function emailLinks(): Array<[string, string]> {
  const found: Array<[string, string]> = []
  const states: Array<[string, Partial<EmailPayment>]> = [
    ["", {}],
    [" (checkout order canceled)", { applied: "cancel_order" }],
    [" (order's own collection)", { applied: null }],
  ]
  for (const kind of CUSTOMER_EMAIL_KINDS) {
    for (const [state, changes] of states) {
      const data = customerEmailData(kind, { ...payment, ...changes }, order, links, "de")
      for (const field of ["order_url", "start_again_url", "payment_link_url"] as const) {
        const url = data[field]
        if (url) found.push([`${kind}${state}: ${field}`, url])
      }
    }
  }
  return found
}

describe("the customer's links on Medusa's starter", () => {
  const emails = emailLinks()

  it("finds every kind of link the emails carry", () => {
    const fields = new Set(emails.map(([name]) => name.split(": ")[1]))
    expect([...fields].sort()).toEqual(["order_url", "payment_link_url", "start_again_url"])
  })

  it.each(emails)("%s opens a page (%s)", (_, url) => {
    expect(starterPageOf(url)).not.toBe("not found")
  })

  it("opens the order on the starter's order page, under the country its middleware adds", () => {
    const url = customerEmailData("paid", payment, order, links, "en").order_url
    expect(afterMiddleware(new URL(url).pathname)).toBe(`/dk/order/${order.id}/confirmed`)
    expect(starterPageOf(url)).toBe("/[countryCode]/order/[id]/confirmed")
  })

  it("asks an order's outstanding amount on the guide's payment-collection page, which needs the order", () => {
    const url = customerEmailData("expired", payment, order, links, "en").payment_link_url!
    expect(starterPageOf(url)).toBe("/[countryCode]/payment-collection/[id]")
  })

  it("starts again on the shop's home page", () => {
    const url = customerEmailData(
      "expired",
      { ...payment, applied: "cancel_order" },
      order,
      links,
      "en"
    ).start_again_url!
    expect(starterPageOf(url)).toBe("/[countryCode]")
  })

  it("opens the refund link (email and the admin's copy link) on the guide's refund page, the token after #", () => {
    const url = refundLinkUrl(links.storefrontUrl, refundToken("owed_01J", newLinkSecret()))
    expect(starterPageOf(url)).toBe("/crypto-refund")
    // a link sent before the token moved after # still opens
    expect(starterPageOf(`${links.storefrontUrl}/crypto-refund/owed_01J.c2lnbmF0dXJl`)).toBe("/crypto-refund/[token]")
  })

  it("opens Medusa's own payment link (the dashboard's copy) on the guide's page", () => {
    expect(starterPageOf(`${links.storefrontUrl}/payment-collection/pay_col_01J?order_id=${order.id}`)).toBe(
      "/[countryCode]/payment-collection/[id]"
    )
  })

  it("models the starter: an unknown path and a page missing its query are not found", () => {
    expect(starterPageOf(`${links.storefrontUrl}/order/${order.id}`)).toBe("not found")
    expect(starterPageOf(`${links.storefrontUrl}/payment-collection/pay_col_01J`)).toBe("not found")
    expect(starterPageOf(`${links.storefrontUrl}/crypto-refunds`)).toBe("not found")
  })

  it.each(GUIDE_PAGES.map((page) => [page.file]))("the guide still adds %s", (file) => {
    const guide = fs.readFileSync(path.join(__dirname, "../../../../docs/storefront.md"), "utf8")
    expect(guide).toContain(`**\`${file}\`**`)
  })
})
