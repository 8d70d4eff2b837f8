import { Text } from "@medusajs/ui"
import type { CryptoPayment } from "../lib/payment-types"
import { exactRateText, exchangeText, storeAmountText } from "../lib/exchange-rates"
import { useCryptoI18n } from "../lib/i18n"

/**
 * A payment's store amount ("25.00 EUR") and, when the service was asked USD for it, about how much and
 * at what rate ("≈ $27.11 USD at 1.0842 (ECB, 2026-11-24)"), the exact rate as its title.
 */
export function StoreAmount({ payment, className }: { payment: CryptoPayment; className?: string }) {
  const { t, locale } = useCryptoI18n()
  const { exchange } = payment
  return (
    <div className="flex flex-col items-start gap-y-0.5">
      <span data-testid="crypto-amount">{storeAmountText(payment.base_amount, payment.base_currency, locale)}</span>
      {exchange && (
        <Text
          size="xsmall"
          leading="compact"
          className={`text-ui-fg-subtle whitespace-normal break-normal ${className ?? ""}`}
          title={exactRateText(t, locale, payment.base_currency, exchange.rate)}
          data-testid="crypto-exchange"
          data-source={exchange.source}
        >
          {exchangeText(t, locale, exchange)}
        </Text>
      )}
    </div>
  )
}
