import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { AdminCryptoApiKeyType } from "../../validators"
import { ApiKeyChangeRefused } from "../../../../../modules/crypto-payment/core"
import { providerOf } from "../provider-of"
import { settingsViews } from "../settings-view"

/**
 * POST /admin/crypto/settings/api-key — only with the last four of the key in use, and once a balances
 * read with the new key succeeds. In force here at once, within 30 s in other processes.
 */
export async function POST(req: AuthenticatedMedusaRequest<AdminCryptoApiKeyType>, res: MedusaResponse) {
  const core = await providerOf(req.scope, req.validatedBody.provider_id)
  try {
    await core.saveApiKey({
      apiKey: req.validatedBody.api_key,
      currentLastFour: req.validatedBody.current_key_last4 ?? null,
      actorId: req.auth_context?.actor_id ?? null,
      // a person signed in to the dashboard, not a secret API key: the save acknowledges it on the health
      byAdmin: req.auth_context?.actor_type === "user",
    })
  } catch (error) {
    if (!(error instanceof ApiKeyChangeRefused)) throw error
    // logged once already, with who asked
    return res.status(403).json({ type: error.type, code: error.code, message: error.message })
  }
  const [setting] = await settingsViews(req.scope, [core])
  res.json({ setting })
}
