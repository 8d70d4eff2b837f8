import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import type { HealthCheck } from "../../../../lib/setup-health/checks"
import { API_KEY_CHANGE_NOTICE_DAYS, apiKeyChangeCheck } from "../../../../lib/setup-health/api-key-change"
import { CRYPTO_PAYMENT_MODULE } from "../../../../modules/crypto-payment"
import type { PaymentCore } from "../../../../modules/crypto-payment/core"
import type CryptoPaymentModuleService from "../../../../modules/crypto-payment/service"
import { apiKeyChangeViews } from "../settings/settings-view"

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * Each provider's API key change line: its key state against the newest acknowledged one. A provider
 * with none acknowledged yet has its state recorded as first seen, which later changes are compared with.
 */
export async function apiKeyChangeLines(scope: MedusaContainer, cores: PaymentCore[]): Promise<HealthCheck[]> {
  if (!cores.length) return []
  const cryptoPayment: CryptoPaymentModuleService = scope.resolve(CRYPTO_PAYMENT_MODULE)
  const providerIds = cores.map((core) => core.providerId)
  const now = new Date()
  const [changes, acknowledged, states] = await Promise.all([
    apiKeyChangeViews(scope, providerIds, new Date(now.getTime() - API_KEY_CHANGE_NOTICE_DAYS * DAY_MS)),
    cryptoPayment.acknowledgements.newest(providerIds, "api_key"),
    Promise.all(cores.map((core) => core.apiKeyState())),
  ])
  const firstSeen = await Promise.all(
    cores.map(async ({ providerId }, i) =>
      acknowledged.some((a) => a.provider_id === providerId)
        ? undefined
        : cryptoPayment.acknowledgements.record(
            { providerId, subject: "api_key", ...states[i], how: "first_sight", actorId: null },
            { onlyIfNone: true }
          )
    )
  )
  const all = [...acknowledged, ...firstSeen.filter((a) => !!a)]
  const actorIds = [...new Set(all.map((a) => a.actor_id).filter((id): id is string => !!id))]
  const users = actorIds.length
    ? await scope.resolve(Modules.USER).listUsers({ id: actorIds }, { select: ["id", "email"] })
    : []
  return cores.flatMap(({ providerId }, i) => {
    const newest = all.find((a) => a.provider_id === providerId)
    const line = apiKeyChangeCheck({
      providerId,
      state: states[i],
      acknowledged: newest && { ...newest, actor_email: users.find((u) => u.id === newest.actor_id)?.email ?? null },
      changes: changes.filter((c) => c.provider_id === providerId),
      now,
    })
    return line ? [line] : []
  })
}
