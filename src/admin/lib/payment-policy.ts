/** The payment policy form: which settings it edits, how it reads a typed tolerance, and what Save posts. */
import type { MAX_TOLERANCE_PERCENT } from "../../lib/domain/merchant-policy"
import type { CryptoSetting, CryptoSettingUpdate, LatePayments, PaymentPolicyField } from "./payment-types"

/** The settings an admin may change, in the order the form shows them. */
export const POLICY_FIELDS: readonly PaymentPolicyField[] = ["underpayment_tolerance_percent", "late_payments"]

/** The most a shop may accept short: the server's limit (its type is the number, so the two cannot differ). */
export const TOLERANCE_MAX_PERCENT: typeof MAX_TOLERANCE_PERCENT = 5

/** The tolerance input's text as a percent from 0 to 5 with at most 2 decimals; null when it is not one. */
export function parseTolerancePercent(text: string): number | null {
  const trimmed = text.trim()
  if (!/^\d+(\.\d{1,2})?$/.test(trimmed)) return null
  const value = Number(trimmed)
  return value <= TOLERANCE_MAX_PERCENT ? value : null
}

export type PolicyEdits = { underpayment_tolerance_percent?: string; late_payments?: LatePayments }

/**
 * The body that saves the admin's edits: only the fields that differ from the effective policy; null when
 * nothing differs or the tolerance is not a valid percent (there is nothing to save then).
 */
export function policyUpdate(setting: CryptoSetting, edits: PolicyEdits): CryptoSettingUpdate | null {
  const update: CryptoSettingUpdate = {}
  if (edits.underpayment_tolerance_percent !== undefined) {
    const tolerance = parseTolerancePercent(edits.underpayment_tolerance_percent)
    if (tolerance === null) return null
    if (tolerance !== setting.underpayment_tolerance_percent) update.underpayment_tolerance_percent = tolerance
  }
  if (edits.late_payments !== undefined && edits.late_payments !== setting.late_payments) {
    update.late_payments = edits.late_payments
  }
  return Object.keys(update).length ? { provider_id: setting.provider_id, ...update } : null
}

/** Whether a saved value, not the medusa-config default, decides a field. */
export function overridesDefault(setting: CryptoSetting, field: PaymentPolicyField): boolean {
  return setting.saved?.[field] != null
}
