import { definePolicies, PolicyOperation } from "@medusajs/framework/utils"

/**
 * The plugin's own RBAC resources, each guarding a family of its admin routes (src/api/middlewares.ts):
 * - crypto_payment: the ledger, its export and the merchant's balances (read); a re-check and a
 *   remainder's request (update);
 * - crypto_refund: the customer's refund link (read); renewing or re-issuing it, recording an address, choosing the coins sent back,
 *   starting a payout, marking coins sent (update): what moves money back to customers;
 * - crypto_settings: the payment policy and the setup health (read); saving the policy (update);
 * - crypto_api_key: replacing the API key, which decides whose account the payments go to (update).
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

/**
 * Registered so that Medusa (with its `rbac` feature flag) keeps them in its policy table and an admin
 * can grant them to a role: Medusa soft-deletes every policy no code defines on start. Medusa loads
 * this file from the plugin's `policies` directory.
 */
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
    description: "Replace the crypto payment service's API key",
  },
])
