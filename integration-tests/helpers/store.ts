import type { AdminHeaders } from "./admin"

export const CRYPTO_PROVIDER_ID = "pp_crypto_crypto"
export const SYSTEM_PROVIDER_ID = "pp_system_default"

type Api = {
  get: (url: string, config?: unknown) => Promise<{ data: any }>
  post: (url: string, body?: unknown, config?: unknown) => Promise<{ data: any }>
}

export type StoreSetup = {
  salesChannel: { id: string }
  publishableKey: string
  storeHeaders: { headers: { "x-publishable-api-key": string } }
}

/** A sales channel and a publishable key linked to it: what every store request needs. */
export async function createStoreAccess(api: Api, admin: AdminHeaders): Promise<StoreSetup> {
  const {
    data: { sales_channel: salesChannel },
  } = await api.post("/admin/sales-channels", { name: "Webshop" }, admin)
  const {
    data: { api_key: apiKey },
  } = await api.post("/admin/api-keys", { title: "Storefront", type: "publishable" }, admin)
  await api.post(`/admin/api-keys/${apiKey.id}/sales-channels`, { add: [salesChannel.id] }, admin)
  return {
    salesChannel,
    publishableKey: apiKey.token,
    storeHeaders: { headers: { "x-publishable-api-key": apiKey.token } },
  }
}

/** A region in one currency that offers the given payment providers. */
export async function createRegion(
  api: Api,
  admin: AdminHeaders,
  {
    currency = "usd",
    countries = ["us"],
    providers = [CRYPTO_PROVIDER_ID],
    name = `Region ${currency.toUpperCase()}`,
  }: { currency?: string; countries?: string[]; providers?: string[]; name?: string } = {}
): Promise<{ id: string; currency_code: string }> {
  const {
    data: { region },
  } = await api.post(
    "/admin/regions",
    { name, currency_code: currency, countries, payment_providers: providers },
    admin
  )
  return region
}

/** A published product with one variant priced in each given currency (major units). */
export async function createProduct(
  api: Api,
  admin: AdminHeaders,
  salesChannelId: string,
  prices: Record<string, number> = { usd: 25 },
  title = `Hardware wallet ${Object.keys(prices).join("-")} ${Math.random().toString(36).slice(2, 8)}`
): Promise<{ id: string; variantId: string }> {
  const {
    data: { product },
  } = await api.post(
    "/admin/products",
    {
      title,
      status: "published",
      options: [{ title: "Colour", values: ["Black"] }],
      variants: [
        {
          title: "Black",
          options: { Colour: "Black" },
          manage_inventory: false,
          prices: Object.entries(prices).map(([currency_code, amount]) => ({ currency_code, amount })),
        },
      ],
      sales_channels: [{ id: salesChannelId }],
    },
    admin
  )
  return { id: product.id, variantId: product.variants[0].id }
}

export const SHIPPING_ADDRESS = {
  first_name: "Ada",
  last_name: "Lovelace",
  address_1: "1 Ledger Street",
  city: "New York",
  country_code: "us",
  postal_code: "10001",
}

/** A cart with one line and a shipping address, ready for a payment collection. */
export async function createCart(
  api: Api,
  store: StoreSetup,
  regionId: string,
  variantId: string,
  quantity = 1,
  countryCode = "us"
): Promise<{ id: string; total: number; currency_code: string }> {
  const {
    data: { cart },
  } = await api.post(
    "/store/carts",
    {
      region_id: regionId,
      sales_channel_id: store.salesChannel.id,
      email: "ada@crypto.test",
      shipping_address: { ...SHIPPING_ADDRESS, country_code: countryCode },
      billing_address: { ...SHIPPING_ADDRESS, country_code: countryCode },
      items: [{ variant_id: variantId, quantity }],
    },
    store.storeHeaders
  )
  return cart
}

/**
 * A product whose variant's inventory is managed: a stock location serving the sales channel,
 * `stocked` units there. Completing a cart reserves them.
 */
export async function createStockedProduct(
  api: Api,
  admin: AdminHeaders,
  salesChannelId: string,
  { stocked = 10, price = 25 }: { stocked?: number; price?: number } = {}
): Promise<{ variantId: string; inventoryItemId: string; locationId: string }> {
  const {
    data: { stock_location: location },
  } = await api.post("/admin/stock-locations", { name: `Warehouse ${Math.random().toString(36).slice(2, 7)}` }, admin)
  await api.post(`/admin/stock-locations/${location.id}/sales-channels`, { add: [salesChannelId] }, admin)
  const {
    data: { product },
  } = await api.post(
    "/admin/products",
    {
      title: `Cold wallet ${Math.random().toString(36).slice(2, 8)}`,
      status: "published",
      options: [{ title: "Colour", values: ["Steel"] }],
      variants: [
        {
          title: "Steel",
          options: { Colour: "Steel" },
          manage_inventory: true,
          prices: [{ currency_code: "usd", amount: price }],
        },
      ],
      sales_channels: [{ id: salesChannelId }],
    },
    admin
  )
  const variantId = product.variants[0].id
  const {
    data: { variant },
  } = await api.get(`/admin/products/${product.id}/variants/${variantId}?fields=*inventory_items`, admin)
  const inventoryItemId = variant.inventory_items[0].inventory_item_id
  // Reservations are what is tested, not delivery: the item needs no shipping method.
  await api.post(`/admin/inventory-items/${inventoryItemId}`, { requires_shipping: false }, admin)
  await api.post(
    `/admin/inventory-items/${inventoryItemId}/location-levels`,
    { location_id: location.id, stocked_quantity: stocked },
    admin
  )
  return { variantId, inventoryItemId, locationId: location.id }
}

export async function reservedQuantity(api: Api, admin: AdminHeaders, inventoryItemId: string): Promise<number> {
  const {
    data: { inventory_levels: levels },
  } = await api.get(`/admin/inventory-items/${inventoryItemId}/location-levels`, admin)
  return levels.reduce((sum: number, level: { reserved_quantity: number }) => sum + Number(level.reserved_quantity), 0)
}
