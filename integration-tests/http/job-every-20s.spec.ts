import { cryptoIntegrationRunner } from "../helpers/runner"
import { useSandbox } from "../helpers/sandbox"
import { shopForFile } from "../helpers/checkout"
import { everyCoinTests } from "./parts/every-coin"
import { storeCurrenciesTests } from "./parts/store-currencies"
import { MERCHANT_POLICY_WEBHOOK_SECRET, merchantPolicyTests } from "./parts/merchant-policy"
import { INTERVAL_SECONDS, moneyEdgesTests } from "./parts/money-edges"
import { cutAnywhereTests } from "./parts/cut-anywhere"

/** Specs that share one store configuration share one Medusa boot: each describe is one former spec file (parts/). */
jest.setTimeout(180_000)

const sandbox = useSandbox({
  CRYPTO_RECONCILE_INTERVAL_SECONDS: String(INTERVAL_SECONDS),
  CRYPTO_STATUS_CACHE_SECONDS: "2",
  CRYPTO_WEBHOOK_SECRET: MERCHANT_POLICY_WEBHOOK_SECRET,
})

cryptoIntegrationRunner({
  testSuite: (options) => {
    // the shops the parts use, in the database each test starts from
    const eurShop = shopForFile(options, "eur")
    const usdShop = shopForFile(options)
    describe("every-coin", () => everyCoinTests(options, sandbox, usdShop))
    describe("store-currencies", () => storeCurrenciesTests(options, sandbox, eurShop))
    describe("merchant-policy", () => merchantPolicyTests(options, sandbox, usdShop))
    describe("money-edges", () => moneyEdgesTests(options, sandbox, usdShop))
    describe("cut-anywhere", () => void cutAnywhereTests(options, sandbox, usdShop))
  },
})
