import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"

/**
 * Medusa's capture and the order's record of it are separate transactions, so a run can fail between
 * the two; these are the captures the order lacks.
 */
export async function capturesNotOnOrder<C extends { id: string }>(
  container: MedusaContainer,
  orderId: string,
  captures: C[]
): Promise<C[]> {
  if (!captures.length) return []
  const recorded = await container
    .resolve(Modules.ORDER)
    .listOrderTransactions(
      { order_id: orderId, reference: "capture", reference_id: captures.map((c) => c.id) },
      { select: ["reference_id"] }
    )
  const ids = new Set(recorded.map((t) => t.reference_id))
  return captures.filter((c) => !ids.has(c.id))
}
