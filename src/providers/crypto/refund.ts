import type { BigNumberInput } from "@medusajs/framework/types"
import { COIN_DECIMALS, isCoin } from "../../lib/crypto-api/constants"
import { fromUnits, toUnits } from "../../lib/decimal"
import { AMOUNT_CURRENCY_DECIMALS, serviceAmount, toAmountCurrency } from "../../lib/money"
import type { LedgerRow } from "../../modules/crypto-payment/types"

export type RefundOwed = {
  /** This refund, in the base currency. */
  baseRefund: string
  /** All refunds of the payment so far, in the base currency. */
  baseRefunded: string
  /** All coins owed so far (received × refunded / paid), or null when the coin amount is not known yet. */
  coinOwed: string | null
}

/**
 * What a Medusa refund of `amount` (base currency) means in coins for a payment: the same share
 * of what the customer sent, rounded down to the coin's precision. Exact integer arithmetic.
 */
export function refundOwed(
  row: Pick<
    LedgerRow,
    | "base_amount"
    | "base_currency"
    | "coin"
    | "received_amount"
    | "required_amount"
    | "crypto_amount"
    | "refunded_base_amount"
  >,
  amount: BigNumberInput
): RefundOwed {
  const currency = toAmountCurrency(row.base_currency) ?? "USD"
  const places = AMOUNT_CURRENCY_DECIMALS[currency]
  const refund = toUnits(serviceAmount(amount, currency).text, places)
  const refunded = refund + (row.refunded_base_amount ? toUnits(row.refunded_base_amount, places) : 0n)
  const paid = toUnits(row.base_amount, places)
  const sent = row.received_amount ?? row.required_amount ?? row.crypto_amount
  let coinOwed: string | null = null
  if (isCoin(row.coin) && sent && paid > 0n) {
    const decimals = COIN_DECIMALS[row.coin]
    coinOwed = fromUnits((toUnits(sent, decimals) * refunded) / paid, decimals)
  }
  return { baseRefund: fromUnits(refund, places), baseRefunded: fromUnits(refunded, places), coinOwed }
}
