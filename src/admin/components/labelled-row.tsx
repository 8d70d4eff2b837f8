import { Text } from "@medusajs/ui"

/**
 * How a labelled row lays out: "card" (the order widget: a narrow label, long values such as addresses
 * broken anywhere) or "panel" (the policy panel: a wider label, values broken between words).
 */
const LAYOUTS = {
  card: { grid: "grid-cols-[120px_1fr]", value: "break-all" },
  panel: { grid: "grid-cols-[160px_1fr]", value: "break-words" },
} as const

export function LabelledRow({
  label,
  layout,
  children,
}: {
  label: string
  layout: keyof typeof LAYOUTS
  children: React.ReactNode
}) {
  const { grid, value } = LAYOUTS[layout]
  return (
    <div className={`grid ${grid} items-start gap-x-3 py-1`}>
      <Text size="small" leading="compact" className="text-ui-fg-subtle">
        {label}
      </Text>
      <div className={`text-ui-fg-base txt-compact-small min-w-0 ${value}`}>{children}</div>
    </div>
  )
}
