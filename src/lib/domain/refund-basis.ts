import type { Coin } from "../crypto-api/constants"
import { coinText, coinUnits } from "./money"
import { coinsFor, type PaymentRate } from "./owed"
import { toUnits } from "./decimal"

/**
 * `rate_then` (the default): a refund's store amount at the payment's rate; late or excess coins as
 * recorded (their store amount is rounded down: priced back, it would lose up to a unit).
 * `fixed_coins`: as typed. Each less an optional fee, never more than `cap`.
 */
export const REFUND_BASES = ["rate_then", "fixed_coins"] as const
export type RefundBasis = (typeof REFUND_BASES)[number]

/** Fee percent: 0–100, at most two decimals (basis points). */
const FEE_BP_MAX = 10_000n

export type RefundBasisChoice = { basis: RefundBasis; coins?: string; feePercent?: string }

export type RefundCoins = { coins: string; capped: boolean; fee: string }

export function refundCoinsOf(
  choice: RefundBasisChoice,
  record: { kind?: string; base_amount: string; recorded_coin_amount?: string | null },
  rate: PaymentRate,
  cap: string
): RefundCoins {
  const coin: Coin = rate.coin
  const gross =
    choice.basis === "fixed_coins"
      ? coinUnits(choice.coins ?? "0", coin, "down")
      : record.kind !== "refund" && record.recorded_coin_amount
        ? coinUnits(record.recorded_coin_amount, coin, "down")
        : coinUnits(coinsFor(rate, record.base_amount), coin, "down")
  const feeBp = choice.feePercent ? toUnits(choice.feePercent, 2, "down") : 0n
  if (feeBp < 0n || feeBp > FEE_BP_MAX) throw new RangeError("fee percent must be between 0 and 100")
  const fee = (gross * feeBp + FEE_BP_MAX - 1n) / FEE_BP_MAX
  const net = gross - fee
  const capUnits = coinUnits(cap, coin, "down")
  const capped = net > capUnits
  return { coins: coinText(capped ? capUnits : net, coin), capped, fee: coinText(fee, coin) }
}
