/**
 * The payment id a notification's body names: a hint only (the status always comes from the service,
 * and only a payment of the ledger counts). Read from `paymentId`, `payment_id` or `data.paymentId`,
 * and only when it looks like an id; any other body names nothing.
 */
export function paymentIdOf(body: unknown): string | undefined {
  const hint = (body && typeof body === "object" ? body : {}) as Record<string, unknown>
  const nested = (hint.data && typeof hint.data === "object" ? hint.data : {}) as Record<string, unknown>
  const found = [hint.paymentId, hint.payment_id, nested.paymentId].find(
    (v) => typeof v === "string" && /^[A-Za-z0-9_-]{1,128}$/.test(v)
  )
  return found as string | undefined
}
