"use client"
/**
 * The coin picker of the payment step (payment mode): the customer picks the coin in your checkout, or
 * leaves it to the service's hosted page (an invoice). Pass the choice to `startCryptoPayment`.
 * Texts in the `locale` you pass, with your `labels` on top (crypto-payment-labels.ts).
 * Styles: crypto-payment.css. Used by the demo storefront (scripts/demo/storefront).
 */
import { coinCode, COINS, Coin } from "./crypto-payment"
import { cryptoPaymentLabels } from "./crypto-payment-i18n"
import type { CryptoPaymentLabelOverrides } from "./crypto-payment-labels"

export function CryptoCoinPicker({
  value,
  onChange,
  allowInvoice = true,
  disabled = false,
  locale,
  labels,
}: {
  /** undefined: the customer chooses on the hosted page (an invoice). */
  value: Coin | undefined
  onChange: (coin: Coin | undefined) => void
  /** Offer "choose on the payment page" (an invoice) besides the coins. */
  allowInvoice?: boolean
  disabled?: boolean
  /** The customer's locale: "en", "de", "fr", "es", or any BCP 47 tag (by its language, else English). */
  locale?: string
  /** Texts to use instead of the built-in ones. */
  labels?: CryptoPaymentLabelOverrides
}) {
  const text = cryptoPaymentLabels(locale, labels)
  const options: Array<{ coin: Coin | undefined; label: string; hint: string }> = [
    ...(allowInvoice ? [{ coin: undefined, label: text.anyCoin, hint: text.anyCoinHint }] : []),
    ...COINS.map((coin) => ({ coin, label: text.coins[coin], hint: coinCode(coin) })),
  ]
  return (
    <fieldset className="crypto-coins" disabled={disabled} data-testid="crypto-coin-picker">
      <legend>{text.payWith}</legend>
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
