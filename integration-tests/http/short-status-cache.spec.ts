import { cryptoIntegrationRunner } from "../helpers/runner"
import { useSandbox } from "../helpers/sandbox"
import { shopForFile } from "../helpers/checkout"
import { checkoutPaymentTests } from "./parts/checkout-payment"
import { customerEventsTests } from "./parts/customer-events"
import { refundAddressesTests } from "./parts/refund-addresses"

/** Specs that share one store configuration share one Medusa boot: each describe is one former spec file (parts/). */
jest.setTimeout(240_000)

const sandbox = useSandbox({ CRYPTO_STATUS_CACHE_SECONDS: "2" })

cryptoIntegrationRunner({
  testSuite: (options) => {
    // the shops the parts use, in the database each test starts from
    const usdShop = shopForFile(options)
    describe("checkout-payment", () => checkoutPaymentTests(options, sandbox, usdShop))
    describe("customer-events", () => customerEventsTests(options, sandbox, usdShop))
    describe("refund-addresses", () => refundAddressesTests(options, sandbox, usdShop))
  },
})
