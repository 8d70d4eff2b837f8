import { randomUUID } from "node:crypto"
import type { BigNumberInput } from "@medusajs/framework/types"
import { coinsFor, rateOf } from "../../lib/owed"
import { serviceAmount, toAmountCurrency } from "../../lib/money"
import type { LedgerRow } from "../../modules/crypto-payment/types"
import type { OwedRefund } from "./ledger"

/**
 * A Medusa refund of `amount` (base currency) as an owed record: the coins at the payment's own
 * rate (the service's required coins for the invoice's base amount, so an overpayment's excess is
 * not handed back here: it is owed separately), rounded down to the coin's precision. Keyed by
 * Medusa's refund id (the idempotency key the provider receives); a refund without one gets a key
 * of its own.
 */
export function refundOwedOf(
  row: Pick<LedgerRow, "payment_id" | "base_amount" | "base_currency" | "coin" | "required_amount" | "crypto_amount">,
  amount: BigNumberInput,
  refundId: string | undefined
): OwedRefund {
  const currency = toAmountCurrency(row.base_currency) ?? "USD"
  const base = serviceAmount(amount, currency).text
  const rate = rateOf(row)
  return {
    payment_id: row.payment_id,
    key: `refund:${refundId ?? randomUUID()}`,
    refund_id: refundId ?? null,
    coin: rate?.coin ?? row.coin,
    coin_amount: rate ? coinsFor(rate, base) : null,
    base_amount: base,
    base_currency: currency,
  }
}
