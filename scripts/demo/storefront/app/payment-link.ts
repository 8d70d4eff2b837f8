/**
 * The payment link Medusa's dashboard copies for an order with an amount outstanding (after an order edit,
 * claim or exchange): `${storefront}/payment-collection/<collection id>?order_id=<order id>`. A path, not
 * one of this app's hash routes, so main.tsx reads it from the location before the hash router.
 */
export type PaymentLink = { collectionId: string; orderId: string | undefined }

export function paymentLinkOf(pathname: string, search: string): PaymentLink | undefined {
  const match = /^\/payment-collection\/([^/]+)\/?$/.exec(pathname)
  if (!match) return undefined
  const orderId = new URLSearchParams(search).get("order_id") || undefined
  return { collectionId: decodeURIComponent(match[1]), orderId }
}

/**
 * The customer's refund-address link, `${storefront}/crypto-refund#<token>` (the plugin's refund email, the
 * admin's "copy link"), and the older `${storefront}/crypto-refund/<token>` of links sent before the token moved
 * after `#`: whether the path is one of them, read before the hash router (the fragment is the token there, not
 * a route). The page finds its token itself (docs/storefront's `useRefundLinkToken`).
 */
export function isRefundLinkPath(pathname: string): boolean {
  return /^\/crypto-refund(?:\/[^/]+)?\/?$/.test(pathname)
}

/**
 * The order page the plugin's emails link to, `${storefront}/order/<order id>/confirmed` (its default `orderPath`,
 * Medusa's starter's page), with the country the starter puts before it or not: the order's id, read before the
 * hash router like the links above. The older default, `/order/<order id>`, opens it too.
 */
export function orderOfPath(pathname: string): string | undefined {
  const match = /^(?:\/[a-z]{2})?\/order\/([^/]+)(?:\/confirmed)?\/?$/.exec(pathname)
  return match ? decodeURIComponent(match[1]) : undefined
}
