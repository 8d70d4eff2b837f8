import { isCoin } from "../crypto-api/constants"
import type { RefundEmailData } from "./customer-email"
import { sendableCoinsOf } from "./money"
import { maskAddress, REFUND_NETWORKS } from "./refund-address"

// not in customer-email.ts: shops' subscribers import that one (medusa-payment-crypto/events) without the address codecs

/** What a refund-address email says of an owed record: its coins, its link; with `given`, the address just given (masked). */
export function refundEmailOf(
  owed: { kind: string; coin: string | null; coin_amount: string | null; base_amount: string; base_currency: string },
  link: { url: string | null; expires_at: string },
  given?: { address: string; coin: string }
): RefundEmailData {
  return {
    owed_kind: owed.kind,
    coin: owed.coin,
    coin_amount_sendable: sendableCoinsOf(owed.coin, owed.coin_amount),
    coin_amount: owed.coin_amount,
    store_amount: owed.base_amount,
    store_currency: owed.base_currency,
    link_url: link.url,
    link_expires_at: link.expires_at,
    address_masked: given ? maskAddress(given.address) : null,
    network: given && isCoin(given.coin) ? REFUND_NETWORKS[given.coin].label : null,
  }
}
