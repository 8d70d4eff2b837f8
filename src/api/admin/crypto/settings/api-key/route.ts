import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { AdminCryptoApiKeyType } from "../../validators"
import { providerOf } from "../provider-of"
import { settingsViews } from "../settings-view"

/**
 * POST /admin/crypto/settings/api-key { api_key, current_key_last4, provider_id? } — saves a provider's
 * API key from the admin: only with the last four characters of the key in use (missing: 400
 * crypto.current_key_required, wrong: 403 crypto.current_key_mismatch, nothing changed), checked with
 * a balances read first (a key the service refuses is not saved), sealed under CRYPTO_SECRETS_KEY,
 * never shown again (its last four characters only), and in force over medusa-config's at once in this
 * process and within 30 s in the others. The change is logged with the admin who made it, and the
 * health says it for API_KEY_CHANGE_NOTICE_DAYS.
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
