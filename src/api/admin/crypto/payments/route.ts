import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { CRYPTO_PAYMENT_MODULE } from "../../../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../../../modules/crypto-payment/service"
import { decodeCursor } from "../../../../modules/crypto-payment/list-cursor"
import type { ListFilters, OrderScope } from "../../../../modules/crypto-payment/payment-list"
import { parseOrderRef } from "../../../../lib/domain/order-ref"
import { adminPaymentViews } from "../admin-payment-view"
import type { AdminCryptoPaymentsQueryType } from "../validators"
import { sayDeprecated } from "../deprecation"

/** When `offset` was deprecated; it goes in the release after. */
const OFFSET_DEPRECATED_AT = new Date(Date.UTC(2026, 10, 26))

/**
 * GET /admin/crypto/payments — the ledger, newest first, a page at a time (no total: a filtered count of
 * a million rows costs more than the page). `offset` (deprecated) gives the old answer with its count.
 */
export async function GET(req: AuthenticatedMedusaRequest<unknown, AdminCryptoPaymentsQueryType>, res: MedusaResponse) {
  const query = req.validatedQuery as AdminCryptoPaymentsQueryType
  const cryptoPayment: CryptoPaymentModuleService = req.scope.resolve(CRYPTO_PAYMENT_MODULE)
  const filters = await listFilters(req.scope, cryptoPayment, query)
  const { limit, offset } = query
  if (offset !== undefined) {
    const { rows, count } = await cryptoPayment.paymentList.offsetPage(filters, limit, offset)
    sayDeprecated(
      res,
      OFFSET_DEPRECATED_AT,
      "offset is deprecated and goes in the next release: page with cursor (next_cursor, prev_cursor)"
    )
    res.json({ payments: await adminPaymentViews(req.scope, rows), count, limit, offset })
    return
  }
  // the validator took only cursors this list hands out
  const cursor = query.cursor ? decodeCursor(query.cursor) : undefined
  const page = await cryptoPayment.paymentList.page(filters, limit, cursor)
  res.json({
    payments: await adminPaymentViews(req.scope, page.rows),
    limit,
    next_cursor: page.nextCursor,
    prev_cursor: page.prevCursor,
  })
}

/** The query's filters as the list applies them, each order (`order`, `order_id`) with its payment collections. */
async function listFilters(
  scope: MedusaContainer,
  cryptoPayment: CryptoPaymentModuleService,
  query: AdminCryptoPaymentsQueryType
): Promise<ListFilters> {
  const orders: OrderScope[] = []
  if (query.order_id) orders.push(await orderScope(scope, [query.order_id]))
  const ref = query.order ? parseOrderRef(query.order) : undefined
  if (ref && "orderId" in ref) orders.push(await orderScope(scope, [ref.orderId]))
  if (ref && "displayId" in ref) {
    // the order with that number, if this database holds it (one awaiting payment is not on its payment's
    // row yet: its collections find it), and the rows that recorded the number
    const ids = await cryptoPayment.paymentList.ordersOfDisplayId(ref.displayId)
    orders.push({ ...(await orderScope(scope, ids)), displayId: ref.displayId })
  }
  return {
    status: query.status,
    flag: query.flag,
    coin: query.coin,
    createdFrom: query.created_from,
    createdTo: query.created_to,
    orders,
  }
}

/**
 * An order's payments: those recorded with it, and those made for its payment collections (an
 * order still awaiting payment has not been recorded on its payment's row yet).
 */
async function orderScope(scope: MedusaContainer, orderIds: string[]): Promise<OrderScope> {
  if (!orderIds.length) return { orderIds, collectionIds: [] }
  const query = scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order_payment_collection",
    fields: ["payment_collection_id"],
    filters: { order_id: orderIds },
  })
  const collectionIds = (data as Array<{ payment_collection_id: string }>).map((link) => link.payment_collection_id)
  return { orderIds, collectionIds }
}
