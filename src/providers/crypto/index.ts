import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import CryptoPaymentProviderService from "./service"

export default ModuleProvider(Modules.PAYMENT, {
  services: [CryptoPaymentProviderService],
})
