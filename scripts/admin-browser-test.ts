/**
 * The admin extensions in a real browser (`npm test -- browser`, part of `npm test`): the development
 * store with its dashboard, one order paid in crypto, one paid late and one awaiting USDT on BNB Smart
 * Chain, then Debian's Chromium driven by playwright-core logs in, checks the order widget (coin,
 * received/required, confirmations, the flag's text, what is owed to the customer; the open USDT
 * payment's network, its EIP-55 address and its wallet URI), presses "Re-check now", checks the Crypto
 * payments page (balances, the attention table, the "Owed to customers" filter), its setup health and
 * payment policy (saves a tolerance and late-payment choice, reads the change log, goes back to the
 * defaults; reads the keys' source and last four), marks the late money sent, and last reads the widget
 * and the sidebar with the dashboard in German.
 * Screenshots go to docs/images/. It never skips: without Chromium it installs it (as root)
 * or fails naming the command to run.
 */
import { AxiosInstance } from "axios"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { chromium, Page } from "playwright-core"
import { ADMIN, RunningStore } from "./demo/store"
import { placeOrderAwaitingPayment, runLatePayment, runScriptedCheckout } from "./demo/checkout"
import { BrowserSuite, checks, CHROMIUM, CHROMIUM_FLAGS, expectText, runSuites, screenshots } from "./lib/browser"
import { formatAmount } from "../src/admin/lib/format"
import { checksummedAddress } from "../src/lib/domain/evm-address"

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

/**
 * The dashboard's language, as Profile → Language keeps it: the profile form only calls i18next's
 * changeLanguage (nothing is stored on the user), whose language detector caches the choice in the "lng"
 * cookie and localStorage "lng" and reads it back, cookie first, on the next page load.
 */
async function setDashboardLanguage(page: Page, language: string): Promise<void> {
  await page.evaluate((lng) => {
    document.cookie = `lng=${lng}; path=/`
    window.localStorage.setItem("lng", lng)
  }, language)
}

/** GET /admin/crypto/settings, as far as the test reads it. */
type PolicySetting = {
  provider_id: string
  underpayment_tolerance_percent: number
  late_payments: string
  defaults: { underpayment_tolerance_percent: number; late_payments: string }
  saved: { underpayment_tolerance_percent: number | null; late_payments: string | null } | null
  secrets: { can_store: boolean; api_key: { source: string; last_four: string } }
}
type PolicyChange = { id: string; field: string; actor_email: string | null }

async function policyOf(admin: AxiosInstance, providerId: string) {
  const { settings, changes } = (await admin.get("/admin/crypto/settings")).data as {
    settings: PolicySetting[]
    changes: PolicyChange[]
  }
  const setting = settings.find((s) => s.provider_id === providerId)
  if (!setting) throw new Error(`no settings for ${providerId}: ${JSON.stringify(settings.map((s) => s.provider_id))}`)
  return { setting, changes }
}

/** Whatever a policy check left behind, later scenarios start from the medusa-config defaults. */
async function resetPolicy(admin: AxiosInstance, providerId: string): Promise<void> {
  const { setting } = await policyOf(admin, providerId)
  if (setting.saved?.underpayment_tolerance_percent == null && setting.saved?.late_payments == null) return
  await admin.post("/admin/crypto/settings", {
    provider_id: providerId,
    underpayment_tolerance_percent: null,
    late_payments: null,
  })
}

async function adminChecks(running: RunningStore): Promise<void> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "crypto-admin-chromium-"))
  try {
    const { backendUrl, store, control, admin } = running
    const log = (line: string) => say(`  ${line}`)
    say("\n▸ An order paid in crypto, and one paid after its invoice expired")
    const paid = await runScriptedCheckout({ backendUrl, store, sandbox: control, admin, log })
    const late = await runLatePayment({ backendUrl, store, sandbox: control, admin, log })
    say("\n▸ An order awaiting payment in USDT on BNB Smart Chain")
    const awaiting = await placeOrderAwaitingPayment(backendUrl, store, log)
    const token = await control.select(awaiting.paymentId, "USDT_BEP20")
    log(`5. the customer picks USDT_BEP20 on the hosted page: ${token.requiredAmount} to ${token.address}`)

    say("\n▸ The dashboard in Chromium")
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1440, height: 1000 },
      acceptDownloads: true,
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
        const status = card.locator('[data-status="COMPLETED"]')
        await status.waitFor({ timeout: STEP_MS })
        expectText(await status.innerText(), "Completed", "status")
        const { payment } = (await admin.get(`/admin/crypto/payments/${paid.paymentId}`)).data
        expectText(
          await card.getByTestId("crypto-received").innerText(),
          `${formatAmount(payment.amount_received, "en")} / ${formatAmount(payment.amount_required, "en")} BTC`,
          "received / required"
        )
        expectText(await card.getByTestId("crypto-confirmations").innerText(), "3 / 3", "confirmations")
        expectText(await card.innerText(), payment.address, "address")
        await widget.screenshot({ path: SHOTS.path("admin-order-crypto-payment.png") })
      })

      await check("shows an open USDT (BEP-20) payment's network, and its wallet URI beside the address", async () => {
        // the ledger learns the coin the customer picked as "Re-check now" does
        const { payment } = (await admin.post(`/admin/crypto/payments/${awaiting.paymentId}/reconcile`, {})).data
        if (typeof payment.wallet_uri !== "string")
          throw new Error(`the payment has no wallet URI: ${payment.wallet_uri}`)
        const widget = await widgetOf(page, backendUrl, awaiting.order.id)
        const card = widget.getByTestId("crypto-payment")
        const uri = card.getByTestId("crypto-wallet-uri")
        await uri.waitFor({ timeout: STEP_MS })
        expectText(
          await uri.innerText(),
          /^ethereum:0x55d398326f99059fF775485246999027B3197955@56\/transfer\?/,
          "EIP-681"
        )
        expectText(await uri.innerText(), payment.wallet_uri, "the wallet URI")
        const href = await card.getByTestId("crypto-wallet-uri-open").getAttribute("href")
        if (href !== payment.wallet_uri) throw new Error(`the wallet link opens ${href}, not ${payment.wallet_uri}`)
        expectText(await card.getByTestId("crypto-network").innerText(), "USDT on BNB Smart Chain (BEP-20)", "network")
        // the service wrote it in lower case: shown with its EIP-55 checksum
        expectText(await card.getByTestId("crypto-address").innerText(), checksummedAddress(token.address!), "address")
        await card.screenshot({ path: SHOTS.path("admin-order-crypto-usdt-bep20.png") })
      })

      await check("lists the payment's events and the customer's emails on its card", async () => {
        const widget = await widgetOf(page, backendUrl, paid.orderId)
        const activity = widget.getByTestId("crypto-events")
        await activity.locator('[data-event="crypto_payment.paid"]').waitFor({ timeout: STEP_MS })
        const text = await activity.innerText()
        expectText(text, "Payment created", "the created event")
        expectText(text, "Paid", "the paid event")
        const paidEmail = activity.locator('[data-testid="crypto-email"][data-kind="paid"]')
        await paidEmail.waitFor({ timeout: STEP_MS })
        expectText(await paidEmail.innerText(), "sent to", "the paid email")
        await activity.screenshot({ path: SHOTS.path("admin-order-crypto-events.png") })
      })

      await check('"Re-check now" reads the service again and says what it found', async () => {
        const before = (await admin.get(`/admin/crypto/payments/${paid.paymentId}`)).data.payment.last_checked_at
        await page.getByRole("button", { name: "Re-check now" }).click()
        await page.getByText("Re-checked: the service says Completed.").waitFor({ timeout: STEP_MS })
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

      await check("shows the late money as owed to the customer, with what to send now", async () => {
        const widget = await widgetOf(page, backendUrl, late.orderId)
        const owed = widget.getByTestId("crypto-owed")
        await owed.waitFor({ timeout: STEP_MS })
        const { refund } = (await admin.get(`/admin/crypto/payments/${late.paymentId}`)).data.payment
        if (!refund.owed) throw new Error("the late payment is not owed to the customer")
        const record = owed.locator('[data-testid="crypto-owed-record"][data-kind="late"]')
        expectText(await record.innerText(), "Paid late", "owed record kind")
        expectText(await record.innerText(), "Open", "owed record state")
        expectText(
          await owed.getByTestId("crypto-owed-now").innerText(),
          `Send now: ${formatAmount(refund.owed_now, "en")} BTC`,
          "send now"
        )
        expectText(await owed.innerText(), "Mark all owed now as sent", "mark-sent action")
      })

      await check("shows the customer's refund address in full, then freezes it when the payout starts", async () => {
        const { refund } = (await admin.get(`/admin/crypto/payments/${late.paymentId}`)).data.payment
        const owedId = refund.records[0].id as string
        const { link } = (await admin.get(`/admin/crypto/payments/${late.paymentId}/owed/${owedId}/link`)).data
        const address = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
        // the customer gives it through the link (the store route behind /crypto-refund#<token>)
        const given = await fetch(`${backendUrl}/store/crypto/refunds`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-publishable-api-key": store.publishableKey,
            "x-crypto-refund-token": link.token,
          },
          body: JSON.stringify({ coin: "BTC", address }),
        })
        if (given.status !== 200) throw new Error(`the address was refused: ${given.status} ${await given.text()}`)
        const widget = await widgetOf(page, backendUrl, late.orderId)
        const record = widget.locator(`[data-testid="crypto-owed-record"][data-owed-id="${owedId}"]`)
        await record.getByTestId("crypto-refund-address").waitFor({ timeout: STEP_MS })
        expectText(await record.getByTestId("crypto-refund-address").innerText(), address, "the address in full")
        expectText(await record.innerText(), "customer", "who gave it")
        await record.getByTestId("crypto-start-payout").click()
        // nothing is frozen before the admin confirms the address, shown in full
        const confirmation = page.getByRole("alertdialog")
        await confirmation.waitFor({ timeout: STEP_MS })
        expectText(await confirmation.innerText(), address, "the address in the confirmation")
        const [started] = await Promise.all([
          page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith(`/owed/${owedId}/payout`), {
            timeout: STEP_MS,
          }),
          confirmation.getByRole("button", { name: "Start payout" }).click(),
        ])
        if (JSON.stringify(started.postDataJSON()) !== JSON.stringify({ address }))
          throw new Error(`the payout posted ${started.postData()}`)
        await record.getByText(/address frozen/).waitFor({ timeout: STEP_MS })
        // the development store's admin has no name: it is shown by email, never by user id
        expectText(
          await record.getByTestId("crypto-payout-started").innerText(),
          `Payout started by ${ADMIN.email}`,
          "who started the payout"
        )
        await record.screenshot({ path: SHOTS.path("admin-owed-refund-address.png") })
        const refused = await fetch(`${backendUrl}/store/crypto/refunds`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-publishable-api-key": store.publishableKey,
            "x-crypto-refund-token": link.token,
          },
          body: JSON.stringify({ coin: "BTC", address: "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa" }),
        })
        if (refused.status !== 409) throw new Error(`a frozen address changed: ${refused.status}`)
      })

      await check(
        "the Crypto payments page shows balances and every payment, then those needing attention",
        async () => {
          await page.goto(`${backendUrl}/app/crypto-payments`)
          const btc = page.locator('[data-testid="crypto-balance"][data-currency="BTC"]')
          await btc.waitFor({ timeout: STEP_MS })
          const { balance } = (await admin.get("/admin/crypto/balances/BTC")).data
          expectText(
            await btc.getByTestId("crypto-available").innerText(),
            formatAmount(balance.available, "en"),
            "BTC available"
          )
          expectText(await btc.innerText(), "Daily withdrawals", "daily limit")
          // it opens on every payment: a shop whose payments need nothing never sees "Nothing here"
          await page.getByTestId("crypto-payment-row").filter({ hasText: paid.paymentId }).waitFor({ timeout: STEP_MS })
          await page.getByRole("combobox").filter({ hasText: "Any flag" }).click()
          await page.getByRole("option", { name: "Needs attention" }).click()
          const row = page.getByTestId("crypto-payment-row").filter({ hasText: late.paymentId })
          await row.waitFor({ timeout: STEP_MS })
          expectText(await row.innerText(), "Paid late", "attention row")
          await page
            .getByTestId("crypto-payment-row")
            .filter({ hasText: paid.paymentId })
            .waitFor({ state: "detached", timeout: STEP_MS })
          await page.screenshot({ path: SHOTS.path("admin-crypto-payments-page.png"), fullPage: true })
        }
      )

      await check('the "Owed to customers" filter lists the late payment with what is owed now', async () => {
        await page.getByRole("combobox").filter({ hasText: "Needs attention" }).click()
        await page.getByRole("option", { name: "Owed to customers" }).click()
        const row = page.getByTestId("crypto-payment-row").filter({ hasText: late.paymentId })
        await row.waitFor({ timeout: STEP_MS })
        const { refund } = (await admin.get(`/admin/crypto/payments/${late.paymentId}`)).data.payment
        expectText(
          await row.getByTestId("crypto-owed-now").innerText(),
          `${formatAmount(refund.owed_now, "en")} BTC`,
          "owed now"
        )
        if (await page.getByTestId("crypto-payment-row").filter({ hasText: paid.paymentId }).count()) {
          throw new Error("the paid order's payment owes nothing but is listed")
        }
      })

      await check("the list's filter lives in the URL: a reload shows the same filtered page", async () => {
        if (!new URL(page.url()).searchParams.get("flag")) throw new Error(`no flag in the URL: ${page.url()}`)
        await page.reload()
        await page.getByTestId("crypto-payment-row").filter({ hasText: late.paymentId }).waitFor({ timeout: STEP_MS })
        if (await page.getByTestId("crypto-payment-row").filter({ hasText: paid.paymentId }).count()) {
          throw new Error("the reload lost the filter: the paid order's payment is listed")
        }
      })

      await check("Export CSV saves today's payments as a file, with the admin's own sign-in", async () => {
        const today = new Date()
        const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, "0")}-${String(today.getDate()).padStart(2, "0")}`
        await page.locator("#crypto-export-from").fill(day)
        await page.locator("#crypto-export-to").fill(day)
        const [download] = await Promise.all([
          page.waitForEvent("download", { timeout: STEP_MS }),
          page.getByTestId("crypto-export-button").click(),
        ])
        if (!/^crypto-payments-.*\.csv$/.test(download.suggestedFilename()))
          throw new Error(`the file is named ${download.suggestedFilename()}`)
        const saved = await download.path()
        const text = saved ? fs.readFileSync(saved, "utf8") : ""
        for (const paymentId of [paid.paymentId, late.paymentId]) expectText(text, paymentId, "the exported file")
        expectText(text.split("\r\n")[0], "payment_id", "the header row")
      })

      await check("the setup health panel shows every check, the API key's green", async () => {
        await page.goto(`${backendUrl}/app/crypto-payments`)
        const health = page.getByTestId("crypto-health")
        const apiKey = health.locator('[data-testid="crypto-health-check"][data-check-id="api_key"]')
        await apiKey.first().waitFor({ timeout: STEP_MS })
        const levels = await apiKey.evaluateAll((rows) => rows.map((row) => row.getAttribute("data-level")))
        if (levels.some((level) => level !== "green")) throw new Error(`the api_key check is ${levels.join(", ")}`)
        const { checks: expected } = (await admin.get("/admin/crypto/health")).data as { checks: unknown[] }
        const shown = await health.getByTestId("crypto-health-check").count()
        if (shown !== expected.length) throw new Error(`${shown} checks shown, the API has ${expected.length}`)
        await health.getByTestId("crypto-health-level").waitFor({ timeout: STEP_MS })
        await health.screenshot({ path: SHOTS.path("admin-setup-health.png") })
      })

      const policy = page.getByTestId("crypto-settings")
      const form = policy.getByTestId("crypto-settings-provider").first()
      let providerId: string | null = null
      await check("the payment policy saves a tolerance and late payments, and logs who changed them", async () => {
        await form.waitFor({ timeout: STEP_MS })
        providerId = await form.getAttribute("data-provider-id")
        if (!providerId) throw new Error("the policy form names no provider")
        const before = await policyOf(admin, providerId)
        if (before.setting.underpayment_tolerance_percent === 1 || before.setting.late_payments === "fulfil") {
          throw new Error(`the policy already is ${JSON.stringify(before.setting)}: nothing to change`)
        }
        const known = new Set(before.changes.map((c) => c.id))

        await form.getByTestId("crypto-tolerance-input").fill("1")
        await form.getByTestId("crypto-late-payments-select").click()
        await page.getByRole("option", { name: /^Keep the order awaiting payment for \d+ h after expiry/ }).click()
        await form.getByTestId("crypto-settings-save").click()
        await page.getByText("Payment policy saved.").waitFor({ timeout: STEP_MS })

        const after = await policyOf(admin, providerId)
        const { underpayment_tolerance_percent: tolerance, late_payments: late } = after.setting
        if (tolerance !== 1 || late !== "fulfil") throw new Error(`the API says ${tolerance} % and ${late}`)
        const fresh = after.changes.filter((c) => !known.has(c.id))
        const fields = fresh.map((c) => c.field).sort()
        if (fields.join() !== "late_payments,underpayment_tolerance_percent") {
          throw new Error(`expected one new change per field, got ${JSON.stringify(fresh)}`)
        }
        for (const change of fresh) {
          const row = policy.locator(`[data-testid="crypto-settings-change"][data-change-id="${change.id}"]`)
          await row.waitFor({ timeout: STEP_MS })
          const text = await row.innerText()
          expectText(text, ADMIN.email, "who changed it")
          expectText(
            text,
            change.field === "late_payments" ? /→ Keep awaiting payment/ : /→ 1(\.0+)?%/,
            "the new value"
          )
        }
        expectText(await form.innerText(), "Saved value overrides it", "the saved values")
        await policy.screenshot({ path: SHOTS.path("admin-crypto-settings.png") })
      })

      await check('"Use default" puts both fields back to the medusa-config defaults', async () => {
        if (!providerId) throw new Error("no provider's policy was saved")
        for (const field of ["underpayment_tolerance_percent", "late_payments"]) {
          const useDefault = form.locator(`[data-testid="crypto-use-default"][data-field="${field}"]`)
          await useDefault.click({ timeout: STEP_MS })
          await useDefault.waitFor({ state: "detached", timeout: STEP_MS })
        }
        const { setting } = await policyOf(admin, providerId)
        if (setting.saved?.underpayment_tolerance_percent != null || setting.saved?.late_payments != null) {
          throw new Error(`saved values remain: ${JSON.stringify(setting.saved)}`)
        }
        const { defaults } = setting
        if (
          setting.underpayment_tolerance_percent !== defaults.underpayment_tolerance_percent ||
          setting.late_payments !== defaults.late_payments
        ) {
          throw new Error(`the policy is not the defaults: ${JSON.stringify(setting)}`)
        }
        expectText(
          await form.getByTestId("crypto-tolerance-input").inputValue(),
          String(defaults.underpayment_tolerance_percent),
          "the tolerance shown"
        )
      })
      await check("the Keys section shows where the API key comes from and its last four characters", async () => {
        const shown = await form.getAttribute("data-provider-id", { timeout: STEP_MS })
        if (!shown) throw new Error("the policy form names no provider")
        const { secrets } = (await policyOf(admin, shown)).setting
        const keys = form.getByTestId("crypto-provider-keys")
        await keys.waitFor({ timeout: STEP_MS })
        const text = await keys.innerText()
        expectText(text, "from medusa-config.ts", "where the API key comes from")
        expectText(text, `••••${secrets.api_key.last_four}`, "the API key's last four")
        // the development store has no CRYPTO_SECRETS_KEY: the key can only come from medusa-config there
        if (secrets.can_store) throw new Error("the development store can store keys: is CRYPTO_SECRETS_KEY set?")
        expectText(text, "The API key can only come from medusa-config.ts.", "why the key cannot be replaced here")
      })
      if (providerId) {
        await resetPolicy(admin, providerId).catch((error) => {
          counts.failed++
          say(`  ✕ puts the payment policy back to the defaults through the API\n    ${(error as Error).message}`)
        })
      }

      await check('"Mark all owed now as sent" closes the open records it showed, with the reference', async () => {
        const { refund: before } = (await admin.get(`/admin/crypto/payments/${late.paymentId}`)).data.payment
        const shown = before.records as Array<{ id: string; coin_amount: string | null; sent_at: string | null }>
        const widget = await widgetOf(page, backendUrl, late.orderId)
        const owed = widget.getByTestId("crypto-owed")
        await owed.getByPlaceholder("Transaction reference (optional)").fill("tx-browser-test")
        const [marked] = await Promise.all([
          page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith("/refund-sent"), { timeout: STEP_MS }),
          owed.getByRole("button", { name: "Mark all owed now as sent" }).click(),
        ])
        const body = {
          owed: shown.filter((r) => !r.sent_at).map((r) => ({ id: r.id, coin_amount: r.coin_amount })),
          reference: "tx-browser-test",
        }
        if (JSON.stringify(marked.postDataJSON()) !== JSON.stringify(body))
          throw new Error(`marking sent posted ${marked.postData()}, not ${JSON.stringify(body)}`)
        await page.getByText("Everything owed now is marked as sent.").waitFor({ timeout: STEP_MS })
        const { refund } = (await admin.get(`/admin/crypto/payments/${late.paymentId}`)).data.payment
        const open = (refund.records as Array<{ sent_at: string | null; reference: string | null }>).filter(
          (r) => !r.sent_at || r.reference !== "tx-browser-test"
        )
        if (refund.owed || open.length) throw new Error(`still owed after marking sent: ${JSON.stringify(refund)}`)
        await owed.getByTestId("crypto-refund-owed").waitFor({ state: "detached", timeout: STEP_MS })
        expectText(await owed.innerText(), "ref. tx-browser-test", "sent record's reference")
      })

      await check("in German, the widget and the sidebar speak German, with German numbers", async () => {
        await setDashboardLanguage(page, "de")
        try {
          const widget = await widgetOf(page, backendUrl, paid.orderId)
          await widget.getByRole("heading", { name: "Krypto-Zahlungen" }).waitFor({ timeout: STEP_MS })
          const card = widget.getByTestId("crypto-payment")
          expectText(await card.locator('[data-status="COMPLETED"]').innerText(), "Abgeschlossen", "status")
          expectText(await card.innerText(), "Bestätigungen", "confirmations row")
          const { payment } = (await admin.get(`/admin/crypto/payments/${paid.paymentId}`)).data
          expectText(
            await card.getByTestId("crypto-received").innerText(),
            `${formatAmount(payment.amount_received, "de")} / ${formatAmount(payment.amount_required, "de")} BTC`,
            "received / required"
          )
          await card.getByRole("button", { name: "Jetzt erneut prüfen" }).waitFor({ timeout: STEP_MS })
          await page.getByRole("link", { name: "Krypto-Zahlungen" }).first().waitFor({ timeout: STEP_MS })
          await widget.screenshot({ path: SHOTS.path("admin-order-crypto-payment-de.png") })

          const lateWidget = await widgetOf(page, backendUrl, late.orderId)
          const flag = lateWidget.locator('[data-testid="crypto-payment"] [data-flag="paid_late"]').first()
          expectText(await flag.innerText(), "Verspätet bezahlt", "flag badge")
          expectText(await lateWidget.getByTestId("crypto-owed").innerText(), "Dem Kunden geschuldet", "owed section")
        } finally {
          await setDashboardLanguage(page, "en")
        }
        const widget = await widgetOf(page, backendUrl, paid.orderId)
        await widget.getByRole("heading", { name: "Crypto payments" }).waitFor({ timeout: STEP_MS })
      })
    } finally {
      await context.close()
    }
  } finally {
    fs.rmSync(profile, { recursive: true, force: true })
  }
}

export const adminSuite: BrowserSuite = {
  name: "the admin dashboard",
  store: { adminDashboard: true },
  run: adminChecks,
  counts,
  shots: SHOTS,
}

if (require.main === module) runSuites("admin-browser", [adminSuite])
