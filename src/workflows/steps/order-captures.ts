import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"

/**
 * The captures an order holds no capture transaction for. Medusa's capture and the order's record
 * of it are separate transactions, so a run can fail between the two; the load step finds such a
 * capture, and the capture step adds only these (a retry adds none twice).
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
