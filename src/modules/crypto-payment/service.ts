import { MedusaService } from "@medusajs/framework/utils"
import CryptoPayment from "./models/crypto-payment"

/** Records of crypto payments: state, flags, timeline and the reconciliation schedule. */
class CryptoPaymentModuleService extends MedusaService({
  CryptoPayment,
}) {}

export default CryptoPaymentModuleService
