import { fail, sendJson } from "./http"
import { ecbSettingsDetails, ecbSettingsSchema } from "./ecb-feed"
import type { ControlHandler } from "./control-context"
import { isRepricePercent, REPRICE_PERCENT } from "./control-payments"

/** The control API's settings routes: webhook delivery, how the service answers (PUT /config), the ECB's file. */

export const showWebhooks: ControlHandler = ({ webhooks }, { res }) =>
  sendJson(res, 200, { settings: webhooks.settings, deliveries: webhooks.deliveries })

export const updateWebhooks: ControlHandler = ({ webhooks }, { res, body }) => {
  const s = webhooks.settings
  if (typeof body?.enabled === "boolean") s.enabled = body.enabled
  if (Number.isInteger(body?.maxAttempts) && body.maxAttempts > 0) s.maxAttempts = body.maxAttempts
  if (Number.isInteger(body?.retryBaseMs) && body.retryBaseMs >= 0) s.retryBaseMs = body.retryBaseMs
  return sendJson(res, 200, { settings: s })
}

/** Why a PUT /config body is refused (the first field at fault), if it is. */
function configError(body: any): string | undefined {
  if (
    body?.webhookField !== undefined &&
    (typeof body.webhookField !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(body.webhookField))
  ) {
    return "webhookField must be a plain field name"
  }
  if (body?.unselectedStyle !== undefined && body.unselectedStyle !== "absent" && body.unselectedStyle !== "null") {
    return "unselectedStyle must be absent or null"
  }
  if (body?.repricePercent !== undefined && body.repricePercent !== null && !isRepricePercent(body.repricePercent)) {
    return `repricePercent must be a number from ${REPRICE_PERCENT.min} to ${REPRICE_PERCENT.max}, or null`
  }
  if (body?.expiredStays !== undefined && typeof body.expiredStays !== "boolean") {
    return "expiredStays must be true or false"
  }
  if (body?.decimals !== undefined && body.decimals !== "quoted" && body.decimals !== "native") {
    return "decimals must be quoted or native"
  }
  if (
    body?.apiKeys !== undefined &&
    body.apiKeys !== null &&
    !(
      Array.isArray(body.apiKeys) &&
      body.apiKeys.length &&
      body.apiKeys.every((k: unknown) => typeof k === "string" && k)
    )
  ) {
    return "apiKeys must be a non-empty list of keys, or null"
  }
  return undefined
}

export const updateConfig: ControlHandler = ({ config }, { res, body }) => {
  // every field is checked before any is applied: a 400 changes nothing
  const error = configError(body)
  if (error !== undefined) return fail(res, 400, error)
  if (body?.webhookField !== undefined) config.webhookField = body.webhookField
  if (body?.unselectedStyle !== undefined) config.unselectedStyle = body.unselectedStyle
  if (body?.repricePercent !== undefined) config.repricePercent = body.repricePercent
  // read by the payment book: expiredStays at every settle, decimals at each creation (a record keeps its own)
  if (body?.expiredStays !== undefined) config.expiredStays = body.expiredStays
  if (body?.decimals !== undefined) config.decimals = body.decimals
  if (body?.apiKeys !== undefined) config.apiKeys = body.apiKeys
  return sendJson(res, 200, {
    webhookField: config.webhookField,
    unselectedStyle: config.unselectedStyle,
    repricePercent: config.repricePercent,
    expiredStays: config.expiredStays,
    decimals: config.decimals,
  })
}

export const showEcb: ControlHandler = ({ ecb }, { res }) => sendJson(res, 200, ecb.state())

export const updateEcb: ControlHandler = ({ ecb }, { res, body }) => {
  const parsed = ecbSettingsSchema.safeParse(body ?? {})
  if (!parsed.success) return fail(res, 400, "Validation failure", ecbSettingsDetails(parsed.error))
  return sendJson(res, 200, ecb.update(parsed.data))
}
