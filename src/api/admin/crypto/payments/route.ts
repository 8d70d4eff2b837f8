import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { CRYPTO_PAYMENT_MODULE } from "../../../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../../../modules/crypto-payment/service"
import { adminPaymentView } from "../payment-view"
import type { AdminCryptoPaymentsQueryType } from "../validators"

/** GET /admin/crypto/payments — the ledger, newest first, filtered by order, status or flag. */
export async function GET(req: AuthenticatedMedusaRequest<unknown, AdminCryptoPaymentsQueryType>, res: MedusaResponse) {
  const { order_id, status, flag, limit, offset } = req.validatedQuery as AdminCryptoPaymentsQueryType
  const ledger: CryptoPaymentModuleService = req.scope.resolve(CRYPTO_PAYMENT_MODULE)
  const filters = { ...(order_id ? { order_id } : {}), ...(status ? { status } : {}), ...(flag ? { [flag]: true } : {}) }
  const [rows, count] = await ledger.listAndCountCryptoPayments(filters, { order: { created_at: "DESC" }, take: limit, skip: offset })
  res.json({ payments: rows.map(adminPaymentView), count, limit, offset })
}
