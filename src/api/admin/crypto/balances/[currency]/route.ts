import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { cryptoCore } from "../../../../../modules/crypto-payment/core"
import { COINS } from "../../../../../lib/crypto-api/constants"
import { answerServiceError } from "../../service-errors"
import { AdminCryptoBalanceParams } from "../../validators"
import { balanceView } from "../balance-view"

/** GET /admin/crypto/balances/:currency — one coin's balance with its limits and their reset times. */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const params = AdminCryptoBalanceParams.safeParse(req.params)
  if (!params.success) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `Unknown coin: currency must be one of ${COINS.join(", ")}.`)
  }
  try {
    const { balance } = await (await cryptoCore(req.scope)).balances(params.data.currency)
    if (!balance)
      throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "The crypto payment service returned no balance.")
    res.json({ balance: balanceView(balance.currency, balance.balance) })
  } catch (error) {
    if (!answerServiceError(res, error, `read the ${params.data.currency} balance`)) throw error
  }
}
