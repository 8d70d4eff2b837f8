import { cryptoIntegrationRunner } from "../helpers/runner"
import { useSandbox } from "../helpers/sandbox"
import { adminApiTests } from "./parts/admin-api"
import { adminPaymentsExportTests } from "./parts/admin-payments-export"
import { adminPaymentsListTests } from "./parts/admin-payments-list"
import { demoCheckoutTests } from "./parts/demo-checkout"
import { retentionTests } from "./parts/retention"
import { webhooksTests } from "./parts/webhooks"

/** Specs that share one store configuration share one Medusa boot: each describe is one former spec file (parts/). */
jest.setTimeout(180_000)

const sandbox = useSandbox({ CRYPTO_RECONCILE_INTERVAL_SECONDS: "3600" })

cryptoIntegrationRunner({
  testSuite: (options) => {
    describe("admin-api", () => adminApiTests(options, sandbox))
    describe("admin-payments-export", () => adminPaymentsExportTests(options))
    describe("admin-payments-list", () => adminPaymentsListTests(options, sandbox))
    describe("demo-checkout", () => demoCheckoutTests(options, sandbox))
    describe("retention", () => retentionTests(options))
    describe("webhooks", () => webhooksTests(options, sandbox))
  },
})
