import { StatusBadge } from "@medusajs/ui"

const COLOURS = { COMPLETED: "green", PENDING: "orange", EXPIRED: "grey", FAILED: "red" } as const

export function PaymentStatusBadge({ status }: { status: keyof typeof COLOURS }) {
  return <StatusBadge color={COLOURS[status] ?? "grey"}>{status}</StatusBadge>
}
