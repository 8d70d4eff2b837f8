import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { exportFileName } from "../../../../../lib/domain/accounting-export"
import { pluginLog } from "../../../../../lib/runtime/log"
import { exportBatchSize } from "../../../../../modules/crypto-payment/payment-export"
import { CRYPTO_PAYMENT_MODULE } from "../../../../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../../../../modules/crypto-payment/service"
import type { AdminCryptoPaymentsExportQueryType } from "../../validators"
import { streamCsv } from "./csv-stream"
import { paymentsFile, refundsFile } from "./export-file"

/**
 * GET /admin/crypto/payments/export?from&to[&provider_id][&kind=payments|refunds] — the accounting
 * export as a CSV file, streamed in keyset batches (docs/admin.md, "Accounting export"). Medusa orders
 * static path segments before parameters, so `/payments/[paymentId]` never sees "export".
 */
export async function GET(
  req: AuthenticatedMedusaRequest<unknown, AdminCryptoPaymentsExportQueryType>,
  res: MedusaResponse
) {
  const { from, to, provider_id, kind } = req.validatedQuery as AdminCryptoPaymentsExportQueryType
  const period = { from, to, providerId: provider_id }
  const ledger = req.scope.resolve<CryptoPaymentModuleService>(CRYPTO_PAYMENT_MODULE).paymentExport
  const size = exportBatchSize()
  const chunks = kind === "refunds" ? refundsFile(ledger, period, size) : paymentsFile(ledger, period, size)
  const log = pluginLog(req.scope.resolve(ContainerRegistrationKeys.LOGGER))
  await streamCsv(res, { name: exportFileName(kind, from, to), chunks }, log)
}
