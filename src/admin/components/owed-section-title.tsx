import { Text } from "@medusajs/ui"

/** The heading of one part of an owed record's refund (its address, basis, basis form). */
export function OwedSectionTitle({ children }: { children: React.ReactNode }) {
  return (
    <Text size="xsmall" weight="plus" className="text-ui-fg-subtle">
      {children}
    </Text>
  )
}
