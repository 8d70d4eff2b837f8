import { CryptoRefundPage, useRefundLinkToken } from "../../../../docs/storefront/CryptoRefundPage"
import { cryptoRefundLabels } from "../../../../docs/storefront/crypto-refund-labels"
import { useShop } from "./shop-context"

/**
 * The page of the customer's refund-address link (`/crypto-refund#<token>`, in the plugin's refund email and
 * the admin's "copy link"; links sent before, `/crypto-refund/<token>`, too): docs/storefront's CryptoRefundPage
 * as a storefront mounts it, with the token of `useRefundLinkToken` (the fragment, else the older link's path),
 * the store's URL and publishable key, in the shopper's language (the demo's switch).
 */
export function RefundPage() {
  const { config, locale } = useShop()
  const token = useRefundLinkToken()
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
