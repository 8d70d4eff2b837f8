import { StatusBadge } from "@medusajs/ui"
import { isPaymentStatus, statusLabel } from "../lib/payment-labels"
import type { PaymentStatus } from "../lib/payment-types"
import { useCryptoI18n } from "../lib/i18n"

const COLOURS: Record<PaymentStatus, "green" | "orange" | "grey" | "red"> = {
  COMPLETED: "green",
  PENDING: "orange",
  EXPIRED: "grey",
  FAILED: "red",
}

/** A payment's status in the admin's language; `data-status` keeps the service's code (grey for one this admin does not know). */
export function PaymentStatusBadge({ status }: { status: string }) {
  const { t } = useCryptoI18n()
  return (
    <StatusBadge color={isPaymentStatus(status) ? COLOURS[status] : "grey"} data-status={status}>
      {statusLabel(t, status)}
    </StatusBadge>
  )
}
