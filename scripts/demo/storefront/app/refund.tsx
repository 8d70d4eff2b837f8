import { CryptoRefundPage } from "../../../../docs/storefront/CryptoRefundPage"
import { cryptoRefundLabels } from "../../../../docs/storefront/crypto-refund-labels"
import { useShop } from "./shop-context"

/**
 * The page of the customer's refund-address link (`/crypto-refund/<token>`, in the plugin's refund email and
 * the admin's "copy link"): docs/storefront's CryptoRefundPage as a storefront mounts it, with the store's URL
 * and publishable key, in the shopper's language (the demo's switch).
 */
export function RefundPage({ token }: { token: string }) {
  const { config, locale } = useShop()
  return (
    <div className="order refund" data-testid="refund-page">
      <h1 className="title">{cryptoRefundLabels(locale).title}</h1>
      <CryptoRefundPage
        backend={{ baseUrl: config.backendUrl, publishableKey: config.publishableKey }}
        token={token}
        locale={locale}
      />
      <p className="muted">
        <a href="/#/">Back to the shop</a>
      </p>
    </div>
  )
}
