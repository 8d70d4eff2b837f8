import { cryptoIntegrationRunner } from "../helpers/runner"
import { useSandbox } from "../helpers/sandbox"
import { shopForFile } from "../helpers/checkout"
import { checkoutTests } from "./parts/checkout"
import { checkoutPaymentTests } from "./parts/checkout-payment"
import { customerEventsTests } from "./parts/customer-events"
import { refundAddressesTests } from "./parts/refund-addresses"

/** Specs that share one store configuration share one Medusa boot: each describe is one former spec file (parts/). */
jest.setTimeout(240_000)

// placeOrder before_payment and mode invoice (the defaults); a status read shared for 2 s
const sandbox = useSandbox({ CRYPTO_STATUS_CACHE_SECONDS: "2" })

cryptoIntegrationRunner({
  testSuite: (options) => {
    // the shops the parts use, in the database each test starts from
    const usdShop = shopForFile(options)
    describe("checkout", () => checkoutTests(options, sandbox, usdShop))
    describe("checkout-payment", () => checkoutPaymentTests(options, sandbox, usdShop))
    describe("customer-events", () => customerEventsTests(options, sandbox, usdShop))
    describe("refund-addresses", () => refundAddressesTests(options, sandbox, usdShop))
  },
})
