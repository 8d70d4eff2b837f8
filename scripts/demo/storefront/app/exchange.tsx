import { CryptoSessionData, formatCryptoPrice } from "../../../../docs/storefront/crypto-payment"

/**
 * "at 1.0842 USD/EUR (ECB, 2026-11-24)": the rate the shop priced a store currency in USD at, where it comes
 * from, and the shop's markup when it adds one ("… (ECB, 2026-11-24), plus 1.5%").
 */
export function exchangeNote(session: Pick<CryptoSessionData, "baseCurrency" | "exchange">): string | undefined {
  const exchange = session.exchange
  if (!exchange) return undefined
  const source = exchange.source === "ecb" ? "ECB" : "the shop's fixed rate"
  const when = exchange.publishedOn ? `, ${exchange.publishedOn}` : ""
  const markup = Number(exchange.markupPercent) ? `, plus ${exchange.markupPercent}%` : ""
  return `at ${exchange.rate} USD/${session.baseCurrency.toUpperCase()} (${source}${when})${markup}`
}

/**
 * The amount to pay of a crypto session in a store currency the crypto service does not take, and what the
 * service was asked in USD: "€80.00 ≈ $86.74", with the rate beneath. Nothing for a USD cart.
 */
export function CryptoExchange({
  session,
  locale,
  label = "Amount to pay",
}: {
  session: Pick<CryptoSessionData, "baseAmount" | "baseCurrency" | "exchange">
  locale: string
  label?: string
}) {
  const note = exchangeNote(session)
  if (!note) return null
  return (
    <div className="exchange" data-testid="crypto-exchange">
      <span className="exchange__label">{label}</span>{" "}
      <strong className="exchange__amount">{formatCryptoPrice(session, locale)}</strong>
      <small className="exchange__note muted">{note}</small>
    </div>
  )
}
