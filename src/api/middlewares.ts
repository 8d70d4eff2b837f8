import {
  defineMiddlewares,
  type MiddlewareRoute,
  validateAndTransformBody,
  validateAndTransformQuery,
} from "@medusajs/framework/http"
import {
  AdminCryptoAcknowledge,
  AdminCryptoPaymentsExportQuery,
  AdminCryptoApiKey,
  AdminCryptoPaymentsQuery,
  AdminCryptoPayout,
  AdminCryptoRefundAddress,
  AdminCryptoRefundBasis,
  AdminCryptoRefundSent,
  AdminCryptoSettings,
  AdminCryptoSettingsQuery,
} from "./admin/crypto/validators"
import { boundCryptoSessionCreation } from "./store/crypto/session-creation-bound"
import { hideWebhookToken } from "./hooks/crypto/hide-token"
import { requireJson } from "./json-only"
import { CryptoResource, cryptoPolicy } from "../policies/crypto"

// every admin route of the plugin declares its policy (Medusa checks them with its `rbac` feature flag);
// every state-changing one takes JSON only (json-only.ts says why)
const readPayments = cryptoPolicy(CryptoResource.payment, "read")
const updatePayments = cryptoPolicy(CryptoResource.payment, "update")
const readRefunds = cryptoPolicy(CryptoResource.refund, "read")
const updateRefunds = cryptoPolicy(CryptoResource.refund, "update")
const readSettings = cryptoPolicy(CryptoResource.settings, "read")
const updateSettings = cryptoPolicy(CryptoResource.settings, "update")
const updateApiKey = cryptoPolicy(CryptoResource.apiKey, "update")

// typed as Medusa's own routes: defineMiddlewares' parameter type omits `policies`, which it passes on
export default defineMiddlewares<MiddlewareRoute>({
  routes: [
    {
      // the route reads the body itself (hooks/crypto/[token]/notification-body.ts): Medusa's parser
      // would log a refused body with the path, which holds the token
      matcher: "/hooks/crypto/:token",
      method: ["POST"],
      bodyParser: false,
    },
    {
      matcher: "/hooks/crypto/*",
      middlewares: [hideWebhookToken],
    },
    {
      // the refund link's token rides in a header or the body, never the path (Medusa logs paths)
      matcher: "/store/crypto/refunds",
      method: ["POST"],
      middlewares: [requireJson],
    },
    {
      // Medusa's own route: crypto sessions bounded per collection (SESSIONS_PER_COLLECTION_PER_MINUTE), then 429
      matcher: "/store/payment-collections/:id/payment-sessions",
      method: ["POST"],
      middlewares: [boundCryptoSessionCreation],
    },
    {
      matcher: "/admin/crypto/balances",
      method: ["GET"],
      policies: readPayments,
    },
    {
      matcher: "/admin/crypto/balances/:currency",
      method: ["GET"],
      policies: readPayments,
    },
    {
      matcher: "/admin/crypto/health",
      method: ["GET"],
      policies: readSettings,
    },
    {
      // what is acknowledged there is the API key in force: who may change the key may acknowledge it
      matcher: "/admin/crypto/health/acknowledge",
      method: ["POST"],
      middlewares: [requireJson, validateAndTransformBody(AdminCryptoAcknowledge)],
      policies: updateApiKey,
    },
    {
      matcher: "/admin/crypto/payments",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminCryptoPaymentsQuery, {})],
      policies: readPayments,
    },
    {
      // the accounting export (CSV); a static segment, so Medusa matches it before /payments/:paymentId
      matcher: "/admin/crypto/payments/export",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminCryptoPaymentsExportQuery, {})],
      policies: readPayments,
    },
    {
      matcher: "/admin/crypto/payments/:paymentId",
      method: ["GET"],
      policies: readPayments,
    },
    {
      matcher: "/admin/crypto/payments/:paymentId/reconcile",
      method: ["POST"],
      middlewares: [requireJson],
      policies: updatePayments,
    },
    {
      matcher: "/admin/crypto/payments/:paymentId/remainder",
      method: ["POST"],
      middlewares: [requireJson],
      policies: updatePayments,
    },
    {
      matcher: "/admin/crypto/payments/:paymentId/refund-sent",
      method: ["POST"],
      middlewares: [requireJson, validateAndTransformBody(AdminCryptoRefundSent)],
      policies: updateRefunds,
    },
    {
      matcher: "/admin/crypto/payments/:paymentId/owed/:owedId/link",
      method: ["GET"],
      policies: readRefunds,
    },
    {
      matcher: "/admin/crypto/payments/:paymentId/owed/:owedId/link",
      method: ["POST"],
      middlewares: [requireJson],
      policies: updateRefunds,
    },
    {
      matcher: "/admin/crypto/payments/:paymentId/owed/:owedId/link/reissue",
      method: ["POST"],
      middlewares: [requireJson],
      policies: updateRefunds,
    },
    {
      matcher: "/admin/crypto/payments/:paymentId/owed/:owedId/basis",
      method: ["POST"],
      middlewares: [requireJson, validateAndTransformBody(AdminCryptoRefundBasis)],
      policies: updateRefunds,
    },
    {
      matcher: "/admin/crypto/payments/:paymentId/owed/:owedId/address",
      method: ["POST"],
      middlewares: [requireJson, validateAndTransformBody(AdminCryptoRefundAddress)],
      policies: updateRefunds,
    },
    {
      matcher: "/admin/crypto/payments/:paymentId/owed/:owedId/payout",
      method: ["POST"],
      middlewares: [requireJson, validateAndTransformBody(AdminCryptoPayout)],
      policies: updateRefunds,
    },
    {
      matcher: "/admin/crypto/settings",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminCryptoSettingsQuery, {})],
      policies: readSettings,
    },
    {
      matcher: "/admin/crypto/settings",
      method: ["POST"],
      middlewares: [requireJson, validateAndTransformBody(AdminCryptoSettings)],
      policies: updateSettings,
    },
    {
      matcher: "/admin/crypto/settings/api-key",
      method: ["POST"],
      middlewares: [requireJson, validateAndTransformBody(AdminCryptoApiKey)],
      policies: updateApiKey,
    },
  ],
})
