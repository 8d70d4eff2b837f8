/**
 * An order as an admin names it in a filter: its id (`order_…`), or the number the dashboard shows
 * for it (`1042` or `#1042`). Pure and without imports: the admin's bundle checks what is typed with it.
 */
export type OrderRef = { orderId: string } | { displayId: number }

/** The most a display id can be: PostgreSQL's integer. */
const MAX_DISPLAY_ID = 2_147_483_647

export function parseOrderRef(text: string): OrderRef | undefined {
  const ref = text.trim()
  if (/^order_[A-Za-z0-9]{1,60}$/.test(ref)) return { orderId: ref }
  const number = /^#?(\d{1,10})$/.exec(ref)?.[1]
  if (number === undefined) return undefined
  const displayId = Number(number)
  return displayId >= 1 && displayId <= MAX_DISPLAY_ID ? { displayId } : undefined
}
