import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { CRYPTO_PAYMENT_MODULE } from "../../../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../../../modules/crypto-payment/service"
import { adminPaymentViews } from "../admin-payment-view"
import type { AdminCryptoPaymentsQueryType } from "../validators"

/** GET /admin/crypto/payments — the ledger, newest first, filtered by order, status or flag. */
export async function GET(req: AuthenticatedMedusaRequest<unknown, AdminCryptoPaymentsQueryType>, res: MedusaResponse) {
  const { order_id, status, flag, limit, offset } = req.validatedQuery as AdminCryptoPaymentsQueryType
  const ledger: CryptoPaymentModuleService = req.scope.resolve(CRYPTO_PAYMENT_MODULE)
  const filters = {
    ...(order_id ? await ofOrder(req, order_id) : {}),
    ...(status ? { status } : {}),
    ...(flag ? { [flag]: true } : {}),
  }
  const [rows, count] = await ledger.listAndCountCryptoPayments(filters, {
    order: { created_at: "DESC" },
    take: limit,
    skip: offset,
  })
  res.json({ payments: await adminPaymentViews(req.scope, rows), count, limit, offset })
}

/**
 * An order's payments: those recorded with it, and those made for its payment collections (an
 * order still awaiting payment has not been recorded on its payment's row yet).
 */
async function ofOrder(req: AuthenticatedMedusaRequest, orderId: string) {
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order_payment_collection",
    fields: ["payment_collection_id"],
    filters: { order_id: orderId },
  })
  const collections = (data as Array<{ payment_collection_id: string }>).map((link) => link.payment_collection_id)
  return collections.length
    ? { $or: [{ order_id: orderId }, { payment_collection_id: collections }] }
    : { order_id: orderId }
}
