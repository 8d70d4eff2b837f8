import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { cryptoCore } from "../modules/crypto-payment/core"
import { owedIdOfToken, refundLinkExpiry, refundLinkUrl, refundToken, tokenOpens } from "../lib/domain/refund-link"
import { CRYPTO_PAYMENT_MODULE } from "../modules/crypto-payment"
import type CryptoPaymentModuleService from "../modules/crypto-payment/service"
import type { LedgerRow } from "../modules/crypto-payment/ledger"
import type { OwedWithAddress } from "../modules/crypto-payment/refund-addresses"
import type { RefundEmailData } from "../lib/domain/customer-email"
import { refundEmailOf } from "../lib/domain/refund-email"

/**
 * The customer's refund-address links (lib/domain/refund-link.ts). A link's secret lives on its owed
 * record; links emailed before secrets are checked by the provider until the record's `link_legacy_until`.
 */

export type OwedOfLink = { owed: OwedWithAddress; payment: LedgerRow }

/**
 * The owed record a link opens, with its payment: undefined for a token not ours, another record's, an
 * earlier copy of a re-issued link, or expired. A token that names no record costs one read by primary key.
 */
export async function owedOfToken(
  scope: MedusaContainer,
  token: string,
  now = new Date()
): Promise<OwedOfLink | undefined> {
  const owedId = owedIdOfToken(token)
  if (!owedId) return undefined
  const cryptoPayment: CryptoPaymentModuleService = scope.resolve(CRYPTO_PAYMENT_MODULE)
  const owed = await cryptoPayment.refundAddresses.owed(owedId)
  if (!owed || refundLinkExpiry(owed) <= now) return undefined
  const opens = tokenOpens(token, owed)
  const legacy = !opens && !!owed.link_legacy_until && new Date(owed.link_legacy_until) > now
  if (!opens && !legacy) return undefined
  const payment = await cryptoPayment.ledger.byPaymentId(owed.payment_id)
  if (!payment) return undefined
  if (legacy) {
    const core = await cryptoCore(scope, payment.provider_id)
    if (!(await core.legacyRefundLinkOpens(owedId, token))) return undefined
  }
  return { owed, payment }
}

/** The storefront's base URL for links: the customer emails' option, else the admin's (Medusa's "Copy payment link"). */
export function storefrontUrlOf(scope: MedusaContainer): string | undefined {
  const cryptoPayment: CryptoPaymentModuleService = scope.resolve(CRYPTO_PAYMENT_MODULE)
  const fromEmails = cryptoPayment.customerEmails()?.options.storefrontUrl
  if (fromEmails) return fromEmails
  try {
    const config = scope.resolve("configModule") as { admin?: { storefrontUrl?: string } }
    return config.admin?.storefrontUrl || undefined
  } catch {
    return undefined
  }
}

/**
 * An owed record's link (its secret drawn on first use): its token, its URL when the storefront's is
 * known, the storefront path it opens (`/crypto-refund#<token>`), and when it stops working.
 */
export async function refundLinkOf(scope: MedusaContainer, owed: OwedWithAddress) {
  const cryptoPayment: CryptoPaymentModuleService = scope.resolve(CRYPTO_PAYMENT_MODULE)
  const withSecret = owed.link_secret ? owed : ((await cryptoPayment.refundAddresses.withLinkSecret(owed.id)) ?? owed)
  const token = refundToken(owed.id, withSecret.link_secret!)
  const storefrontUrl = storefrontUrlOf(scope)
  return {
    token,
    url: storefrontUrl ? refundLinkUrl(storefrontUrl, token) : null,
    path: `/crypto-refund#${token}`,
    expires_at: refundLinkExpiry(withSecret).toISOString(),
  }
}

/** What a refund-address email says of an owed record: its coins, its link; with `given`, the address just given (masked). */
export async function refundEmailData(
  scope: MedusaContainer,
  owedId: string,
  given?: { address: string; coin: string }
): Promise<RefundEmailData | undefined> {
  const cryptoPayment: CryptoPaymentModuleService = scope.resolve(CRYPTO_PAYMENT_MODULE)
  const owed = await cryptoPayment.refundAddresses.owed(owedId)
  if (!owed) return undefined
  return refundEmailOf(owed, await refundLinkOf(scope, owed), given)
}
