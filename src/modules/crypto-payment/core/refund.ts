import { randomUUID } from "node:crypto"
import type { BigNumberInput } from "@medusajs/framework/types"
import { coinsFor } from "../../../lib/domain/owed"
import { coinUnits, storeAmount } from "../../../lib/domain/money"
import { CheckoutPayment, owedCapOf } from "../../../lib/domain/checkout-payment"
import type { OwedRefund } from "../ledger"

/**
 * A Medusa refund of `amount` as an owed record of the checkout's payment. Medusa passes no currency:
 * the amount is in the store currency the checkout was priced in (its first payment's base_currency).
 * Recorded on the first payment, whichever of the checkout's sessions Medusa refunds: the coins at its
 * rate (its required coins for its store amount, also when a remainder completed it, so an
 * overpayment's excess is not handed back here: it is owed separately), rounded down to the coin's
 * precision, and never more than what arrived on all the checkout's payments less what its other
 * records owe (an accepted-short payment refunded in full owes what arrived, not what was required).
 * Keyed by Medusa's refund id (the idempotency key the provider receives); a refund without one gets
 * a key of its own.
 */
export function refundOwedOf(
  checkout: CheckoutPayment,
  amount: BigNumberInput,
  refundId: string | undefined
): OwedRefund {
  const { first, rate } = checkout
  const currency = first.base_currency.trim().toUpperCase()
  const base = storeAmount(amount, currency)
  const key = `refund:${refundId ?? randomUUID()}`
  let coins = rate ? coinsFor(rate, base) : null
  // a retried refund is the record it already wrote: its own coins are not taken off its cap
  const cap = owedCapOf(checkout, checkout.records.find((r) => r.payment_id === first.payment_id && r.key === key)?.id)
  if (rate && coins && cap !== undefined && coinUnits(coins, rate.coin) > coinUnits(cap, rate.coin)) coins = cap
  return {
    payment_id: first.payment_id,
    key,
    refund_id: refundId ?? null,
    coin: rate?.coin ?? first.coin,
    coin_amount: coins,
    base_amount: base,
    base_currency: currency,
  }
}
