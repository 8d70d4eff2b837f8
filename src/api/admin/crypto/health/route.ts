import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { Modules } from "@medusajs/framework/utils"
import { CryptoGateway } from "../../../../lib/crypto-gateway"
import { HealthCheck, worstLevel } from "../../../../lib/setup-health/checks"
import { CRYPTO_PAYMENT_MODULE } from "../../../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../../../modules/crypto-payment/service"

/**
 * GET /admin/crypto/health — is the crypto setup healthy? One line per check, each green, amber or
 * red with what to do: per provider the API key (a balances read), the webhook URL handed to the
 * service and the provider id; for the deployment the migrations, the locking provider against the
 * processes sharing the database, the worker mode, who settled the last day's payments, and the clock.
 */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const gateway = new CryptoGateway(req.scope.resolve(Modules.PAYMENT))
  const ledger: CryptoPaymentModuleService = req.scope.resolve(CRYPTO_PAYMENT_MODULE)
  const providerIds = await gateway.providerIds()
  const checks: HealthCheck[] = providerIds.length
    ? (await Promise.all(providerIds.map(async (id) => (await gateway.health(id)).checks))).flat()
    : [
        {
          id: "provider",
          label: "Crypto provider",
          level: "red",
          detail: "No crypto payment provider is registered in the payment module.",
          action: "Add the crypto provider to the payment module's providers in medusa-config.ts.",
        },
      ]
  checks.push(...(await ledger.deploymentHealth()))
  res.json({ level: worstLevel(checks), checked_at: new Date().toISOString(), checks })
}
