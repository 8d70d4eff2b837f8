import { Module } from "@medusajs/framework/utils"
import CryptoPaymentModuleService from "./service"

export const CRYPTO_PAYMENT_MODULE = "cryptoPayment"

export default Module(CRYPTO_PAYMENT_MODULE, {
  service: CryptoPaymentModuleService,
})

export { CryptoPaymentModuleService }
