/**
 * Asking for money after checkout, in a real browser (`node -r ts-node/register/transpile-only
 * scripts/payment-link-browser-test.ts`): the development store with its dashboard and the demo storefront,
 * and three orders paid in crypto, each edited through the admin API to add an item, which leaves a payment
 * collection for the difference "not paid". Debian's Chromium, driven by playwright-core, then:
 *   1. in the dashboard, the order widget's "Create crypto payment link" (any coin): the link (the service's
 *      hosted page) and its QR code; the link opened, a coin picked and paid there, the coins confirmed: the
 *      collection is paid and the widget shows both payments;
 *   2. the customer on the storefront's `/payment-collection/<id>?order_id=<order>` (the dashboard's own
 *      "Copy payment link"): the amount due, a coin picked, paid, and the page says paid;
 *   3. a BTC link paid half and expired: the widget says what is missing, "Request the remainder" asks for
 *      it, and once the remainder is paid the collection is paid.
 * Screenshots go to docs/images/. It never skips (see scripts/lib/browser.ts).
 */
import { Browser, BrowserContext, chromium, Locator, Page } from "playwright-core"
import type { AxiosInstance } from "axios"
import { ADMIN, RunningStore } from "./demo/store"
import { runScriptedCheckout, until } from "./demo/checkout"
import type { DemoStore } from "./demo/seed"
import { BrowserSuite, checks, CHROMIUM, CHROMIUM_FLAGS, expectText, runSuites, screenshots } from "./lib/browser"
import type { SandboxControl } from "../src/sandbox"

const SHOTS = screenshots("payment-link")
/** The dashboard compiles on first load under `medusa develop`: be patient with the first page. */
const FIRST_PAGE_MS = 240_000
const STEP_MS = 60_000
/** Coins confirmed → webhook → capture; the reconciliation job catches a lost webhook within its interval. */
const PAID_MS = 120_000

const say = (line: string) => process.stdout.write(`${line}\n`)
const log = (line: string) => say(`    ${line}`)
const { counts, check } = checks()

type Shop = {
  backendUrl: string
  storefrontUrl: string
  store: DemoStore
  admin: AxiosInstance
  control: SandboxControl
}

/** A payment collection of an order, as `GET /admin/orders/:id` answers it with `*payment_collections`. */
type Collection = {
  id: string
  status: string
  amount: number | string
  captured_amount?: number | string | null
  currency_code: string
}
type AdminOrder = { id: string; display_id: number; payment_status: string; payment_collections: Collection[] }

/** The plugin's admin view of a payment (`GET /admin/crypto/payments/:id`), the fields this test reads. */
type AdminPayment = {
  id: string
  kind: "invoice" | "payment"
  status: string
  coin: string | null
  amount_required: string | null
  amount_received: string
  invoice_url: string | null
  flags: string[]
  settled: boolean
  payment_collection_id: string | null
}

/** A paid order with an item added by an order edit: the collection Medusa made for the difference. */
type EditedOrder = { orderId: string; displayId: number; checkoutPaymentId: string; collectionId: string; due: number }

/** An admin API call; a refusal names the call and carries Medusa's answer (axios alone says only the status). */
async function api<T>(what: string, call: () => Promise<{ data: T }>): Promise<T> {
  try {
    return (await call()).data
  } catch (error) {
    const e = error as { response?: { status: number; data: unknown }; message: string }
    throw new Error(
      `${what}: ${e.response ? `HTTP ${e.response.status} ${JSON.stringify(e.response.data)}` : e.message}`
    )
  }
}

const adminOrder = async (admin: AxiosInstance, orderId: string) =>
  (
    await api<{ order: AdminOrder }>(`read order ${orderId}`, () =>
      admin.get(`/admin/orders/${orderId}`, {
        params: { fields: "id,display_id,payment_status,*payment_collections" },
      })
    )
  ).order

const adminPayment = async (admin: AxiosInstance, paymentId: string) =>
  (
    await api<{ payment: AdminPayment }>(`read crypto payment ${paymentId}`, () =>
      admin.get(`/admin/crypto/payments/${encodeURIComponent(paymentId)}`)
    )
  ).payment

const usd = (amount: number | string) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(Number(amount))

/** Decimal text without trailing zeros in its fraction ("0.00050" → "0.0005"), to compare amounts as text. */
function plain(amount: string): string {
  return amount.includes(".") ? amount.replace(/0+$/, "").replace(/\.$/, "") : amount
}

/** `a − b` on decimal text, exactly (coins are never floats here). */
function minus(a: string, b: string): string {
  const places = Math.max(...[a, b].map((text) => text.split(".")[1]?.length ?? 0))
  const units = (text: string) => {
    const [whole, fraction = ""] = text.split(".")
    return BigInt(whole + fraction.padEnd(places, "0"))
  }
  const difference = units(a) - units(b)
  if (difference < 0n) throw new Error(`${a} − ${b} is negative`)
  const digits = difference.toString().padStart(places + 1, "0")
  return plain(places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits)
}

/** What a page (or part of it) shows, squeezed into one line for a failure message. */
async function textOf(where: Locator): Promise<string> {
  const text = await where.innerText({ timeout: 2_000 }).catch(() => "(nothing readable)")
  return JSON.stringify(text.replace(/\s+/g, " ").trim().slice(0, 600))
}

/** Waits for `locator`; on timeout the error names what was awaited and what `scope` showed instead. */
async function shown(locator: Locator, what: string, scope?: Locator, timeout = STEP_MS): Promise<Locator> {
  try {
    await locator.waitFor({ timeout })
    return locator
  } catch {
    const seen = await textOf(scope ?? locator.page().locator("body"))
    throw new Error(`${what}: not shown within ${timeout / 1000} s; the page showed ${seen}`)
  }
}

/** The order page's crypto widget, freshly loaded (the widget reads the ledger once per page load). */
/** The widget's row of one outstanding collection (amount due, coin select, "Create crypto payment link"). */
const outstandingRow = (widget: Locator, collectionId: string): Locator =>
  widget.locator(`[data-testid="crypto-outstanding"][data-collection-id="${collectionId}"]`)

async function widgetOf(page: Page, backendUrl: string, orderId: string): Promise<Locator> {
  await page.goto(`${backendUrl}/app/orders/${orderId}`)
  return shown(page.getByTestId("crypto-payments-widget"), `the crypto widget of order ${orderId}`)
}

/**
 * Reloads the order page until the widget shows what `ready` looks for (webhooks change the ledger behind
 * the page's back), once a second, for at most `timeoutMs`.
 */
async function untilWidget(
  page: Page,
  backendUrl: string,
  orderId: string,
  ready: (widget: Locator) => Promise<boolean>,
  what: string,
  timeoutMs = STEP_MS
): Promise<Locator> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const widget = await widgetOf(page, backendUrl, orderId)
    if (await ready(widget)) return widget
    if (Date.now() > deadline) {
      throw new Error(`${what}: not shown within ${timeoutMs / 1000} s; the widget showed ${await textOf(widget)}`)
    }
    // the polling interval, not a synchronisation: the next read is a new page load
    await new Promise((resolve) => setTimeout(resolve, 1_000))
  }
}

/** The widget's payment cards (CryptoPaymentCard), one per ledger row of the order. */
const cards = (widget: Locator) => widget.getByTestId("crypto-payment")
const cardOf = (widget: Locator, paymentId: string) =>
  widget.locator(`[data-testid="crypto-payment"][data-payment-id="${paymentId}"]`)
const cardIds = (widget: Locator) =>
  cards(widget).evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-payment-id") ?? ""))
/** A card's status badge (PaymentStatusBadge) reads exactly the service's status. */
/** The card shows the service's status (the badge's data-status keeps the code; its text is in the admin's language). */
const hasStatus = async (card: Locator, status: string) => (await card.locator(`[data-status="${status}"]`).count()) > 0

/**
 * A customer's order paid in crypto (invoice, BTC, through the sandbox and the webhook), then edited through
 * the admin API to add one more item: Medusa leaves a "not_paid" collection for the difference.
 */
async function editedPaidOrder(shop: Shop): Promise<EditedOrder> {
  const { backendUrl, store, control, admin } = shop
  const paid = await runScriptedCheckout({ backendUrl, store, sandbox: control, admin, log })
  const orderId = paid.orderId
  await api("start an order edit", () => admin.post("/admin/order-edits", { order_id: orderId }))
  await api("add an item to the order edit", () =>
    admin.post(`/admin/order-edits/${orderId}/items`, { items: [{ variant_id: store.variantId, quantity: 1 }] })
  )
  await api("request the order edit", () => admin.post(`/admin/order-edits/${orderId}/request`, {}))
  await api("confirm the order edit", () => admin.post(`/admin/order-edits/${orderId}/confirm`, {}))
  const order = await until(
    () => adminOrder(admin, orderId),
    (o) => o.payment_collections.some((c) => c.status === "not_paid"),
    `a "not_paid" payment collection on order ${orderId} after its edit`,
    STEP_MS
  )
  const collection = order.payment_collections.find((c) => c.status === "not_paid")!
  const due = Number(collection.amount) - Number(collection.captured_amount ?? 0)
  if (!(due > 0)) throw new Error(`the edit's collection ${collection.id} asks for ${due}: nothing due`)
  log(`9. order #${paid.displayId} edited: + 1 × Hardware wallet; collection ${collection.id}, ${usd(due)} not paid`)
  return {
    orderId,
    displayId: paid.displayId,
    checkoutPaymentId: paid.paymentId,
    collectionId: collection.id,
    due,
  }
}

/** Polls the admin API until the collection is paid in full (Medusa's "completed"). */
async function untilCollectionPaid(admin: AxiosInstance, edited: EditedOrder): Promise<AdminOrder> {
  const collectionOf = (o: AdminOrder) => o.payment_collections.find((c) => c.id === edited.collectionId)
  let last: AdminOrder | undefined
  try {
    return await until(
      async () => (last = await adminOrder(admin, edited.orderId)),
      (o) => collectionOf(o)?.status === "completed",
      `collection ${edited.collectionId} of order #${edited.displayId} to be paid`,
      PAID_MS
    )
  } catch (error) {
    const seen = last ? collectionOf(last) : undefined
    throw new Error(
      `${(error as Error).message} (last read: ${seen ? `status ${seen.status}, captured ${seen.captured_amount ?? 0} of ${seen.amount}` : "no such collection"})`
    )
  }
}

/** Polls the sandbox until the coins sent on its hosted page are on chain (the page's POST has landed). */
async function untilReceived(control: SandboxControl, paymentId: string) {
  return until(
    () => control.payment(paymentId),
    (p) => p.transactions.length > 0,
    `the coins sent on the hosted page of ${paymentId} to reach the sandbox`,
    STEP_MS
  )
}

/** Logs into the dashboard in `page` (the session cookie stays in its context). */
async function logIn(page: Page, backendUrl: string): Promise<void> {
  await page.goto(`${backendUrl}/app/login`, { timeout: FIRST_PAGE_MS })
  const email = await shown(page.locator('input[name="email"]'), "the dashboard's login form", undefined, FIRST_PAGE_MS)
  await email.fill(ADMIN.email)
  await page.locator('input[name="password"]').fill(ADMIN.password)
  await page.locator('button[type="submit"]').click()
  await page.waitForURL(/\/app\/(orders|$)/, { timeout: STEP_MS })
}

/**
 * Run 1: the merchant creates a payment link (an invoice, any coin) from the widget; the customer opens it,
 * picks a coin and pays on the service's page; once confirmed, the collection is paid.
 */
async function linkPaidOnHostedPage(context: BrowserContext, page: Page, shop: Shop): Promise<void> {
  const { backendUrl, admin, control } = shop
  let edited: EditedOrder | undefined
  let link = ""
  let paymentId = ""

  await check("the widget shows the amount an order edit left due, with a way to ask for it in crypto", async () => {
    edited = await editedPaidOrder(shop)
    const widget = await widgetOf(page, backendUrl, edited.orderId)
    const row = await shown(outstandingRow(widget, edited.collectionId), "the outstanding collection's row", widget)
    expectText(await row.getByTestId("crypto-amount-due").innerText(), usd(edited.due), "amount due")
    expectText(await row.getByRole("combobox", { name: "Coin" }).innerText(), "Any coin", "coin select's default")
    await shown(row.getByRole("button", { name: "Create crypto payment link" }), "the create button", widget)
  })

  await check(
    '"Create crypto payment link" (any coin): the hosted page\'s link, a copy button and a QR code',
    async () => {
      if (!edited) throw new Error("no edited order (see above)")
      const widget = page.getByTestId("crypto-payments-widget")
      const row = outstandingRow(widget, edited.collectionId)
      await row.getByRole("button", { name: "Create crypto payment link" }).click()
      const block = await shown(widget.getByTestId("crypto-payment-link"), "the payment link block", widget)
      const input = block.locator('input[aria-label="Payment link"]')
      link = await input.inputValue()
      expectText(link, /^https?:\/\/[^/]+\/pay\/[^/]+$/, "the payment link (the sandbox's hosted page)")
      if ((await input.getAttribute("readonly")) === null) throw new Error("the payment link's input is editable")
      await shown(block.getByRole("button", { name: /copy/i }), "the link's copy button", widget)
      await shown(block.locator('[aria-label="Payment link QR code"] svg'), "the link's QR code", widget)

      const card = cards(widget).filter({ has: page.getByTestId("crypto-payment-link") })
      paymentId = (await card.getAttribute("data-payment-id")) ?? ""
      if (!paymentId || paymentId === edited.checkoutPaymentId) {
        throw new Error(`the link's card names payment ${JSON.stringify(paymentId)}, not a new one`)
      }
      if (decodeURIComponent(new URL(link).pathname.split("/").pop()!) !== paymentId) {
        throw new Error(`the link ${link} is not the page of payment ${paymentId}`)
      }
      if (!(await hasStatus(card, "PENDING"))) throw new Error(`the new payment is not PENDING: ${await textOf(card)}`)
      await shown(
        widget.getByText("A crypto payment is open for this amount"),
        "the outstanding row saying a payment is open",
        widget
      )

      const payment = await adminPayment(admin, paymentId)
      if (payment.payment_collection_id !== edited.collectionId || payment.kind !== "invoice") {
        throw new Error(
          `payment ${paymentId} is a ${payment.kind} for collection ${payment.payment_collection_id}, not an invoice for ${edited.collectionId}`
        )
      }
      if (payment.invoice_url !== link) throw new Error(`the widget shows ${link}, the ledger ${payment.invoice_url}`)
      const at = await control.payment(paymentId)
      if (usd(at.baseAmount) !== usd(edited.due)) {
        throw new Error(`the invoice asks ${at.baseAmount} ${at.baseCurrency}, not ${usd(edited.due)}`)
      }
      log(`a payment link for ${usd(edited.due)}: ${link}`)
      await widget.screenshot({ path: SHOTS.path("admin-order-payment-link.png") })
    }
  )

  await check(
    "the link opens the hosted page: a coin picked and paid there, confirmed, the collection is paid",
    async () => {
      if (!edited || !link) throw new Error("no payment link (see above)")
      const hosted = await context.newPage()
      try {
        await hosted.goto(link)
        expectText(
          await (await shown(hosted.locator("#pid"), "the hosted page's payment id")).innerText(),
          paymentId,
          "hosted page"
        )
        await (await shown(hosted.locator('#coins button[data-coin="ETH"]'), "the hosted page's coin choice")).click()
        await shown(hosted.locator("#chain:not([hidden])"), "the hosted page's pay buttons once ETH is chosen")
        await hosted.getByRole("button", { name: "Pay in full" }).click()
        const sent = await untilReceived(control, paymentId)
        if (sent.currency !== "ETH") throw new Error(`the customer picked ETH, the sandbox has ${sent.currency}`)
        if (plain(sent.currentBalance) !== plain(sent.requiredAmount)) {
          throw new Error(`"Pay in full" sent ${sent.currentBalance} of ${sent.requiredAmount} ETH`)
        }
        log(`the customer picks ETH on the hosted page and sends ${sent.requiredAmount} ETH`)
      } finally {
        await hosted.close()
      }
      await control.confirm(paymentId)
      const order = await untilCollectionPaid(admin, edited)
      if (order.payment_status !== "captured") throw new Error(`the order is ${order.payment_status}, not captured`)
      log(`collection ${edited.collectionId} paid; order #${edited.displayId} ${order.payment_status}`)
    }
  )

  await check("the widget then shows both payments completed, and nothing due", async () => {
    if (!edited || !paymentId) throw new Error("no paid payment link (see above)")
    const { checkoutPaymentId } = edited
    const expected = [checkoutPaymentId, paymentId].sort()
    const widget = await untilWidget(
      page,
      backendUrl,
      edited.orderId,
      async (w) =>
        JSON.stringify((await cardIds(w)).sort()) === JSON.stringify(expected) &&
        (await hasStatus(cardOf(w, paymentId), "COMPLETED")) &&
        (await hasStatus(cardOf(w, checkoutPaymentId), "COMPLETED")),
      `two completed payments (${expected.join(", ")})`
    )
    if (await widget.getByTestId("crypto-outstanding").count()) {
      throw new Error(`the paid collection is still listed as due: ${await textOf(widget)}`)
    }
    if (await widget.getByTestId("crypto-payment-link").count()) {
      throw new Error("a payment link is still offered for a completed payment")
    }
  })
}

/**
 * Run 2: the customer on the storefront's page of the dashboard's payment link picks a coin, pays, and the
 * page says paid.
 */
async function customerPaysOnStorefront(browser: Browser, shop: Shop): Promise<void> {
  const { admin, control } = shop
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" })
  const page = await context.newPage()
  let edited: EditedOrder | undefined
  let paymentId = ""
  try {
    await check("the payment link page shows the order, the amount due and a coin picker", async () => {
      edited = await editedPaidOrder(shop)
      const url = `${shop.storefrontUrl}/payment-collection/${edited.collectionId}?order_id=${edited.orderId}`
      await page.goto(url)
      await shown(page.locator('[data-testid="payment-collection"][data-state="due"]'), `the page ${url}, due`)
      expectText(await page.getByTestId("order-number").innerText(), `#${edited.displayId}`, "order number")
      expectText(await page.getByTestId("payment-amount-due").innerText(), usd(edited.due), "amount due")
      expectText(await page.getByTestId("payment-collection-status").innerText(), "Awaiting payment", "status")
      await shown(page.getByTestId("crypto-coin-picker"), "the coin picker")
      expectText(await page.getByTestId("pay-collection").innerText(), "Pay with any coin", "pay button, no coin")
    })

    await check("pays in Litecoin: address and amount, then the page says paid; the collection is paid", async () => {
      if (!edited) throw new Error("no payment link page (see above)")
      await page.locator('input[name="crypto-coin"][value="LTC"]').check()
      const button = await shown(
        page.getByTestId("pay-collection").filter({ hasText: `Pay ${usd(edited.due)} in Litecoin` }),
        "the pay button naming the amount and Litecoin"
      )
      await button.click()
      const box = await shown(
        page.locator('[data-testid="crypto-payment"][data-state="awaiting_funds"]'),
        "the LTC payment's address and amount"
      )
      const href = (await box.getByTestId("crypto-invoice-link").first().getAttribute("href")) ?? ""
      paymentId = decodeURIComponent(new URL(href).pathname.split("/").pop()!)
      const at = await control.payment(paymentId)
      if (at.currency !== "LTC" || at.kind !== "payment") {
        throw new Error(`payment ${paymentId} is a ${at.kind} in ${at.currency}`)
      }
      expectText(await box.getByTestId("crypto-amount").innerText(), `${at.requiredAmount} LTC`, "amount")
      expectText(await box.getByTestId("crypto-address").innerText(), String(at.address), "address")
      const payment = await adminPayment(admin, paymentId)
      if (payment.payment_collection_id !== edited.collectionId) {
        throw new Error(
          `payment ${paymentId} is for collection ${payment.payment_collection_id}, not ${edited.collectionId}`
        )
      }

      await control.pay(paymentId)
      await control.confirm(paymentId)
      log(`the customer sends ${at.requiredAmount} LTC; confirmed`)
      await shown(
        page.locator('[data-testid="payment-collection"][data-state="paid"]'),
        "the page saying paid",
        undefined,
        PAID_MS
      )
      await shown(page.getByTestId("payment-collection-status").filter({ hasText: /^Paid$/ }), 'the status "Paid"')
      await shown(page.locator('[data-testid="crypto-payment"][data-verdict="paid"]'), "the payment box's verdict paid")
      await page.screenshot({ path: SHOTS.path("storefront-payment-collection.png"), fullPage: true })
      const order = await untilCollectionPaid(admin, edited)
      if (order.payment_status !== "captured") throw new Error(`the order is ${order.payment_status}, not captured`)
      log(`collection ${edited.collectionId} paid; order #${edited.displayId} ${order.payment_status}`)
    })
  } finally {
    await context.close()
  }
}

/**
 * Run 3: a BTC link paid half and left to expire; the widget says what is missing and asks the service for
 * it ("Request the remainder"); once the remainder is paid, the collection is paid in full.
 */
async function remainderOfShortPayment(page: Page, shop: Shop): Promise<void> {
  const { backendUrl, admin, control } = shop
  let edited: EditedOrder | undefined
  let shortId = ""
  let missing = ""
  let remainderId = ""

  await check(
    "a BTC link paid half and expired: the widget says what is missing and offers the remainder",
    async () => {
      edited = await editedPaidOrder(shop)
      const widget = await widgetOf(page, backendUrl, edited.orderId)
      const row = await shown(outstandingRow(widget, edited.collectionId), "the outstanding collection's row", widget)
      await row.getByRole("combobox", { name: "Coin" }).click()
      await page.getByRole("option", { name: "BTC", exact: true }).click()
      await shown(
        row.getByRole("combobox", { name: "Coin" }).filter({ hasText: "BTC" }),
        "BTC in the coin select",
        widget
      )
      await row.getByRole("button", { name: "Create crypto payment link" }).click()
      await shown(widget.getByTestId("crypto-payment-link"), "the BTC payment's link", widget)
      const card = cards(widget).filter({ has: page.getByTestId("crypto-payment-link") })
      shortId = (await card.getAttribute("data-payment-id")) ?? ""
      const at = await control.payment(shortId)
      if (at.kind !== "payment" || at.currency !== "BTC") {
        throw new Error(`payment ${shortId} is a ${at.kind} in ${at.currency}`)
      }

      const half = await control.pay(shortId, { mode: "partial" })
      await control.confirm(shortId)
      await control.expire(shortId)
      log(`the customer sends ${half.currentBalance} of ${half.requiredAmount} BTC; confirmed; the payment expires`)
      const expired = await until(
        () => adminPayment(admin, shortId),
        (p) => p.status === "EXPIRED" && p.flags.includes("underpaid"),
        `payment ${shortId} to be recorded EXPIRED and underpaid`,
        PAID_MS
      )
      missing = minus(String(expired.amount_required), String(expired.amount_received))

      const refreshed = await untilWidget(
        page,
        backendUrl,
        edited.orderId,
        async (w) => (await cardOf(w, shortId).getByTestId("crypto-shortfall").count()) > 0,
        "the short payment's shortfall warning"
      )
      const warning = cardOf(refreshed, shortId).getByTestId("crypto-shortfall")
      const text = await warning.innerText()
      const said = /Expired short: ([\d.]+) BTC is missing/.exec(text)
      if (!said) throw new Error(`the warning does not say what is missing: ${JSON.stringify(text)}`)
      if (plain(said[1]) !== missing) throw new Error(`the warning says ${said[1]} BTC missing, the ledger ${missing}`)
      await shown(warning.getByRole("button", { name: "Request the remainder" }), "the remainder button", refreshed)
      await refreshed.screenshot({ path: SHOTS.path("admin-order-remainder.png") })
    }
  )

  await check('"Request the remainder": a BTC payment for the shortfall, with its payment link', async () => {
    if (!edited || !missing) throw new Error("no short payment (see above)")
    const widget = page.getByTestId("crypto-payments-widget")
    const before = await cardIds(widget)
    await cardOf(widget, shortId).getByRole("button", { name: "Request the remainder" }).click()
    let ids: string[]
    try {
      // the request refreshes the widget's queries: the remainder's card appears without a reload
      ids = await until(
        () => cardIds(widget),
        (now) => now.some((id) => !before.includes(id)),
        "the remainder's card",
        STEP_MS
      )
    } catch (error) {
      throw new Error(`${(error as Error).message}; the page showed ${await textOf(page.locator("body"))}`)
    }
    remainderId = ids.find((id) => !before.includes(id))!
    const remainder = await adminPayment(admin, remainderId)
    if (remainder.kind !== "payment" || remainder.coin !== "BTC" || remainder.status !== "PENDING") {
      throw new Error(`the remainder ${remainderId} is a ${remainder.kind} in ${remainder.coin}, ${remainder.status}`)
    }
    if (plain(String(remainder.amount_required)) !== missing) {
      throw new Error(`the remainder asks ${remainder.amount_required} BTC, ${missing} is missing`)
    }
    const block = await shown(
      cardOf(widget, remainderId).getByTestId("crypto-payment-link"),
      "the remainder's payment link",
      widget
    )
    const link = await block.locator('input[aria-label="Payment link"]').inputValue()
    if (link !== remainder.invoice_url) throw new Error(`the widget shows ${link}, the ledger ${remainder.invoice_url}`)
    log(`remainder ${remainderId}: ${remainder.amount_required} BTC, ${link}`)
  })

  await check(
    "the remainder paid: the collection is paid, the short payment settled, nothing left to ask",
    async () => {
      if (!edited || !remainderId) throw new Error("no remainder (see above)")
      await control.pay(remainderId)
      await control.confirm(remainderId)
      const order = await untilCollectionPaid(admin, edited)
      if (order.payment_status !== "captured") throw new Error(`the order is ${order.payment_status}, not captured`)
      const short = await until(
        () => adminPayment(admin, shortId),
        (p) => p.settled,
        `the short payment ${shortId} to be settled by its remainder`,
        STEP_MS
      )
      if (short.flags.includes("refund_owed")) throw new Error(`the short payment owes the customer: ${short.flags}`)
      const widget = await untilWidget(
        page,
        backendUrl,
        edited.orderId,
        async (w) =>
          (await hasStatus(cardOf(w, remainderId), "COMPLETED")) &&
          (await cardOf(w, shortId).getByTestId("crypto-shortfall").count()) === 0,
        "the remainder completed and no shortfall left"
      )
      if (await widget.getByTestId("crypto-outstanding").count()) {
        throw new Error(`the paid collection is still listed as due: ${await textOf(widget)}`)
      }
      log(
        `collection ${edited.collectionId} paid with ${shortId} and its remainder; order #${edited.displayId} captured`
      )
    }
  )
}

async function paymentLinkChecks(running: RunningStore): Promise<void> {
  let browser: Browser | undefined
  try {
    const shop: Shop = {
      backendUrl: running.backendUrl,
      storefrontUrl: running.storefrontUrl!,
      store: running.store,
      admin: running.admin,
      control: running.control,
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS })
    const adminContext = await browser.newContext({ viewport: { width: 1440, height: 1000 }, locale: "en-US" })
    const page = await adminContext.newPage()

    say("\n▸ The dashboard in Chromium")
    const loggedIn = await check("logs into the dashboard", () => logIn(page, shop.backendUrl))

    // without the dashboard, runs 1 and 3 could only time out: the failed login already fails the step
    say("\n▸ 1. A payment link from the order widget, paid on the service's hosted page")
    if (loggedIn) await linkPaidOnHostedPage(adminContext, page, shop)

    say(`\n▸ 2. The customer pays an order edit's amount on the storefront (${shop.storefrontUrl})`)
    await customerPaysOnStorefront(browser, shop)

    say("\n▸ 3. A payment link paid short, expired, and completed by its remainder")
    if (loggedIn) await remainderOfShortPayment(page, shop)
  } finally {
    await browser?.close()
  }
}

export const paymentLinkSuite: BrowserSuite = {
  name: "an order's outstanding amount in crypto",
  store: { adminDashboard: true, storefront: true, env: { CRYPTO_STATUS_CACHE_SECONDS: "2" } },
  run: paymentLinkChecks,
  counts,
  shots: SHOTS,
}

if (require.main === module) runSuites("payment-link", [paymentLinkSuite])
