import { money } from "./medusa"

type Totals = {
  currency_code: string
  item_subtotal?: number | null
  shipping_total?: number | null
  tax_total?: number | null
  total?: number | null
}

/** The totals box of the cart, the checkout and the order page. */
export function Summary({ cart, title = "Summary" }: { cart: Totals; title?: string }) {
  const row = (label: string, amount: number | null | undefined, testId?: string) => (
    <div className="summary__row" data-testid={testId}>
      <span>{label}</span>
      <span>{money(amount, cart.currency_code)}</span>
    </div>
  )
  return (
    <div className="summary">
      <h2>{title}</h2>
      {row("Subtotal", cart.item_subtotal)}
      {row("Shipping", cart.shipping_total)}
      {row("Taxes", cart.tax_total)}
      <div className="summary__total">{row("Total", cart.total, "summary-total")}</div>
    </div>
  )
}
