import { cryptoIntegrationRunner } from "../helpers/runner"
import { useSandbox } from "../helpers/sandbox"
import { shopForFile } from "../helpers/checkout"
import { SERVICE_CALLS_CACHE_SECONDS, serviceCallTests } from "./parts/service-calls"
import { checkoutAfterPaymentTests } from "./parts/checkout-after-payment"

jest.setTimeout(120_000)

// placeOrder after_payment, the job out of the way (before_payment's counts run in store-status.spec.ts)
const sandbox = useSandbox({
  CRYPTO_PLACE_ORDER: "after_payment",
  CRYPTO_RECONCILE_INTERVAL_SECONDS: "3600",
  CRYPTO_STATUS_CACHE_SECONDS: String(SERVICE_CALLS_CACHE_SECONDS),
})

cryptoIntegrationRunner({
  testSuite: (options) => {
    const fileShop = shopForFile(options)
    describe("checkout-after-payment", () => checkoutAfterPaymentTests(options, sandbox, fileShop))
    describe("service-calls", () => serviceCallTests("after_payment", options, sandbox, fileShop))
  },
})
