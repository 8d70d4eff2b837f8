import type { CryptoSuite } from "../../helpers/runner"
import type { SandboxHandle } from "../../helpers/sandbox"
import axios from "axios"
import { createAdminUser } from "../../helpers/admin"
import { seedDemoStore } from "../../../scripts/demo/seed"
import { runScriptedCheckout } from "../../../scripts/demo/checkout"
import Medusa from "@medusajs/js-sdk"
import {
  CryptoPaymentView,
  describeCryptoPayment,
  fetchCryptoPayment,
  fetchCryptoQrSvg,
  startCryptoPayment,
  watchCryptoPayment,
} from "../../../docs/storefront/crypto-payment"

export function demoCheckoutTests({ api, getContainer }: CryptoSuite, sandbox: SandboxHandle) {
  it("runs the demo's scripted checkout: order placed awaiting payment, paid by the webhook", async () => {
    const backendUrl = `http://localhost:${process.env.PORT}`
    const { headers } = await createAdminUser(api, getContainer())
    const admin = axios.create({ baseURL: backendUrl, headers })
    const store = await seedDemoStore(admin)
    const lines: string[] = []

    const result = await runScriptedCheckout({
      backendUrl,
      store,
      sandbox: sandbox.control(),
      admin,
      log: (l) => lines.push(l),
    })

    expect(result).toMatchObject({ paymentStatus: "captured", total: 84 })
    expect(lines.join("\n")).toMatch(/confirmations 3\/3, received .* BTC, service status COMPLETED/)
    expect(lines.join("\n")).toMatch(/webhook payment\.completed delivered \(HTTP 200\)/)
    const [create] = await sandbox.control().requests("/v1/create_invoice")
    expect(create.body).toMatchObject({ amount: 84, amountCurrency: "USD" })
    const reserved = (
      await admin.get(`/admin/inventory-items`, { params: { sku: "WALLET-BLACK", fields: "reserved_quantity" } })
    ).data.inventory_items[0]
    expect(reserved.reserved_quantity).toBe(1)
  })

  it("drives a single-coin payment with the storefront helpers of docs/storefront.md", async () => {
    const backendUrl = `http://localhost:${process.env.PORT}`
    const { headers } = await createAdminUser(api, getContainer())
    const store = await seedDemoStore(axios.create({ baseURL: backendUrl, headers }))
    const sdk = new Medusa({ baseUrl: backendUrl, publishableKey: store.publishableKey })
    const address = {
      first_name: "Ada",
      last_name: "L",
      address_1: "1 Main St",
      city: "Austin",
      country_code: "us",
      postal_code: "73301",
    }
    let { cart } = await sdk.store.cart.create({
      region_id: store.regionId,
      email: "ada@example.com",
      shipping_address: address,
      items: [{ variant_id: store.variantId, quantity: 1 }],
    })
    cart = (await sdk.store.cart.addShippingMethod(cart.id, { option_id: store.shippingOptionId })).cart

    const session = await startCryptoPayment(sdk, cart, "ETH")
    expect(session).toMatchObject({ kind: "payment", currency: "ETH", address: expect.stringMatching(/^0x/) })
    expect(describeCryptoPayment(await fetchCryptoPayment(sdk, session.paymentId))).toMatchObject({
      state: "awaiting_funds",
    })
    expect(await fetchCryptoQrSvg(sdk, session.paymentId)).toMatch(/^<svg/)

    await sandbox.control().pay(session.paymentId, { mode: "partial" })
    const seen: string[] = []
    let toppedUp = false
    const final = await new Promise<CryptoPaymentView>((resolve, reject) => {
      let stop = () => {}
      stop = watchCryptoPayment(
        sdk,
        session.paymentId,
        (view) => {
          const { state } = describeCryptoPayment(view)
          if (seen.at(-1) !== state) seen.push(state)
          if (state === "underpaid" && !toppedUp) {
            toppedUp = true
            void sandbox
              .control()
              .pay(session.paymentId)
              .then(() => sandbox.control().confirm(session.paymentId), reject)
          }
          if (view.final) {
            stop()
            resolve(view)
          }
        },
        { intervalMs: 1_000, onError: reject }
      )
    })
    expect(final).toMatchObject({ status: "COMPLETED", verdict: "paid" })
    // the status is shared for a while (statusCacheSeconds), so the first view may still be the one read before the partial payment;
    // confirming shows while confirmations come in and until the shop has applied the completion
    expect(seen.filter((state) => state !== "awaiting_funds" && state !== "confirming")).toEqual(["underpaid", "paid"])
  })
}
