import { Text } from "@medusajs/ui"

export function OwedSectionTitle({ children }: { children: React.ReactNode }) {
  return (
    <Text size="xsmall" weight="plus" className="text-ui-fg-subtle">
      {children}
    </Text>
  )
}
