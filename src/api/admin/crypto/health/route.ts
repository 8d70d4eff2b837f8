import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { HealthCheck, worstLevel } from "../../../../lib/setup-health/checks"
import { CRYPTO_PAYMENT_MODULE } from "../../../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../../../modules/crypto-payment/service"
import { cryptoCores, type RegionCurrency } from "../../../../modules/crypto-payment/core"
import { apiKeyChangeLines } from "./api-key-lines"

/** GET /admin/crypto/health — one line per check, each green, amber or red with what to do. */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const cryptoPayment: CryptoPaymentModuleService = req.scope.resolve(CRYPTO_PAYMENT_MODULE)
  const cores = await cryptoCores(req.scope)
  const regions = cores.length ? await regionsByProvider(req) : new Map<string, RegionCurrency[]>()
  const checks: HealthCheck[] = cores.length
    ? (
        await Promise.all(cores.map(async (core) => (await core.health(regions.get(core.providerId) ?? [])).checks))
      ).flat()
    : [
        {
          id: "provider",
          label: "Crypto provider",
          level: "red",
          detail: "No crypto payment provider is registered in the payment module.",
          action: "Add the crypto provider to the payment module's providers in medusa-config.ts.",
        },
      ]
  // the health answers without these lines when the plugin's tables cannot be read (before db:migrate: the migrations line says so)
  checks.push(...(await apiKeyChangeLines(req.scope, cores).catch(() => [])))
  checks.push(...(await cryptoPayment.deploymentHealth()))
  res.json({ level: worstLevel(checks), checked_at: new Date().toISOString(), checks })
}

async function regionsByProvider(req: AuthenticatedMedusaRequest): Promise<Map<string, RegionCurrency[]>> {
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "region",
    fields: ["name", "currency_code", "payment_providers.id"],
  })
  const byProvider = new Map<string, RegionCurrency[]>()
  for (const region of data as Array<{
    name: string
    currency_code: string
    payment_providers?: Array<{ id: string } | null>
  }>) {
    for (const provider of region.payment_providers ?? []) {
      if (!provider) continue
      byProvider.set(provider.id, [
        ...(byProvider.get(provider.id) ?? []),
        { name: region.name, currency: region.currency_code },
      ])
    }
  }
  return byProvider
}
