import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import axios from "axios"
import type { SandboxControl } from "../../src/sandbox"
import { CRYPTO_PAYMENT_MODULE, CryptoPaymentModuleService } from "../../src/modules/crypto-payment"
import { runDuePayments, RECONCILE_TICK_LOCK } from "../../src/jobs/_due-payments-runner"
import { waitFor } from "./wait"
import { ledgerRowOf } from "./ledger"
import { reconcileCryptoPaymentWorkflow } from "../../src/workflows/reconcile-crypto-payment"

/**
 * Keeps the scheduled job from ticking (it skips while another holds the tick lock); resolves the
 * release. A tick the job is running holds the lock until it ends: the lock is taken once it is free.
 */
export async function holdReconciliation(container: MedusaContainer): Promise<() => Promise<unknown>> {
  const locking = container.resolve(Modules.LOCKING)
  const ownerId = `test-${Math.random()}`
  await waitFor(
    () =>
      locking.acquire(RECONCILE_TICK_LOCK, { ownerId, expire: 600 }).then(
        () => true,
        () => false
      ),
    (taken) => taken,
    { intervalMs: 50, what: "the reconciliation tick lock to be free" }
  )
  return () => locking.release(RECONCILE_TICK_LOCK, { ownerId })
}

/**
 * Holds the job's tick lock from before each test to after it, so the job never reads behind a test's
 * back and a failing test never leaves it stopped for the next.
 */
export function holdReconciliationInEachTest(getContainer: () => MedusaContainer): void {
  const held: Array<() => Promise<unknown>> = []
  beforeEach(async () => {
    held.push(await holdReconciliation(getContainer()))
  })
  afterEach(async () => {
    for (const release of held.splice(0)) await release().catch(() => undefined)
  })
}

/** A payment made due now, then one tick of the job: what reconciliation alone does with it. */
export async function readByJob(container: MedusaContainer, paymentId: string): Promise<void> {
  const cryptoPayment: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
  const row = await ledgerRowOf(container, paymentId)
  await cryptoPayment.updateCryptoPayments({ id: row.id, next_check_at: new Date(Date.now() - 1000) })
  await runDuePayments(container)
}

/** The service's notification for a payment: a POST to the webhook URL it was given, naming the payment. */
export async function notifyFromService(control: SandboxControl, paymentId: string) {
  return axios.post((await control.payment(paymentId)).webhookUrl!, { paymentId }, { validateStatus: () => true })
}

/** What the reconcile workflow's paymentDecided hook hands a test: the payment and the decision about to be applied. */
export type DecidedPayment = { payment_id: string; decision: { action: string } }

/** The handler of the test that runs now; the hook is registered once per file. */
const decided: { handler?: (input: DecidedPayment) => Promise<void> } = {}
let decidedHookRegistered = false

/**
 * A test's handler of the reconcile workflow's paymentDecided hook, run once a decision is made and before
 * it is applied (a throw vetoes it): set `handler` in a test; each test starts with none.
 */
export function paymentDecidedInEachTest(): typeof decided {
  beforeEach(() => {
    if (!decidedHookRegistered) {
      reconcileCryptoPaymentWorkflow.hooks.paymentDecided(async (input) => {
        if (decided.handler) await decided.handler(input as never)
      })
      decidedHookRegistered = true
    }
    decided.handler = undefined
  })
  return decided
}
