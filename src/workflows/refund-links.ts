import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { CryptoGateway } from "../lib/provider-door/gateway"
import { owedIdOfToken, refundLinkExpiry, refundLinkUrl } from "../lib/domain/refund-link"
import { CRYPTO_PAYMENT_MODULE } from "../modules/crypto-payment"
import type CryptoPaymentModuleService from "../modules/crypto-payment/service"
import type { CryptoPaymentRow } from "../modules/crypto-payment/service"
import type { OwedWithAddress } from "../modules/crypto-payment/refund-addresses"
import type { RefundEmailData } from "../lib/domain/customer-email"
import { maskAddress, REFUND_NETWORKS } from "../lib/domain/refund-address"
import { isCoin } from "../lib/crypto-api/constants"

/**
 * The customer's refund-address links (lib/domain/refund-link.ts), for the store routes that open them
 * and the admin routes that hand them out. The token is signed with the provider's key, which only the
 * provider holds: both ask it through the door (`refund_link`).
 */

export type OwedOfLink = { owed: OwedWithAddress; payment: CryptoPaymentRow }

/** The owed record a link opens, with its payment: undefined for a token not ours, another record's, or expired. */
export async function owedOfToken(
  scope: MedusaContainer,
  token: string,
  now = new Date()
): Promise<OwedOfLink | undefined> {
  const owedId = owedIdOfToken(token)
  if (!owedId) return undefined
  const ledger: CryptoPaymentModuleService = scope.resolve(CRYPTO_PAYMENT_MODULE)
  const owed = await ledger.refundAddresses.owed(owedId)
  if (!owed) return undefined
  const payment = await ledger.retrieveByPaymentId(owed.payment_id)
  if (!payment) return undefined
  const { valid } = await new CryptoGateway(scope.resolve(Modules.PAYMENT)).call({
    op: "refund_link",
    owedId,
    token,
    providerId: payment.provider_id,
  })
  if (!valid || refundLinkExpiry(owed) <= now) return undefined
  return { owed, payment }
}

/** The storefront's base URL for links: the customer emails' option, else the admin's (Medusa's "Copy payment link"). */
export function storefrontUrlOf(scope: MedusaContainer): string | undefined {
  const ledger: CryptoPaymentModuleService = scope.resolve(CRYPTO_PAYMENT_MODULE)
  const fromEmails = ledger.customerEmails()?.options.storefrontUrl
  if (fromEmails) return fromEmails
  try {
    const config = scope.resolve("configModule") as { admin?: { storefrontUrl?: string } }
    return config.admin?.storefrontUrl || undefined
  } catch {
    return undefined
  }
}

/** An owed record's link: its token, its URL when the storefront's is known, and when it stops working. */
export async function refundLinkOf(scope: MedusaContainer, owed: OwedWithAddress, providerId: string | null) {
  const { token } = await new CryptoGateway(scope.resolve(Modules.PAYMENT)).call({
    op: "refund_link",
    owedId: owed.id,
    providerId,
  })
  const storefrontUrl = storefrontUrlOf(scope)
  return {
    token,
    url: storefrontUrl ? refundLinkUrl(storefrontUrl, token) : null,
    path: `/crypto-refund/${token}`,
    expires_at: refundLinkExpiry(owed).toISOString(),
  }
}

/** What a refund-address email says of an owed record: its coins, its link; with `given`, the address just given (masked). */
export async function refundEmailData(
  scope: MedusaContainer,
  owedId: string,
  providerId: string | null,
  given?: { address: string; coin: string }
): Promise<RefundEmailData | undefined> {
  const ledger: CryptoPaymentModuleService = scope.resolve(CRYPTO_PAYMENT_MODULE)
  const owed = await ledger.refundAddresses.owed(owedId)
  if (!owed) return undefined
  const link = await refundLinkOf(scope, owed, providerId)
  return {
    owed_kind: owed.kind,
    coin: owed.coin,
    coin_amount: owed.coin_amount,
    store_amount: owed.base_amount,
    store_currency: owed.base_currency,
    link_url: link.url,
    link_expires_at: link.expires_at,
    address_masked: given ? maskAddress(given.address) : null,
    network: given && isCoin(given.coin) ? REFUND_NETWORKS[given.coin].label : null,
  }
}
