import { cryptoIntegrationRunner } from "../helpers/runner"
import { useSandbox } from "../helpers/sandbox"
import { shopForFile } from "../helpers/checkout"
import { BUDGET, ledgerTests } from "./parts/ledger"
import { reconciliationTests } from "./parts/reconciliation"

/** Specs that share one store configuration share one Medusa boot: each describe is one former spec file (parts/). */
jest.setTimeout(180_000)

// the job ticks every 5 s and reads a payment at most every 5 s, BUDGET payments a tick
const sandbox = useSandbox({ CRYPTO_RECONCILE_INTERVAL_SECONDS: "5", CRYPTO_RECONCILE_BATCH_SIZE: String(BUDGET) })

cryptoIntegrationRunner({
  testSuite: (options) => {
    // the shop the parts use, in the database each test starts from
    const usdShop = shopForFile(options)
    describe("ledger", () => ledgerTests(options, sandbox, usdShop))
    describe("reconciliation", () => reconciliationTests(options, sandbox, usdShop))
  },
})
