import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { cryptoCores } from "../../../../modules/crypto-payment/core"
import { pluginLog } from "../../../../lib/runtime/log"
import { toBasisPoints } from "../../../../lib/domain/merchant-policy"
import { CRYPTO_PAYMENT_MODULE } from "../../../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../../../modules/crypto-payment/service"
import type { AdminCryptoSettingsType } from "../validators"
import { changeViews, settingsViews } from "./settings-view"
import { providerOf, unknownProvider } from "./provider-of"

/**
 * GET /admin/crypto/settings — each crypto provider's payment policy (underpayment tolerance, late
 * payments): in force, medusa-config's defaults, what the admin saved; and the change log.
 */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const all = await cryptoCores(req.scope)
  const asked = (req.validatedQuery as { provider_id?: string } | undefined)?.provider_id
  const cores = asked ? all.filter((core) => core.providerId === asked) : all
  if (asked && !cores.length) throw unknownProvider(asked)
  res.json({
    settings: await settingsViews(req.scope, cores),
    changes: await changeViews(
      req.scope,
      cores.map((core) => core.providerId)
    ),
  })
}

/**
 * POST /admin/crypto/settings — saves a provider's policy over medusa-config's options (null goes back to
 * them). In force here at once, within five seconds in other processes.
 */
export async function POST(req: AuthenticatedMedusaRequest<AdminCryptoSettingsType>, res: MedusaResponse) {
  const body = req.validatedBody
  const core = await providerOf(req.scope, body.provider_id)
  const { providerId } = core

  const cryptoPayment: CryptoPaymentModuleService = req.scope.resolve(CRYPTO_PAYMENT_MODULE)
  const actorId = req.auth_context?.actor_id ?? null
  const log = pluginLog(req.scope.resolve(ContainerRegistrationKeys.LOGGER))
  if (body.accept_held_rates) {
    // the publication is held on the row of the configured url's source, whatever spelling it is stored under
    const accepted = await core.rates.acceptHeld(providerId, actorId)
    if (!accepted)
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "No exchange-rate publication is held for this provider.")
    log.info(
      `exchange rates of ${accepted.to} accepted for ${providerId} by ${actorId ?? "an unknown actor"} (held for a jump; replaced ${accepted.from ?? "none"})`
    )
  }
  const made = await cryptoPayment.settings.save(
    providerId,
    {
      ...(body.underpayment_tolerance_percent !== undefined
        ? {
            underpayment_tolerance_bp:
              body.underpayment_tolerance_percent === null ? null : toBasisPoints(body.underpayment_tolerance_percent),
          }
        : {}),
      ...(body.late_payments !== undefined ? { late_payments: body.late_payments } : {}),
    },
    actorId
  )
  await core.policy(true)
  for (const change of made)
    log.info(
      `setting ${change.field} of ${providerId} changed from ${change.from ?? "the default"} to ${change.to ?? "the default"} by ${actorId ?? "an unknown actor"}`
    )
  const [setting] = await settingsViews(req.scope, [core])
  res.json({ setting })
}
