/**
 * `medusa-payment-crypto/events`: the names and payload of the crypto_payment.* events, for a shop's
 * subscribers.
 *
 *   import { CryptoPaymentEvents, type CryptoPaymentEventData } from "medusa-payment-crypto/events"
 *   export const config = { event: CryptoPaymentEvents.PAID }
 */
export {
  CryptoPaymentEvents,
  CRYPTO_PAYMENT_EVENT_NAMES,
  type CryptoPaymentEventName,
  type CryptoPaymentEventData,
} from "./lib/domain/payment-events"
export {
  CUSTOMER_EMAIL_KINDS,
  DEFAULT_EMAIL_TEMPLATES,
  type CustomerEmailKind,
  type CustomerEmailData,
} from "./lib/domain/customer-email"
