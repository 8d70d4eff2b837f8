/**
 * The demo store in one command. Brings up a throwaway PostgreSQL, the service sandbox, migrates,
 * creates an admin, starts Medusa with the plugin, seeds a shop, serves the demo storefront and runs
 * a customer's crypto checkout end to end, printing each step. Then it keeps running with the URLs
 * printed (the storefront's first), until Ctrl-C stops everything it started. `--once` runs the
 * scripted checkout and exits (0 on success), without the storefront.
 * CRYPTO_PLACE_ORDER=after_payment shows the other order mode.
 */
import { RunningStore, startDemoStore, ADMIN } from "./store"
import { runLatePayment, runScriptedCheckout } from "./checkout"
import { printEmails } from "./emails"

const ONCE = process.argv.includes("--once")

const say = (line: string) => process.stdout.write(`${line}\n`)
const step = (line: string) => say(`\n▸ ${line}`)

let running: RunningStore | undefined
let stopStore: (() => Promise<void>) | undefined

async function main(): Promise<void> {
  const started = Date.now()
  say("medusa-payment-crypto demo: a Medusa store taking crypto, against the local service sandbox")
  running = await startDemoStore({
    adminDashboard: !ONCE,
    storefront: !ONCE,
    say,
    onStop: (stop) => (stopStore = stop),
    // the storefront's order page shows each confirmation: share status reads for 3 s, not 30
    env: { CRYPTO_STATUS_CACHE_SECONDS: process.env.CRYPTO_STATUS_CACHE_SECONDS ?? "3" },
  })
  const { backendUrl, store, control, admin, sandboxUrl, storefrontUrl } = running
  say(`(logs in ${running.logDir})`)
  if (storefrontUrl) say(`\n★ Storefront ready: ${storefrontUrl} — buy something with crypto while the demo goes on`)

  step("A customer checks out with crypto (@medusajs/js-sdk)")
  const result = await runScriptedCheckout({
    backendUrl,
    store,
    sandbox: control,
    admin,
    log: (line) => say(`  ${line}`),
  })
  step("The customer's emails (the plugin's notifications option; Medusa's local provider prints them)")
  await printEmails(running.databaseUrl, result.orderId, ["crypto-payment-link", "crypto-payment-paid"], (line) =>
    say(`  ${line}`)
  )
  step(
    `Done in ${Math.round((Date.now() - started) / 1000)} s: order #${result.displayId} (${result.orderId}) captured, $${result.total}`
  )
  if (ONCE) return

  step("Another customer pays after the invoice expired (shown in the admin as paid late)")
  const late = await runLatePayment({ backendUrl, store, sandbox: control, admin, log: (line) => say(`  ${line}`) })

  say(`
  Storefront    ${storefrontUrl}   (buy with the mouse: add to cart, checkout, Crypto, pay on the payment page)
  Store API     ${backendUrl}/store   (x-publishable-api-key: ${store.publishableKey})
  Admin         ${backendUrl}/app   (${ADMIN.email} / ${ADMIN.password})
                order #${result.displayId} paid in crypto: ${backendUrl}/app/orders/${result.orderId}
                order #${late.displayId} paid late: ${backendUrl}/app/orders/${late.orderId}
                Crypto payments page: ${backendUrl}/app/crypto-payments
  Invoice page  ${result.invoiceUrl}   (the paid demo invoice; new checkouts get their own)
  Sandbox       ${sandboxUrl}/__sandbox/   (control API)
  Status route  curl -H "x-publishable-api-key: ${store.publishableKey}" ${backendUrl}/store/crypto/payments/${result.paymentId}
                (every /store route needs the publishable key header; without it Medusa answers 400)

  Try it: in the storefront, add the wallet to the cart, check out with Crypto (any coin, or pick one),
  place the order, open the payment page, pick a coin, press "Pay in full" and "Confirm fully", and
  watch the order page turn paid (and the order in the admin). "Let it expire" shows the other ending.
  Orders are placed ${process.env.CRYPTO_PLACE_ORDER === "after_payment" ? "once paid (CRYPTO_PLACE_ORDER=after_payment)" : "before payment, awaiting it (CRYPTO_PLACE_ORDER=after_payment for the other mode)"}.
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
