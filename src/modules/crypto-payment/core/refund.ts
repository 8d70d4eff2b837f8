import { randomUUID } from "node:crypto"
import type { BigNumberInput } from "@medusajs/framework/types"
import { coinsBeyond, coinsFor, sumAmounts, sumCoins } from "../../../lib/domain/owed"
import { coinUnits, storeAmount, storeDecimals } from "../../../lib/domain/money"
import { CheckoutPayment, owedCapOf } from "../../../lib/domain/checkout-payment"
import type { OwedRefund } from "../ledger"

/**
 * Medusa passes no currency: `amount` is in the checkout's store currency. Recorded on the first payment
 * at its rate, whichever session Medusa refunds, rounded down and capped at what arrived less what other
 * records owe (an accepted-short payment refunded in full owes what arrived).
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
  // priced cumulatively: the coins for every refund so far, less those the earlier ones took, so refunds
  // in parts (10 then 90 of 100) round down once, never a unit each
  const earlier = checkout.records.filter((r) => r.kind === "refund" && r.key !== key)
  let coins = rate
    ? coinsBeyond(
        rate.coin,
        coinsFor(rate, sumAmounts(storeDecimals(currency) ?? 2, [base, ...earlier.map((r) => r.base_amount)])),
        sumCoins(
          rate.coin,
          earlier.map((r) => r.coin_amount)
        )
      )
    : null
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
