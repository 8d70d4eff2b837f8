import { defineMiddlewares, validateAndTransformBody, validateAndTransformQuery } from "@medusajs/framework/http"
import {
  AdminCryptoPaymentsExportQuery,
  AdminCryptoApiKey,
  AdminCryptoPaymentsQuery,
  AdminCryptoPayout,
  AdminCryptoRefundBasis,
  AdminCryptoRefundSent,
  AdminCryptoSettings,
  AdminCryptoSettingsQuery,
} from "./admin/crypto/validators"
import { boundCryptoSessionCreation } from "./store/crypto/session-creation-bound"

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
      // Medusa's own route: crypto sessions bounded per collection (SESSIONS_PER_COLLECTION_PER_MINUTE), then 429
      matcher: "/store/payment-collections/:id/payment-sessions",
      method: ["POST"],
      middlewares: [boundCryptoSessionCreation],
    },
    {
      matcher: "/admin/crypto/payments",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminCryptoPaymentsQuery, {})],
    },
    {
      // the accounting export (CSV); a static segment, so Medusa matches it before /payments/:paymentId
      matcher: "/admin/crypto/payments/export",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminCryptoPaymentsExportQuery, {})],
    },
    {
      matcher: "/admin/crypto/payments/:paymentId/refund-sent",
      method: ["POST"],
      middlewares: [validateAndTransformBody(AdminCryptoRefundSent)],
    },
    {
      matcher: "/admin/crypto/payments/:paymentId/owed/:owedId/basis",
      method: ["POST"],
      middlewares: [validateAndTransformBody(AdminCryptoRefundBasis)],
    },
    {
      matcher: "/admin/crypto/payments/:paymentId/owed/:owedId/payout",
      method: ["POST"],
      middlewares: [validateAndTransformBody(AdminCryptoPayout)],
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
    {
      matcher: "/admin/crypto/settings/api-key",
      method: ["POST"],
      middlewares: [validateAndTransformBody(AdminCryptoApiKey)],
    },
  ],
})
