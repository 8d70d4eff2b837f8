import type { MedusaResponse } from "@medusajs/framework/http"
import type { MedusaContainer } from "@medusajs/framework/types"
import { isCoin } from "../../../../lib/crypto-api/constants"
import { sendableCoinsOf } from "../../../../lib/domain/money"
import { maskAddress, REFUND_NETWORKS, sharesAddressFormat } from "../../../../lib/domain/refund-address"
import { refundLinkExpiry } from "../../../../lib/domain/refund-link"
import { customerEmailSender, orderOfPayment } from "../../../../workflows/customer-email-send"
import { OwedOfLink, refundEmailData } from "../../../../workflows/refund-links"

/**
 * What the holder of a link sees. The link is a bearer token, so the address is masked, and there is no
 * order, name or email.
 */
export function refundPageView({ owed, payment }: OwedOfLink) {
  const coin = owed.coin ?? payment.coin
  const networks = isCoin(coin) ? [{ ...REFUND_NETWORKS[coin], shares_format: sharesAddressFormat(coin) }] : []
  return {
    kind: owed.kind,
    coin,
    // what the shop sends (rounded down to the places a wallet sends), and the exact coins owed
    coin_amount_sendable: sendableCoinsOf(coin, owed.coin_amount),
    coin_amount: owed.coin_amount,
    store_amount: owed.base_amount,
    store_currency: owed.base_currency,
    networks,
    address: owed.refund_address ? maskAddress(owed.refund_address) : null,
    address_coin: owed.refund_coin,
    can_change: !owed.payout_started_at && !owed.sent_at,
    sent: !!owed.sent_at,
    expires_at: refundLinkExpiry(owed).toISOString(),
  }
}

/** A refused address as the refund routes answer it (store and admin): 400 naming the field, with the reason's code. */
export function answerAddressRefused(
  res: MedusaResponse,
  { field, reason, message }: { field: string; reason: string; message: string }
): MedusaResponse {
  return res.status(400).json({ type: "invalid_data", code: "crypto.refund_address_invalid", field, reason, message })
}

/** The customer gave an address: with customer emails on, the order's address is told (masked), once per change. */
export async function sendAddressConfirmation(scope: MedusaContainer, { owed, payment }: OwedOfLink, changeId: string) {
  const sender = customerEmailSender(scope)
  if (!sender || !owed.refund_address || !owed.refund_coin) return
  const order = await orderOfPayment(scope, payment)
  const refund = await refundEmailData(scope, owed.id, {
    address: owed.refund_address,
    coin: owed.refund_coin,
  })
  if (!refund) return
  await sender.send({
    kind: "refund_address",
    payment,
    order,
    eventKey: `refund_address:${changeId}`,
    recordKey: `refund_address:${changeId}`,
    refund,
  })
}
