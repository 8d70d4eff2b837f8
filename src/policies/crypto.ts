import { definePolicies, PolicyOperation } from "@medusajs/framework/utils"

/**
 * The plugin's RBAC resources, each guarding a family of its admin routes (src/api/middlewares.ts).
 * crypto_refund guards what moves money back to customers; crypto_api_key the key that decides whose
 * account the payments go to.
 */
export const CryptoResource = {
  payment: "crypto_payment",
  refund: "crypto_refund",
  settings: "crypto_settings",
  apiKey: "crypto_api_key",
} as const

type Resource = (typeof CryptoResource)[keyof typeof CryptoResource]
type Operation = typeof PolicyOperation.read | typeof PolicyOperation.update

/** The policy a route declares, as Medusa's middleware entries take it. */
export const cryptoPolicy = (resource: Resource, operation: Operation) => [{ resource, operation }]

/** Registered, or Medusa (with its `rbac` flag) soft-deletes them on start as policies no code defines. */
export const cryptoPolicies = definePolicies([
  {
    name: "ReadCryptoPayment",
    resource: CryptoResource.payment,
    operation: PolicyOperation.read,
    description: "Read crypto payments, their export and the merchant's balances",
  },
  {
    name: "UpdateCryptoPayment",
    resource: CryptoResource.payment,
    operation: PolicyOperation.update,
    description: "Re-check a crypto payment and request the remainder of a short one",
  },
  {
    name: "ReadCryptoRefund",
    resource: CryptoResource.refund,
    operation: PolicyOperation.read,
    description: "Read a customer's crypto refund link",
  },
  {
    name: "UpdateCryptoRefund",
    resource: CryptoResource.refund,
    operation: PolicyOperation.update,
    description:
      "Renew and re-issue refund links, record refund addresses, choose the coins sent back, start payouts and mark crypto refunds sent",
  },
  {
    name: "ReadCryptoSettings",
    resource: CryptoResource.settings,
    operation: PolicyOperation.read,
    description: "Read the crypto payment policy, its change log and the setup health",
  },
  {
    name: "UpdateCryptoSettings",
    resource: CryptoResource.settings,
    operation: PolicyOperation.update,
    description: "Change the crypto payment policy",
  },
  {
    name: "UpdateCryptoApiKey",
    resource: CryptoResource.apiKey,
    operation: PolicyOperation.update,
    description: "Replace the crypto payment service's API key, and acknowledge its changes on the setup health",
  },
])
