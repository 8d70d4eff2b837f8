import type { AxiosInstance } from "axios"

export type DemoStore = {
  publishableKey: string
  salesChannelId: string
  regionId: string
  productId: string
  variantId: string
  stockLocationId: string
  shippingOptionId: string
}

const CRYPTO_PROVIDER = "pp_crypto_crypto"
const SYSTEM_PROVIDER = "pp_system_default"

/**
 * A small shop through the admin API (the admin must be logged in on `admin`): a sales channel
 * and publishable key, a USD region offering crypto and the system provider, a warehouse that
 * ships to the US, and one product with 100 units in stock.
 */
export async function seedDemoStore(
  admin: AxiosInstance,
  cryptoProviders: string[] = [CRYPTO_PROVIDER]
): Promise<DemoStore> {
  const { sales_channel: channel } = (await admin.post("/admin/sales-channels", { name: "Crypto webshop" })).data
  const { api_key: key } = (await admin.post("/admin/api-keys", { title: "Storefront", type: "publishable" })).data
  await admin.post(`/admin/api-keys/${key.id}/sales-channels`, { add: [channel.id] })

  const { region } = (
    await admin.post("/admin/regions", {
      name: "United States",
      currency_code: "usd",
      countries: ["us"],
      payment_providers: [...cryptoProviders, SYSTEM_PROVIDER],
    })
  ).data

  const { stock_location: location } = (
    await admin.post("/admin/stock-locations", {
      name: "Main warehouse",
      address: { address_1: "1 Depot Road", city: "Austin", country_code: "us" },
    })
  ).data
  await admin.post(`/admin/stock-locations/${location.id}/sales-channels`, { add: [channel.id] })
  await admin.post(`/admin/stock-locations/${location.id}/fulfillment-providers`, { add: ["manual_manual"] })
  const withSet = (
    await admin.post(
      `/admin/stock-locations/${location.id}/fulfillment-sets`,
      { name: "US shipping", type: "shipping" },
      { params: { fields: "*fulfillment_sets" } }
    )
  ).data.stock_location
  const fulfillmentSetId = withSet.fulfillment_sets[0].id
  const { fulfillment_set: set } = (
    await admin.post(`/admin/fulfillment-sets/${fulfillmentSetId}/service-zones`, {
      name: "United States",
      geo_zones: [{ type: "country", country_code: "us" }],
    })
  ).data

  const profiles = (await admin.get("/admin/shipping-profiles", { params: { type: "default" } })).data.shipping_profiles
  const profile =
    profiles[0] ??
    (await admin.post("/admin/shipping-profiles", { name: "Default", type: "default" })).data.shipping_profile

  const { shipping_option: option } = (
    await admin.post("/admin/shipping-options", {
      name: "Standard shipping",
      service_zone_id: set.service_zones[0].id,
      shipping_profile_id: profile.id,
      provider_id: "manual_manual",
      price_type: "flat",
      type: { label: "Standard", description: "Ships in 2-3 days", code: "standard" },
      prices: [{ currency_code: "usd", amount: 5 }],
      rules: [
        { attribute: "enabled_in_store", value: "true", operator: "eq" },
        { attribute: "is_return", value: "false", operator: "eq" },
      ],
    })
  ).data

  const { product } = (
    await admin.post("/admin/products", {
      title: "Hardware wallet",
      description: "Keeps your keys offline.",
      status: "published",
      shipping_profile_id: profile.id,
      options: [{ title: "Colour", values: ["Black"] }],
      variants: [
        {
          title: "Black",
          sku: "WALLET-BLACK",
          options: { Colour: "Black" },
          manage_inventory: true,
          prices: [{ currency_code: "usd", amount: 79 }],
        },
      ],
      sales_channels: [{ id: channel.id }],
    })
  ).data
  const variantId = product.variants[0].id
  const { variant } = (
    await admin.get(`/admin/products/${product.id}/variants/${variantId}`, { params: { fields: "*inventory_items" } })
  ).data
  await admin.post(`/admin/inventory-items/${variant.inventory_items[0].inventory_item_id}/location-levels`, {
    location_id: location.id,
    stocked_quantity: 100,
  })

  return {
    publishableKey: key.token,
    salesChannelId: channel.id,
    regionId: region.id,
    productId: product.id,
    variantId,
    stockLocationId: location.id,
    shippingOptionId: option.id,
  }
}
