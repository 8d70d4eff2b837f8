import { z } from "zod"
import { LATE_PAYMENTS, LatePayments } from "./decision-terms"

/**
 * The merchant's payment policy (docs/money.md). The provider's options are the defaults; a setting
 * saved from the admin wins, field by field.
 */
export type MerchantPolicy = {
  /** 0–5, at most two decimals. */
  underpaymentTolerancePercent: number
  latePayments: LatePayments
}

/** The most a shop may accept short (5 %: beyond that it is a different price, not a wallet's fee). */
export const MAX_TOLERANCE_PERCENT = 5

/** A tolerance in percent, 0–5, with at most two decimals (it is stored in basis points). */
export const tolerancePercentSchema = z
  .number()
  .min(0)
  .max(MAX_TOLERANCE_PERCENT)
  .refine(
    (value) => Number.isInteger(Math.round(value * 100)) && Math.abs(value * 100 - Math.round(value * 100)) < 1e-9,
    {
      message: "must have at most two decimals",
    }
  )

export const latePaymentsSchema = z.enum(LATE_PAYMENTS)

/** What the admin saved (null: the option from medusa-config.ts). */
export type SavedPolicy = {
  underpayment_tolerance_bp: number | null
  late_payments: string | null
}

export const toBasisPoints = (percent: number) => Math.round(percent * 100)
export const fromBasisPoints = (basisPoints: number) => basisPoints / 100

const isLatePayments = (value: unknown): value is LatePayments => LATE_PAYMENTS.includes(value as LatePayments)

/** The policy in force: each saved field wins over the option; a saved value out of range is ignored. */
export function effectivePolicy(defaults: MerchantPolicy, saved: SavedPolicy | undefined | null): MerchantPolicy {
  const bp = saved?.underpayment_tolerance_bp
  const tolerance =
    typeof bp === "number" && bp >= 0 && bp <= toBasisPoints(MAX_TOLERANCE_PERCENT) ? fromBasisPoints(bp) : undefined
  return {
    underpaymentTolerancePercent: tolerance ?? defaults.underpaymentTolerancePercent,
    latePayments: isLatePayments(saved?.late_payments) ? saved.late_payments : defaults.latePayments,
  }
}
