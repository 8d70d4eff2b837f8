import { StatusBadge } from "@medusajs/ui"
import { PaymentStatus, statusLabel } from "../lib/crypto-payments"
import { useCryptoI18n } from "../lib/i18n"

const COLOURS = { COMPLETED: "green", PENDING: "orange", EXPIRED: "grey", FAILED: "red" } as const

/** A payment's status in the admin's language; `data-status` keeps the service's code. */
export function PaymentStatusBadge({ status }: { status: PaymentStatus }) {
  const { t } = useCryptoI18n()
  return (
    <StatusBadge color={COLOURS[status] ?? "grey"} data-status={status}>
      {statusLabel(t, status)}
    </StatusBadge>
  )
}
