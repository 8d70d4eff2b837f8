import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { pluginLog } from "../../../../../lib/runtime/log"
import { CRYPTO_PAYMENT_MODULE } from "../../../../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../../../../modules/crypto-payment/service"
import type { AdminCryptoAcknowledgeType } from "../../validators"
import { AdminSawChanged, answerSawChanged } from "../../conflict"
import { providerOf } from "../../settings/provider-of"

/**
 * POST /admin/crypto/health/acknowledge — an admin acknowledges what a setup health line reports (the
 * provider's API key in force): only the state the line showed, and once (the same state again answers the
 * standing acknowledgement). The line turns green; who and when are recorded.
 */
export async function POST(req: AuthenticatedMedusaRequest<AdminCryptoAcknowledgeType>, res: MedusaResponse) {
  const { provider_id, subject, value } = req.validatedBody
  // an acknowledgement is a person's: a secret API key (automation) cannot silence what it may have changed
  if (req.auth_context?.actor_type !== "user")
    throw new MedusaError(
      MedusaError.Types.FORBIDDEN,
      "Only an admin signed in to the dashboard can acknowledge a setup health line."
    )
  const core = await providerOf(req.scope, provider_id)
  const { providerId } = core
  const cryptoPayment: CryptoPaymentModuleService = req.scope.resolve(CRYPTO_PAYMENT_MODULE)
  const state = await core.apiKeyState()
  if (state.value !== value) {
    answerSawChanged(
      res,
      new AdminSawChanged(
        "The API key changed again since the setup health was read, so nothing was acknowledged: check again, and acknowledge what the line says now."
      )
    )
    return
  }
  const [standing] = await cryptoPayment.acknowledgements.newest([providerId], subject)
  if (standing?.value === state.value) return res.json({ acknowledgement: standing })
  const actorId = req.auth_context?.actor_id ?? null
  const acknowledgement = await cryptoPayment.acknowledgements.record({
    providerId,
    subject,
    ...state,
    how: "acknowledged",
    actorId,
  })
  pluginLog(req.scope.resolve(ContainerRegistrationKeys.LOGGER)).info(
    `API key of ${providerId} acknowledged on the setup health by ${actorId ?? "an unknown actor"} (in use ${state.facts.in_use}, ${state.facts.source === "admin" ? "saved from the admin" : "from medusa-config.ts"}; medusa-config's ${state.facts.config})`
  )
  res.json({ acknowledgement })
}
