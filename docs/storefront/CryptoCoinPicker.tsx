"use client"
/**
 * The coin picker of the payment step (payment mode): the customer picks the coin in your checkout, or
 * leaves it to the service's hosted page (an invoice). Pass the choice to `startCryptoPayment`.
 * Styles: crypto-payment.css. Used by the demo storefront (scripts/demo/storefront).
 */
import { COIN_NAMES, COINS, Coin } from "./crypto-payment"

export function CryptoCoinPicker({
  value,
  onChange,
  allowInvoice = true,
  disabled = false,
}: {
  /** undefined: the customer chooses on the hosted page (an invoice). */
  value: Coin | undefined
  onChange: (coin: Coin | undefined) => void
  /** Offer "choose on the payment page" (an invoice) besides the coins. */
  allowInvoice?: boolean
  disabled?: boolean
}) {
  const options: Array<{ coin: Coin | undefined; label: string; hint: string }> = [
    ...(allowInvoice ? [{ coin: undefined, label: "Any coin", hint: "choose on the payment page" }] : []),
    ...COINS.map((coin) => ({ coin, label: COIN_NAMES[coin], hint: coin.replace("_", " ") })),
  ]
  return (
    <fieldset className="crypto-coins" disabled={disabled} data-testid="crypto-coin-picker">
      <legend>Pay with</legend>
      {options.map(({ coin, label, hint }) => (
        <label key={coin ?? "any"} className="crypto-coin" data-selected={value === coin || undefined}>
          <input
            type="radio"
            name="crypto-coin"
            value={coin ?? ""}
            checked={value === coin}
            onChange={() => onChange(coin)}
          />
          <span className="crypto-coin__label">{label}</span>
          <span className="crypto-coin__hint">{hint}</span>
        </label>
      ))}
    </fieldset>
  )
}
