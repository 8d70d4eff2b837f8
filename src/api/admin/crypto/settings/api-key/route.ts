import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { AdminCryptoApiKeyType } from "../../validators"
import { providerOf } from "../provider-of"
import { settingsViews } from "../settings-view"

/**
 * POST /admin/crypto/settings/api-key — only with the last four of the key in use, and once a balances
 * read with the new key succeeds. In force here at once, within 30 s in other processes.
 */
export async function POST(req: AuthenticatedMedusaRequest<AdminCryptoApiKeyType>, res: MedusaResponse) {
  const core = await providerOf(req.scope, req.validatedBody.provider_id)
  await core.saveApiKey({
    apiKey: req.validatedBody.api_key,
    currentLastFour: req.validatedBody.current_key_last4 ?? null,
    actorId: req.auth_context?.actor_id ?? null,
  })
  const [setting] = await settingsViews(req.scope, [core])
  res.json({ setting })
}
