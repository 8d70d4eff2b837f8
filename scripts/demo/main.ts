/**
 * The demo store in one command. Brings up a throwaway PostgreSQL, the service sandbox, migrates,
 * creates an admin, starts Medusa with the plugin, seeds a shop and runs a customer's crypto
 * checkout end to end, printing each step. Then it keeps running with the URLs printed, until
 * Ctrl-C stops everything it started. `--once` runs the checkout and exits (0 on success).
 */
import { RunningStore, startDemoStore, ADMIN } from "./store"
import { runLatePayment, runScriptedCheckout } from "./checkout"

const ONCE = process.argv.includes("--once")

const say = (line: string) => process.stdout.write(`${line}\n`)
const step = (line: string) => say(`\n▸ ${line}`)

let running: RunningStore | undefined
let stopStore: (() => Promise<void>) | undefined

async function main(): Promise<void> {
  const started = Date.now()
  say("medusa-payment-crypto demo: a Medusa store taking crypto, against the local service sandbox")
  running = await startDemoStore({ adminDashboard: !ONCE, say, onStop: (stop) => (stopStore = stop) })
  const { backendUrl, store, control, admin, sandboxUrl } = running
  say(`(logs in ${running.logDir})`)

  step("A customer checks out with crypto (@medusajs/js-sdk)")
  const result = await runScriptedCheckout({
    backendUrl,
    store,
    sandbox: control,
    admin,
    log: (line) => say(`  ${line}`),
  })
  step(
    `Done in ${Math.round((Date.now() - started) / 1000)} s: order #${result.displayId} (${result.orderId}) captured, $${result.total}`
  )
  if (ONCE) return

  step("Another customer pays after the invoice expired (shown in the admin as paid late)")
  const late = await runLatePayment({ backendUrl, store, sandbox: control, admin, log: (line) => say(`  ${line}`) })

  say(`
  Store API     ${backendUrl}/store   (x-publishable-api-key: ${store.publishableKey})
  Admin         ${backendUrl}/app   (${ADMIN.email} / ${ADMIN.password})
                order #${result.displayId} paid in crypto: ${backendUrl}/app/orders/${result.orderId}
                order #${late.displayId} paid late: ${backendUrl}/app/orders/${late.orderId}
                Crypto payments page: ${backendUrl}/app/crypto-payments
  Invoice page  ${result.invoiceUrl}   (the paid demo invoice; new checkouts get their own)
  Sandbox       ${sandboxUrl}/__sandbox/   (control API)
  Status route  ${backendUrl}/store/crypto/payments/${result.paymentId}

  Try it by hand: create a cart and a crypto session with the store API, open its invoiceUrl, pick a
  coin, pay and confirm on the page, and watch the order turn paid in the admin.
  Ctrl-C stops everything this command started.`)
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve)
    process.once("SIGTERM", resolve)
  })
}

const stopAll = () => stopStore?.() ?? Promise.resolve()
process.on("SIGINT", () => void stopAll().then(() => process.exit(130)))
process.on("SIGTERM", () => void stopAll().then(() => process.exit(143)))

main()
  .then(async () => {
    await stopAll()
    process.exit(0)
  })
  .catch(async (error) => {
    say(`\n✖ ${error instanceof Error ? error.message : String(error)}`)
    await stopAll()
    process.exit(1)
  })
