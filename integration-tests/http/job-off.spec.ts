import { cryptoIntegrationRunner } from "../helpers/runner"
import { useSandbox } from "../helpers/sandbox"
import { shopForFile } from "../helpers/checkout"
import { adminApiTests } from "./parts/admin-api"
import { adminPaymentsExportTests } from "./parts/admin-payments-export"
import { adminPaymentsListTests } from "./parts/admin-payments-list"
import { retentionTests } from "./parts/retention"
import { statusSharingTests } from "./parts/status-sharing"
import { webhooksTests } from "./parts/webhooks"

/** Specs that share one store configuration share one Medusa boot: each describe is one former spec file (parts/). */
jest.setTimeout(180_000)

const sandbox = useSandbox({ CRYPTO_RECONCILE_INTERVAL_SECONDS: "3600" })

cryptoIntegrationRunner({
  testSuite: (options) => {
    // the shop the parts use, in the database each test starts from
    const usdShop = shopForFile(options)
    describe("admin-api", () => adminApiTests(options, sandbox, usdShop))
    describe("admin-payments-export", () => adminPaymentsExportTests(options, usdShop))
    describe("admin-payments-list", () => adminPaymentsListTests(options, sandbox, usdShop))
    describe("retention", () => retentionTests(options))
    // statusCacheSeconds at its default (30)
    describe("status-sharing", () => statusSharingTests(options, sandbox, usdShop))
    describe("webhooks", () => webhooksTests(options, sandbox, usdShop))
  },
})
