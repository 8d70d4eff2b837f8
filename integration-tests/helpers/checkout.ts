import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { AdminHeaders, createAdminUser } from "./admin"
import { createCart, createProduct, createRegion, createStoreAccess, CRYPTO_PROVIDER_ID, StoreSetup } from "./store"
import type { SandboxControl } from "../../src/sandbox"
import { notifyFromService } from "./reconciliation"
import type { CryptoSuite } from "./runner"

type Api = {
  get: (url: string, config?: unknown) => Promise<{ data: any; status: number }>
  post: (url: string, body?: unknown, config?: unknown) => Promise<{ data: any; status: number }>
  delete: (url: string, config?: unknown) => Promise<{ data: any; status: number }>
}

export type CryptoStore = {
  admin: AdminHeaders
  store: StoreSetup
  region: { id: string; currency_code: string }
  variantId: string
}

/** An admin, a storefront key, a USD region with the crypto provider and a $25 product. */
export async function setupCryptoStore(api: Api, container: MedusaContainer, currency = "usd"): Promise<CryptoStore> {
  // a file's shops share one database: each currency's its own admin
  const admin = await createAdminUser(api, container, currency === "usd" ? undefined : `admin-${currency}@crypto.test`)
  const store = await createStoreAccess(api, admin)
  const region = await createRegion(api, admin, { currency, countries: currency === "usd" ? ["us"] : ["de"] })
  const { variantId } = await createProduct(api, admin, store.salesChannel.id, { [currency]: 25 })
  return { admin, store, region, variantId }
}

/**
 * The shop a spec file's tests share, set up once before Medusa's runner snapshots the database: each
 * test starts from the snapshot with the shop in it instead of setting it up again (≈ 0.7 s a test).
 * Call at the top of testSuite, before any describe (a describe's beforeAll runs after the snapshot).
 */
export function shopForFile(
  { api, getContainer }: Pick<CryptoSuite, "api" | "getContainer">,
  currency = "usd"
): () => CryptoStore {
  let shop: CryptoStore | undefined
  beforeAll(async () => {
    shop = await setupCryptoStore(api, getContainer(), currency)
  })
  return () => {
    if (!shop) throw new Error("the file's shop is set up in a beforeAll at the top of testSuite")
    return shop
  }
}

export async function createCryptoCart(api: Api, shop: CryptoStore, quantity = 1) {
  return createCart(
    api,
    shop.store,
    shop.region.id,
    shop.variantId,
    quantity,
    shop.region.currency_code === "usd" ? "us" : "de"
  )
}

/** A crypto session on an existing payment collection, with the given storefront data. */
export async function addCryptoSession(
  api: Api,
  shop: CryptoStore,
  collectionId: string,
  data?: Record<string, unknown>
) {
  const {
    data: { payment_collection: collection },
  } = await api.post(
    `/store/payment-collections/${collectionId}/payment-sessions`,
    { provider_id: CRYPTO_PROVIDER_ID, ...(data ? { data } : {}) },
    shop.store.storeHeaders
  )
  return collection.payment_sessions.find((s: { provider_id: string }) => s.provider_id === CRYPTO_PROVIDER_ID)
}

/** Payment collection for the cart, then a crypto session with the given storefront data. */
export async function startCryptoSession(api: Api, shop: CryptoStore, cartId: string, data?: Record<string, unknown>) {
  const {
    data: { payment_collection: collection },
  } = await api.post("/store/payment-collections", { cart_id: cartId }, shop.store.storeHeaders)
  const session = await addCryptoSession(api, shop, collection.id, data)
  return { collectionId: collection.id as string, session }
}

/** The response of a request expected to fail (the test api throws on non-2xx). */
export async function failing(request: Promise<unknown>): Promise<{ status: number; data: any }> {
  try {
    await request
  } catch (error) {
    const response = (error as { response?: { status: number; data: any } }).response
    if (response) return response
    throw error
  }
  throw new Error("the request succeeded")
}

export async function completeCart(api: Api, shop: CryptoStore, cartId: string) {
  const { data } = await api.post(`/store/carts/${cartId}/complete`, {}, shop.store.storeHeaders)
  return data
}

export async function adminOrder(api: Api, shop: CryptoStore, orderId: string) {
  const { data } = await api.get(
    `/admin/orders/${orderId}?fields=id,status,payment_status,total,*payment_collections,*payment_collections.payments,*payment_collections.payment_sessions,*payment_collections.payments.captures`,
    shop.admin
  )
  return data.order
}

/** The orders made from a cart (the order_cart link): exactly one after any number of completions. */
export async function ordersOfCart(container: MedusaContainer, cartId: string): Promise<string[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
  return data.map((row: { order_id: string }) => row.order_id)
}

/** An order edit through the admin API that adds one item (a new outstanding amount, confirmed). */
export async function addItemByOrderEdit(api: Api, shop: CryptoStore, orderId: string) {
  await api.post("/admin/order-edits", { order_id: orderId }, shop.admin)
  await api.post(
    `/admin/order-edits/${orderId}/items`,
    { items: [{ variant_id: shop.variantId, quantity: 1 }] },
    shop.admin
  )
  await api.post(`/admin/order-edits/${orderId}/request`, {}, shop.admin)
  await api.post(`/admin/order-edits/${orderId}/confirm`, {}, shop.admin)
}

/** The customer pays a payment in full (picking `coin` first on an invoice) and the chain confirms it. */
export async function payInFull(control: SandboxControl, paymentId: string, coin?: string) {
  if (coin) await control.select(paymentId, coin)
  await control.pay(paymentId)
  await control.confirm(paymentId)
}

/** An order placed awaiting its BTC payment, nothing paid yet: the order, its session and the payment's id. */
export async function placedCryptoOrder(api: Api, shop: CryptoStore) {
  const cart = await createCryptoCart(api, shop)
  const { session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
  const { order } = await completeCart(api, shop, cart.id)
  return { order, session, paymentId: session.data.paymentId as string }
}

/** An order placed awaiting its BTC payment, then paid, confirmed and captured through the webhook. */
export async function paidCryptoOrder(api: Api, shop: CryptoStore, control: SandboxControl) {
  const { order, session, paymentId } = await placedCryptoOrder(api, shop)
  await payInFull(control, paymentId)
  const answer = await notifyFromService(control, paymentId)
  if (answer.data?.applied !== "capture")
    throw new Error(`the paid order was not captured: ${JSON.stringify(answer.data)}`)
  return { order, paymentId, session }
}
