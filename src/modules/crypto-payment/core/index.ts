/**
 * The payment core's public entry: what the provider (a thin adapter of Medusa's provider API), the
 * routes, the job and the workflows use of it.
 */
export {
  PaymentCore,
  secretsKey,
  type CoreLedger,
  type CoreSetup,
  type CryptoServiceClient,
  type PolicySource,
} from "./payment-core"
export { coreOf, type Registration } from "./registry"
export { CRYPTO_PROVIDER_IDENTIFIER, cryptoRegistrations, providerIdOf, registrationOfOptions } from "./registrations"
export { CRYPTO_PROVIDER, cryptoCore, cryptoCores, forgetCores, inLedger, notifiedReport } from "./cores"
export { parseCryptoOptions, type CryptoOptions, type CryptoOptionsInput, type PlaceOrder } from "./options"
export { requiredSessionId, sessionIdOf, storefrontInputSchema, type CryptoSessionData } from "./session-data"
export { noPaymentError, toMedusaError } from "./errors"
export { refundOwedOf } from "./refund"
export { ApiKeyChangeRefused } from "./secrets"
export type * from "./types"
export type { LedgerRow } from "../ledger"
