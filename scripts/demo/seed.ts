import type { AxiosInstance } from "axios"

/** A region of the demo store, with a country a customer ships to in it. */
export type DemoRegion = { id: string; name: string; currencyCode: string; countryCode: string }

export type DemoStore = {
  publishableKey: string
  salesChannelId: string
  /** The first region (the US one; the Europe one in the starter's layout), where scripted checkouts buy by default. */
  regionId: string
  /** Its country, for the customer's address. */
  countryCode: string
  regions: DemoRegion[]
  productId: string
  variantId: string
  stockLocationId: string
  shippingOptionId: string
}

const CRYPTO_PROVIDER = "pp_crypto_crypto"
const SYSTEM_PROVIDER = "pp_system_default"

/** Medusa's starter (dtc-starter): one region, "Europe", in EUR; these countries. */
const EUROPE = {
  name: "Europe",
  currency: "eur",
  countries: ["gb", "de", "dk", "se", "fr", "es", "it"],
  customer: "de",
}
const UNITED_STATES = { name: "United States", currency: "usd", countries: ["us"], customer: "us" }

/**
 * The regions seeded: "demo" a US region in USD and Medusa's starter's Europe region in EUR (the demo
 * storefront switches between them); "starter" the Europe region alone, as Medusa's starter seeds a shop.
 */
export type SeedLayout = "demo" | "starter"

/**
 * A small shop through the admin API (the admin must be logged in on `admin`): a sales channel and
 * publishable key, regions offering crypto and the system provider (see SeedLayout), a warehouse
 * that ships to their countries, and one product priced in each region's currency ($79, €75) with
 * 100 units in stock.
 */
export async function seedDemoStore(
  admin: AxiosInstance,
  cryptoProviders: string[] = [CRYPTO_PROVIDER],
  layout: SeedLayout = "demo"
): Promise<DemoStore> {
  const { sales_channel: channel } = (await admin.post("/admin/sales-channels", { name: "Crypto webshop" })).data
  const { api_key: key } = (await admin.post("/admin/api-keys", { title: "Storefront", type: "publishable" })).data
  await admin.post(`/admin/api-keys/${key.id}/sales-channels`, { add: [channel.id] })

  const seeded = layout === "starter" ? [EUROPE] : [UNITED_STATES, EUROPE]
  if (layout === "starter") {
    // the starter's store currencies: EUR (its default) and USD
    const { stores } = (await admin.get("/admin/stores")).data
    await admin.post(`/admin/stores/${stores[0].id}`, {
      supported_currencies: [
        { currency_code: "eur", is_default: true },
        { currency_code: "usd", is_default: false },
      ],
    })
  }
  const regions: DemoRegion[] = []
  for (const r of seeded) {
    const { region } = (
      await admin.post("/admin/regions", {
        name: r.name,
        currency_code: r.currency,
        countries: r.countries,
        payment_providers: [...cryptoProviders, SYSTEM_PROVIDER],
      })
    ).data
    regions.push({ id: region.id, name: r.name, currencyCode: r.currency, countryCode: r.customer })
  }
  const currencies = seeded.map((r) => r.currency)
  const price = (amounts: { usd: number; eur: number }) =>
    currencies.map((currency_code) => ({ currency_code, amount: amounts[currency_code as "usd" | "eur"] }))

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
      { name: "Shipping", type: "shipping" },
      { params: { fields: "*fulfillment_sets" } }
    )
  ).data.stock_location
  const fulfillmentSetId = withSet.fulfillment_sets[0].id
  const { fulfillment_set: set } = (
    await admin.post(`/admin/fulfillment-sets/${fulfillmentSetId}/service-zones`, {
      name: seeded.map((r) => r.name).join(" and "),
      geo_zones: seeded.flatMap((r) => r.countries.map((country_code) => ({ type: "country", country_code }))),
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
      prices: price({ usd: 5, eur: 5 }),
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
          prices: price({ usd: 79, eur: 75 }),
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
    regionId: regions[0].id,
    countryCode: regions[0].countryCode,
    regions,
    productId: product.id,
    variantId,
    stockLocationId: location.id,
    shippingOptionId: option.id,
  }
}
