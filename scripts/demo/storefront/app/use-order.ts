import type { HttpTypes } from "@medusajs/types"
import { useCallback, useEffect, useState } from "react"
import { messageOf } from "./medusa"
import { useShop } from "./shop-context"

/**
 * An order read through the store API with `fields`, once the page knows its id; `load` reads it
 * again (a payment's final verdict reaches the order a moment later) and answers it.
 */
export function useStoreOrder(orderId: string | undefined, fields: string) {
  const { sdk } = useShop()
  const [order, setOrder] = useState<HttpTypes.StoreOrder>()
  const [error, setError] = useState<string>()

  const load = useCallback(async () => {
    const { order } = await sdk.store.order.retrieve(orderId!, { fields })
    setOrder(order)
    return order
  }, [sdk, orderId, fields])

  useEffect(() => {
    if (orderId) load().catch((e) => setError(messageOf(e)))
  }, [load, orderId])

  return { order, load, error, setError }
}
