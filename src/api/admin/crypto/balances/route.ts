import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { cryptoCore } from "../../../../modules/crypto-payment/core"
import { answerServiceError } from "../service-errors"
import { balanceView } from "./balance-view"

/** GET /admin/crypto/balances — the merchant's balances at the service, one entry per coin with activity. */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  try {
    const { summary } = await (await cryptoCore(req.scope)).balances()
    res.json({
      merchant_id: summary?.merchantId ?? null,
      business_name: summary?.businessName ?? null,
      balances: Object.entries(summary?.balances ?? {}).map(([currency, entry]) => balanceView(currency, entry)),
    })
  } catch (error) {
    if (!answerServiceError(res, error, "read the balances")) throw error
  }
}
