import Medusa from "@medusajs/js-sdk"
import type { AxiosInstance } from "axios"
import type { SandboxControl } from "../../src/sandbox"
import type { DemoRegion, DemoStore } from "./seed"

export type CheckoutResult = {
  orderId: string
  displayId: number
  total: number
  paymentId: string
  invoiceUrl: string
  paymentStatus: string
}

type Log = (line: string) => void

const address = (country_code: string) => ({
  first_name: "Ada",
  last_name: "Lovelace",
  address_1: "1 Ledger Street",
  city: country_code === "us" ? "Austin" : "Berlin",
  country_code,
  postal_code: country_code === "us" ? "73301" : "10115",
})

/**
 * A storefront's cart up to the payment step, through the store API (`storeApi` sends the
 * publishable key): an address, one item, the first shipping option, and its payment collection.
 */
export async function shippedCart(
  storeApi: AxiosInstance,
  store: Pick<DemoStore, "regionId" | "variantId" | "countryCode">,
  email: string
): Promise<{ cartId: string; collectionId: string }> {
  const { cart } = (
    await storeApi.post("/store/carts", {
      region_id: store.regionId,
      email,
      shipping_address: address(store.countryCode),
      billing_address: address(store.countryCode),
      items: [{ variant_id: store.variantId, quantity: 1 }],
    })
  ).data
  const { shipping_options: options } = (await storeApi.get(`/store/shipping-options?cart_id=${cart.id}`)).data
  await storeApi.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: options[0].id })
  const { payment_collection: collection } = (await storeApi.post("/store/payment-collections", { cart_id: cart.id }))
    .data
  return { cartId: cart.id, collectionId: collection.id }
}

/** Polls `probe` until `done` accepts its value (every 250 ms), or gives up after `timeoutMs`. */
export async function until<T>(
  probe: () => Promise<T>,
  done: (v: T) => boolean,
  what: string,
  timeoutMs = 60_000
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** Steps 1–4 of a storefront's checkout: cart, shipping, a crypto invoice, the order placed awaiting payment. */
export async function placeOrderAwaitingPayment(
  backendUrl: string,
  store: DemoStore,
  log: Log,
  providerId = "pp_crypto_crypto",
  region: Pick<DemoRegion, "id" | "countryCode"> = { id: store.regionId, countryCode: store.countryCode }
) {
  const sdk = new Medusa({ baseUrl: backendUrl, publishableKey: store.publishableKey })
  const customer = { ...address(region.countryCode), first_name: "Satoshi", last_name: "Nakamoto" }
  let { cart } = await sdk.store.cart.create({
    region_id: region.id,
    email: "satoshi@example.com",
    shipping_address: customer,
    billing_address: customer,
    items: [{ variant_id: store.variantId, quantity: 1 }],
  })
  const money = (amount: unknown) => `${amount} ${String(cart.currency_code).toUpperCase()}`
  log(`1. cart ${cart.id}: 1 × Hardware wallet, subtotal ${money(cart.item_subtotal)}`)

  const { shipping_options: options } = await sdk.store.fulfillment.listCartOptions({ cart_id: cart.id })
  cart = (await sdk.store.cart.addShippingMethod(cart.id, { option_id: options[0].id })).cart
  log(`2. shipping "${options[0].name}" added; total ${money(cart.total)}`)

  const { payment_collection: collection } = await sdk.store.payment.initiatePaymentSession(cart, {
    provider_id: providerId,
  })
  const session = collection.payment_sessions!.find((s) => s.provider_id === providerId)!
  const paymentId = String(session.data.paymentId)
  const invoiceUrl = String(session.data.invoiceUrl)
  const exchange = session.data.exchange as { usdAmount: string; rate: string; publishedOn: string | null } | undefined
  const priced = exchange ? ` ≈ ${exchange.usdAmount} USD at ${exchange.rate} (${exchange.publishedOn ?? "fixed"})` : ""
  log(
    `3. crypto ${session.data.kind} ${paymentId} for ${session.data.baseAmount} ${session.data.baseCurrency}${priced}; hosted page ${invoiceUrl}`
  )

  const completed = await sdk.store.cart.complete(cart.id)
  if (completed.type !== "order") throw new Error(`the cart did not complete: ${JSON.stringify(completed)}`)
  const order = completed.order
  log(`4. order #${order.display_id} (${order.id}) placed, awaiting payment`)
  return { order, paymentId, invoiceUrl, exchange }
}

/**
 * A customer's checkout, as a storefront would run it with @medusajs/js-sdk: cart, shipping, a
 * crypto invoice, the order placed awaiting payment; then the "blockchain" (the sandbox) receives
 * the coins and confirms them, the service's webhook reaches the store, and the order is paid.
 */
export async function runScriptedCheckout(opts: {
  backendUrl: string
  store: DemoStore
  sandbox: SandboxControl
  admin: AxiosInstance
  log: Log
  coin?: "BTC" | "ETH" | "LTC" | "USDT_ERC20" | "USDT_BEP20"
  /** The crypto provider to pay with (default pp_crypto_crypto). */
  providerId?: string
  /** The region to buy in (default the store's first). */
  region?: DemoRegion
}): Promise<CheckoutResult & { currencyCode: string; exchange?: Record<string, unknown> }> {
  const { store, sandbox, admin, log } = opts
  const coin = opts.coin ?? "BTC"
  const { order, paymentId, invoiceUrl, exchange } = await placeOrderAwaitingPayment(
    opts.backendUrl,
    store,
    log,
    opts.providerId,
    opts.region
  )

  // an invoice lets the customer pick the coin on the hosted page; a payment has its coin already
  const chosen =
    (await sandbox.payment(paymentId)).kind === "invoice"
      ? await sandbox.select(paymentId, coin)
      : await sandbox.payment(paymentId)
  log(
    `5. the customer ${chosen.kind === "invoice" ? `picks ${coin} on the hosted page` : "scans the QR code"}: send ${chosen.requiredAmount} ${coin} to ${chosen.address}`
  )
  await sandbox.pay(paymentId)
  log(`6. ${chosen.requiredAmount} ${coin} arrive on chain (0 confirmations)`)

  const required = chosen.requiredConfirmations ?? 1
  for (let n = 1; n <= required; n++) {
    await sandbox.confirm(paymentId, 1)
    const view = await sandbox.payment(paymentId)
    log(
      `   confirmations ${view.confirmations}/${required}, received ${view.currentBalance}/${view.requiredAmount} ${coin}, service status ${view.status}`
    )
  }

  type AdminOrder = { id: string; display_id: number; total: number; payment_status: string }
  const paid = await until<AdminOrder>(
    async () =>
      (await admin.get(`/admin/orders/${order.id}`, { params: { fields: "id,display_id,total,payment_status" } })).data
        .order,
    (o) => o.payment_status === "captured",
    "the webhook to mark the order paid"
  )
  // the order can be paid a moment before the service has read our 200
  const deliveries = await until(
    async () => (await sandbox.webhooks()).deliveries.filter((d) => d.paymentId === paymentId),
    (ds) => ds.length > 0 && ds.every((d) => d.state !== "pending"),
    "the webhook delivery to finish",
    10_000
  ).catch(() => [])
  const delivered = deliveries.find((d) => d.state === "delivered")
  log(
    `7. webhook ${delivered ? `${delivered.event} delivered (HTTP ${delivered.attempts.at(-1)?.status})` : "not seen; reconciliation did it"}`
  )
  const currencyCode = String(order.currency_code).toUpperCase()
  log(
    `8. order #${paid.display_id} is paid: payment_status "${paid.payment_status}", total ${paid.total} ${currencyCode}`
  )

  return {
    currencyCode,
    ...(exchange ? { exchange } : {}),
    orderId: order.id,
    displayId: paid.display_id,
    total: Number(paid.total),
    paymentId,
    invoiceUrl,
    paymentStatus: paid.payment_status,
  }
}

/**
 * A customer who pays too late: the order is placed, the invoice expires and the order is canceled
 * (stock released), then the coins arrive anyway. The order stays canceled and the payment is
 * flagged "paid late" for the admin.
 */
export async function runLatePayment(opts: {
  backendUrl: string
  store: DemoStore
  sandbox: SandboxControl
  admin: AxiosInstance
  log: Log
}) {
  const { sandbox, admin, log } = opts
  const { order, paymentId } = await placeOrderAwaitingPayment(opts.backendUrl, opts.store, log)
  const chosen = await sandbox.select(paymentId, "BTC")
  await sandbox.expire(paymentId)
  await until(
    async () => (await admin.get(`/admin/orders/${order.id}`, { params: { fields: "id,status" } })).data.order,
    (o: { status: string }) => o.status === "canceled",
    "the expired order to be canceled"
  )
  log(`5. the invoice expired: order #${order.display_id} canceled`)
  await sandbox.pay(paymentId)
  await sandbox.confirm(paymentId)
  const flagged = await until(
    async (): Promise<{ flags: string[]; attention: string | null }> =>
      (await admin.get(`/admin/crypto/payments/${paymentId}`)).data.payment,
    (p: { flags: string[]; attention: string | null }) => p.flags.includes("paid_late"),
    "the late payment to be flagged"
  )
  log(`6. ${chosen.requiredAmount} BTC arrived late: flagged "${flagged.attention}"`)
  return { orderId: order.id as string, displayId: order.display_id as number, paymentId }
}

/** The demo shop stocks 100 units of its product; the bench and the soak place many more orders than that. */
export async function restock(running: { admin: AxiosInstance; store: DemoStore }): Promise<void> {
  const { admin, store } = running
  const { variant } = (
    await admin.get(`/admin/products/${store.productId}/variants/${store.variantId}`, {
      params: { fields: "*inventory_items" },
    })
  ).data
  await admin.post(
    `/admin/inventory-items/${variant.inventory_items[0].inventory_item_id}/location-levels/${store.stockLocationId}`,
    { stocked_quantity: 1_000_000 }
  )
}
