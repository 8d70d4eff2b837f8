import fs from "node:fs"
import path from "node:path"
import * as React from "react"
import { renderToStaticMarkup } from "react-dom/server"
import { CRYPTO_PROVIDER_IDENTIFIER, providerIdOf } from "../../../../src/modules/crypto-payment/core/registrations"
import {
  PaymentDetails,
  PaymentInfoMap,
  paymentInfoMapOf,
  STARTER_CONSTANTS,
  StarterOrder,
  withEntry,
} from "./starter-order-page"

// the unit tests' swc transform compiles the model's JSX to React.createElement (the classic runtime)
Object.assign(globalThis, { React })

const ROOT = path.join(__dirname, "../../../..")
const guide = fs.readFileSync(path.join(ROOT, "docs/storefront.md"), "utf8")
const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8")

/** docs/storefront.md's section 2, from its heading to the next section's. */
const section2 = guide.match(/^## 2\. [\s\S]*?(?=^## )/m)?.[0] ?? ""
/** The entry section 2 has the shop paste into `paymentInfoMap`: the section's first `tsx` block. */
const guideEntry = section2.match(/```tsx\n([\s\S]*?)```/)?.[1] ?? ""
/** The provider's `id` in README's medusa-config.ts ("Install in a store", step 2). */
const readmeId = readme.match(/resolve: "medusa-payment-crypto\/providers\/crypto",\s*id: "([^"]+)"/)?.[1]
/** The provider id Medusa gives that registration: the one a crypto order's payment carries. */
const providerId = providerIdOf(CRYPTO_PROVIDER_IDENTIFIER, readmeId)

/** An order as the starter's `retrieveOrder` reads it (`*payment_collections.payments`), paid in EUR. */
const order = (payments: Array<{ provider_id: string }>): StarterOrder => ({
  currency_code: "eur",
  payment_collections: [
    {
      payments: payments.map((p) => ({
        ...p,
        amount: 46,
        created_at: "2026-11-24T10:00:00.000Z",
        data: { paymentId: "inv_01J", kind: "invoice", status: "COMPLETED" },
      })),
    },
  ],
})

const render = (o: StarterOrder, map: PaymentInfoMap) =>
  renderToStaticMarkup(React.createElement(PaymentDetails, { order: o, paymentInfoMap: map }))

describe("the starter's order page with a captured crypto payment (docs/storefront.md, section 2)", () => {
  it("finds the guide's entry and README's registration", () => {
    expect(guideEntry).toMatch(/title:/)
    expect(readmeId).toBe("crypto")
    expect(providerId).toBe("pp_crypto_crypto")
  })

  it("marks the section required and says what breaks without it", () => {
    expect(section2.split("\n")[0]).toMatch(/\(required\)/i)
    expect(section2).toContain("TypeError: Cannot read properties of undefined (reading 'title')")
    expect(section2).toContain("`PaymentDetails`")
    expect(section2).toContain("/[countryCode]/order/[id]/confirmed")
  })

  it("says what the key is for another registration's id", () => {
    expect(section2).toContain("`pp_crypto_<id>`")
  })

  it("shows the captured crypto payment with the guide's entry in the starter's map", () => {
    const map = paymentInfoMapOf(withEntry(STARTER_CONSTANTS, guideEntry))
    expect(map[providerId]).toBeDefined()
    const html = render(order([{ provider_id: providerId }]), map)
    expect(html).toContain(`<p data-testid="payment-method">${map[providerId].title}</p>`)
    expect(html).toContain('data-icon="credit-card"')
    expect(html).toContain("€46.00 paid at")
  })

  it("keeps the starter's own entries", () => {
    const map = paymentInfoMapOf(withEntry(STARTER_CONSTANTS, guideEntry))
    expect(render(order([{ provider_id: "pp_system_default" }]), map)).toContain("Manual Payment")
  })

  it("throws as the starter does without the entry: the order page crashes once the payment is captured", () => {
    const starterMap = paymentInfoMapOf(STARTER_CONSTANTS)
    expect(() => render(order([{ provider_id: providerId }]), starterMap)).toThrow(
      new TypeError("Cannot read properties of undefined (reading 'title')")
    )
  })

  it("shows an order awaiting its crypto payment either way: Medusa records no payment before the capture", () => {
    expect(render(order([]), paymentInfoMapOf(STARTER_CONSTANTS))).toContain("<h2>Payment</h2>")
  })

  it("throws for an entry keyed otherwise than the provider id (a mis-keyed snippet is caught)", () => {
    const misKeyed = paymentInfoMapOf(withEntry(STARTER_CONSTANTS, guideEntry.replace(providerId, "pp_crypto")))
    expect(() => render(order([{ provider_id: providerId }]), misKeyed)).toThrow(TypeError)
  })
})
