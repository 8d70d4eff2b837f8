import { defineMiddlewares, validateAndTransformBody, validateAndTransformQuery } from "@medusajs/framework/http"
import {
  AdminCryptoPaymentsQuery,
  AdminCryptoRefundSent,
  AdminCryptoSettings,
  AdminCryptoSettingsQuery,
} from "./admin/crypto/validators"

/** Webhook bodies are hints of a few hundred bytes: anything larger is refused with 413. */
export const WEBHOOK_BODY_LIMIT = "16kb"

export default defineMiddlewares({
  routes: [
    {
      matcher: "/hooks/crypto/:token",
      method: ["POST"],
      bodyParser: { sizeLimit: WEBHOOK_BODY_LIMIT },
    },
    {
      matcher: "/admin/crypto/payments",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminCryptoPaymentsQuery, {})],
    },
    {
      matcher: "/admin/crypto/payments/:paymentId/refund-sent",
      method: ["POST"],
      middlewares: [validateAndTransformBody(AdminCryptoRefundSent)],
    },
    {
      matcher: "/admin/crypto/settings",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminCryptoSettingsQuery, {})],
    },
    {
      matcher: "/admin/crypto/settings",
      method: ["POST"],
      middlewares: [validateAndTransformBody(AdminCryptoSettings)],
    },
  ],
})
