export function ProgressBar({ value, max, label }: { value: number; max: number; label: string }) {
  const share = max > 0 ? Math.min(1, Math.max(0, value / max)) : 0
  return (
    <div className="flex flex-col gap-y-1">
      <div
        className="bg-ui-bg-subtle h-2 w-full overflow-hidden rounded-full"
        role="progressbar"
        aria-label={label}
        aria-valuenow={value}
        aria-valuemin={0}
        aria-valuemax={max}
      >
        <div className="bg-ui-fg-interactive h-full rounded-full" style={{ width: `${share * 100}%` }} />
      </div>
    </div>
  )
}
