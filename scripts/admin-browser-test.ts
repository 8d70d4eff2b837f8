/**
 * The admin extensions in a real browser (`npm test -- browser`, part of `npm test`): the development
 * store with its dashboard, one order paid in crypto and one paid late, then Debian's Chromium driven
 * by playwright-core logs in, checks the order widget (coin, received/required, confirmations, the
 * flag's text), presses "Re-check now", and checks the Crypto payments page (balances, the attention
 * table). Screenshots go to docs/images/. It never skips: without Chromium it installs it (as root)
 * or fails naming the command to run.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { chromium, Page } from "playwright-core"
import { ADMIN, databaseFromEnv, finishStep, RunningStore, startDemoStore } from "./demo/store"
import { runLatePayment, runScriptedCheckout } from "./demo/checkout"
import { checks, CHROMIUM, CHROMIUM_FLAGS, ensureChromium, expectText, screenshots } from "./lib/browser"

const SHOTS = screenshots("admin")
/** The dashboard compiles on first load under `medusa develop`: be patient with the first page. */
const FIRST_PAGE_MS = 240_000
const STEP_MS = 60_000

const say = (line: string) => process.stdout.write(`${line}\n`)
const { counts, check } = checks()

async function widgetOf(page: Page, backendUrl: string, orderId: string) {
  await page.goto(`${backendUrl}/app/orders/${orderId}`)
  const widget = page.getByTestId("crypto-payments-widget")
  await widget.waitFor({ timeout: STEP_MS })
  return widget
}

async function main(): Promise<void> {
  ensureChromium()
  let running: RunningStore | undefined
  let stop: (() => Promise<void>) | undefined
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "crypto-admin-chromium-"))
  try {
    running = await startDemoStore({
      adminDashboard: true,
      say,
      onStop: (s) => (stop = s),
      ...databaseFromEnv(),
    })
    const { backendUrl, store, control, admin } = running
    const log = (line: string) => say(`  ${line}`)
    say("\n▸ An order paid in crypto, and one paid after its invoice expired")
    const paid = await runScriptedCheckout({ backendUrl, store, sandbox: control, admin, log })
    const late = await runLatePayment({ backendUrl, store, sandbox: control, admin, log })

    say("\n▸ The dashboard in Chromium")
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1440, height: 1000 },
    })
    const page = context.pages()[0] ?? (await context.newPage())
    try {
      await check("logs into the dashboard", async () => {
        await page.goto(`${backendUrl}/app/login`, { timeout: FIRST_PAGE_MS })
        await page.locator('input[name="email"]').waitFor({ timeout: FIRST_PAGE_MS })
        await page.locator('input[name="email"]').fill(ADMIN.email)
        await page.locator('input[name="password"]').fill(ADMIN.password)
        await page.locator('button[type="submit"]').click()
        await page.waitForURL(/\/app\/(orders|$)/, { timeout: STEP_MS })
      })

      await check("shows the paid order's crypto payment: coin, received/required, confirmations", async () => {
        const widget = await widgetOf(page, backendUrl, paid.orderId)
        const card = widget.getByTestId("crypto-payment")
        await card.getByText("COMPLETED", { exact: true }).waitFor({ timeout: STEP_MS })
        const { payment } = (await admin.get(`/admin/crypto/payments/${paid.paymentId}`)).data
        expectText(
          await card.getByTestId("crypto-received").innerText(),
          `${payment.amount_received} / ${payment.amount_required} BTC`,
          "received / required"
        )
        expectText(await card.getByTestId("crypto-confirmations").innerText(), "3 / 3", "confirmations")
        expectText(await card.innerText(), payment.address, "address")
        await widget.screenshot({ path: SHOTS.path("admin-order-crypto-payment.png") })
      })

      await check('"Re-check now" reads the service again and says what it found', async () => {
        const before = (await admin.get(`/admin/crypto/payments/${paid.paymentId}`)).data.payment.last_checked_at
        await page.getByRole("button", { name: "Re-check now" }).click()
        await page.getByText("Re-checked: the service says COMPLETED.").waitFor({ timeout: STEP_MS })
        const after = (await admin.get(`/admin/crypto/payments/${paid.paymentId}`)).data.payment.last_checked_at
        if (!after || after === before) throw new Error(`last_checked_at did not move (${before} → ${after})`)
      })

      await check("shows the late payment's flag with what to do", async () => {
        const widget = await widgetOf(page, backendUrl, late.orderId)
        const attention = widget.getByTestId("crypto-attention")
        await attention.waitFor({ timeout: STEP_MS })
        expectText(
          await attention.innerText(),
          /^Paid late: .* BTC arrived after the order was canceled\. Refund it from the service's dashboard/,
          "attention"
        )
        expectText(await widget.innerText(), "Paid late", "flag badge")
        await widget.screenshot({ path: SHOTS.path("admin-order-paid-late.png") })
      })

      await check("the Crypto payments page shows balances and the payments needing attention", async () => {
        await page.goto(`${backendUrl}/app/crypto-payments`)
        const btc = page.locator('[data-testid="crypto-balance"][data-currency="BTC"]')
        await btc.waitFor({ timeout: STEP_MS })
        const { balance } = (await admin.get("/admin/crypto/balances/BTC")).data
        expectText(await btc.getByTestId("crypto-available").innerText(), String(balance.available), "BTC available")
        expectText(await btc.innerText(), "Daily withdrawals", "daily limit")
        const row = page.getByTestId("crypto-payment-row").filter({ hasText: late.paymentId })
        await row.waitFor({ timeout: STEP_MS })
        expectText(await row.innerText(), "Paid late", "attention row")
        if (await page.getByTestId("crypto-payment-row").filter({ hasText: paid.paymentId }).count()) {
          throw new Error("the paid order's payment needs no attention but is listed")
        }
        await page.screenshot({ path: SHOTS.path("admin-crypto-payments-page.png"), fullPage: true })
      })
    } finally {
      await context.close()
    }
  } finally {
    await stop?.()
    fs.rmSync(profile, { recursive: true, force: true })
    SHOTS.publish()
  }
}

main()
  .catch((error) => {
    counts.failed++
    say(`\n✖ ${error instanceof Error ? error.message : String(error)}`)
  })
  .finally(() => finishStep("browser", counts))
