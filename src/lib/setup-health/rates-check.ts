import { amountCurrenciesFor, PAYMENT_AMOUNT_CURRENCIES } from "../crypto-api/constants"
import { RatesState, shownUrl } from "../domain/exchange-rates/rates-state"
import type { HealthCheck } from "./checks"

export type RegionCurrency = { name: string; currency: string }

export type RatesCheckInput = {
  providerId: string
  mode: "invoice" | "payment"
  regions: RegionCurrency[]
  rates: RatesState
}

const named = (regions: RegionCurrency[]) => regions.map((r) => `${r.name} (${r.currency.toUpperCase()})`).join(", ")

/**
 * Red names each region whose currency cannot be priced: nothing else says so before a customer's
 * checkout fails.
 */
export function ratesCheck({ providerId, mode, regions, rates }: RatesCheckInput): HealthCheck {
  const line = { id: "exchange_rates", provider_id: providerId, label: "Exchange rates" }
  const taken = amountCurrenciesFor(mode)
  const converted = regions.filter((r) => !taken.includes(r.currency.toUpperCase()))
  const source =
    rates.source === "ecb"
      ? `ECB reference rates${rates.publishedOn ? ` of ${rates.publishedOn}` : ""}${rates.ageHours != null ? ` (${rates.ageHours} h old)` : ""}`
      : rates.source === "fixed"
        ? "fixed rates from the options"
        : "conversion off (exchangeRates: false)"
  if (!converted.length) {
    return {
      ...line,
      level: "green",
      detail: regions.length
        ? `Every region with crypto is priced in a currency the service takes (${named(regions)}); no rate is needed.`
        : `No region has crypto enabled yet; other store currencies are priced through ${source}.`,
    }
  }
  // a region priced in a coin (BTC, ETH, LTC) takes single-coin payments only: no rate converts a coin
  const inCoins = converted.filter((r) =>
    (PAYMENT_AMOUNT_CURRENCIES as readonly string[]).includes(r.currency.toUpperCase())
  )
  if (inCoins.length) {
    return {
      ...line,
      level: "red",
      detail: `Invoices are refused in ${named(inCoins)}: the service prices an invoice only in ${taken.join(", ")}; a cart in a coin takes single-coin payments.`,
      action: 'Set mode: "payment" (the storefront passes the coin), or price the region in USD.',
    }
  }
  if (rates.source === "off") {
    return {
      ...line,
      level: "red",
      detail: `Crypto checkouts are refused in ${named(converted)}: the service prices only in ${taken.join(", ")} and exchangeRates is false.`,
      action:
        'Remove exchangeRates: false (ECB rates) or set exchangeRates: { source: "fixed", rates } in the provider options.',
    }
  }
  const listed = (r: RegionCurrency) => !!rates.rates?.[r.currency.toUpperCase()]
  const unlisted = converted.filter((r) => !listed(r))
  if (rates.source === "ecb" && !rates.fresh) {
    const age = rates.publishedOn
      ? `the newest stored publication is ${rates.publishedOn}, ${rates.ageHours} h old (more than maxAgeHours ${rates.maxAgeHours})`
      : `no publication has been fetched${rates.otherSources?.length ? ` from ${shownUrl(rates.url ?? "")} yet` : ""}`
    // a url of another source starts with none stored: say so, or "none fetched" reads as a lost publication
    const [other] = rates.otherSources ?? []
    const elsewhere = other
      ? ` The publication of ${other.publishedOn} stored from ${shownUrl(other.url)} is not used: rates are kept per source, and a file of another source (a test file's made-up rates) never prices this one's checkouts.`
      : ""
    return {
      ...line,
      level: "red",
      detail: `Crypto checkouts are refused in ${named(converted)}: ${age}${rates.lastError ? `; last fetch: ${rates.lastError}` : ""}.${elsewhere}`,
      action: `Check that this server can reach ${shownUrl(rates.url ?? "")}, or set exchangeRates: { source: "fixed", rates } in the provider options.`,
    }
  }
  if (unlisted.length) {
    return {
      ...line,
      level: "red",
      detail: `Crypto checkouts are refused in ${named(unlisted)}: ${source} list no rate for ${[...new Set(unlisted.map((r) => r.currency.toUpperCase()))].join(", ")}.`,
      action:
        rates.source === "fixed"
          ? "Add the currency to exchangeRates.rates in the provider options, or disable crypto in the region."
          : 'Disable crypto in the region, or set exchangeRates: { source: "fixed", rates } with a rate for it.',
    }
  }
  const priced = `${named(converted)} priced in USD through ${source}${rates.markupPercent && rates.markupPercent !== "0" ? ` plus ${rates.markupPercent} %` : ""}`
  if (rates.held) {
    return {
      ...line,
      level: "amber",
      detail: `${priced}. A newer publication (${rates.held.publishedOn}) is held: ${rates.held.moved.map((m) => `${m.currency} moved ${m.percent} %`).join(", ")}.`,
      action:
        "Accept it on the crypto policy panel if the move is real; otherwise the next fetch that agrees with it is taken.",
    }
  }
  if (rates.source === "ecb" && rates.missesWorkingDay) {
    return {
      ...line,
      level: "amber",
      detail: `${priced}; a working day's publication is missing${rates.lastError ? ` (last fetch: ${rates.lastError})` : ""}. Checkouts keep this rate until it is ${rates.maxAgeHours} h old.`,
      action: `Check that this server can reach ${shownUrl(rates.url ?? "")}.`,
    }
  }
  return { ...line, level: "green", detail: `${priced}.` }
}
