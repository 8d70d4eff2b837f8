import { randomUUID } from "node:crypto"
import type { BigNumberInput } from "@medusajs/framework/types"
import { coinsBeyond, coinsFor, rateOf } from "../../lib/domain/owed"
import { coinUnits, storeAmount } from "../../lib/domain/money"
import type { LedgerRow } from "../../modules/crypto-payment/types"
import type { OwedRefund } from "../../modules/crypto-payment/provider-queries"

/**
 * A Medusa refund of `amount` as an owed record. Medusa passes no currency: the amount is in the store
 * currency the payment was priced in, which the ledger row holds (base_currency): the coins at the rate the session
 * was priced at (the first payment's: the service's required coins for its base amount, also when a
 * remainder completed it, so an overpayment's excess is not handed back here: it is owed
 * separately), rounded down to the coin's precision, and never more than what arrived and was not
 * refunded yet (an accepted-short payment refunded in full owes what arrived, not what was
 * required). Keyed by Medusa's refund id (the idempotency key the provider receives); a refund
 * without one gets a key of its own.
 */
export function refundOwedOf(
  row: Pick<LedgerRow, "payment_id" | "base_amount" | "base_currency" | "coin" | "required_amount" | "crypto_amount">,
  amount: BigNumberInput,
  refundId: string | undefined,
  arrived?: { received: string; refunded: string }
): OwedRefund {
  const currency = row.base_currency.trim().toUpperCase()
  const base = storeAmount(amount, currency)
  const rate = rateOf(row)
  let coins = rate ? coinsFor(rate, base) : null
  if (rate && coins && arrived) {
    const left = coinsBeyond(rate.coin, arrived.received, arrived.refunded)
    if (coinUnits(coins, rate.coin) > coinUnits(left, rate.coin)) coins = left
  }
  return {
    payment_id: row.payment_id,
    key: `refund:${refundId ?? randomUUID()}`,
    refund_id: refundId ?? null,
    coin: rate?.coin ?? row.coin,
    coin_amount: coins,
    base_amount: base,
    base_currency: currency,
  }
}
