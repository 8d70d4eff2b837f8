/**
 * The customer's side in a real browser (`npm test -- storefront`, part of `npm test`): the demo store
 * with its storefront (scripts/demo/storefront, built from the components of docs/storefront), and
 * Debian's Chromium buying through it with the mouse, paying on the sandbox's hosted page by pressing
 * its buttons:
 *   1. placeOrder before_payment, an invoice: the order page links to the payment page, shows the coin's
 *      address, amount, QR code and countdown once chosen — in German too, with the demo's language switch —,
 *      the confirmations ("Confirming", not paid), then "Paid" once the shop captured the payment (the status
 *      route's verdict "paid");
 *   2. a coin picked at checkout (a payment) that expires: the order is canceled and the page starts again;
 *      USDT on BNB Smart Chain picked at checkout: the network line, the EIP-681 wallet link, its QR code decoded
 *      (as for the BTC of 1., a BIP-21 link), and both carrying only the rest once part of it arrived;
 *   3. in euros, with the demo's region switch (Europe, EUR): prices in euros, the crypto step shows the amount
 *      and what the shop asked the service in USD ("€80.00 ≈ $86.74", at the ECB rate), the order is placed,
 *      paid and captured in EUR;
 *   4. the refund-address link (`/crypto-refund#<token>`): the first order refunded $10 in the admin API, its
 *      link opened in the storefront as the admin copies it, and as a link sent before the token moved after `#`
 *      (`/crypto-refund/<token>`); a testnet address refused next to the field, a mainnet one saved and shown
 *      masked, then frozen once the admin starts the payout; no request of the pages carries the token in its
 *      URL or its Referer;
 *   5. placeOrder after_payment (Medusa restarted with it): the payment box on the checkout, the order
 *      placed once paid.
 * Screenshots of each state go to docs/images/. It never skips (see scripts/lib/browser.ts).
 */
import { Browser, BrowserContext, chromium, Page, Request } from "playwright-core"
import axios, { AxiosInstance } from "axios"
import jsQR from "jsqr"
import { keccak_256 } from "@noble/hashes/sha3"
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils"
import type { RunningStore } from "./demo/store"
import { BrowserSuite, checks, CHROMIUM, CHROMIUM_FLAGS, expectText, runSuites, screenshots } from "./lib/browser"
import type { SandboxControl } from "../src/sandbox"
import type { CryptoPaymentView, CryptoSessionData } from "../docs/storefront/crypto-payment"
import { formatCryptoAmount } from "../docs/storefront/crypto-payment-i18n"

const SHOTS = screenshots("storefront")
const STEP_MS = 30_000
const say = (line: string) => process.stdout.write(`${line}\n`)
const { counts, check } = checks()

type Shop = {
  storefrontUrl: string
  admin: AxiosInstance
  /** The store API as the storefront calls it (with its publishable key): to read what the page shows. */
  storeApi: AxiosInstance
  control: SandboxControl
}

/** The customer's walk from the shop to the review step's button, as a person clicks it. */
async function checkout(page: Page, shop: Shop, coin?: string, shot?: string): Promise<void> {
  await page.goto(shop.storefrontUrl)
  await addToCart(page)
  await toReview(page, coin, shot)
}

/** On the shop page: the product into the cart, to the cart page. */
async function addToCart(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Add to cart" }).click()
  await page.waitForURL(/#\/cart$/)
}

/** From the cart page through the checkout's steps (the demo's address filled in) to the review step's button. */
async function toReview(page: Page, coin?: string, shot?: string): Promise<void> {
  await page.getByRole("button", { name: "Go to checkout" }).click()
  await page.getByRole("button", { name: "Continue to delivery" }).click()
  await page.getByRole("button", { name: "Continue to payment" }).click()
  await page.getByTestId("crypto-coin-picker").waitFor()
  if (coin) await page.locator(`input[name="crypto-coin"][value="${coin}"]`).check()
  if (shot) await page.screenshot({ path: SHOTS.path(shot), fullPage: true })
  await page.getByRole("button", { name: "Continue to review" }).click()
}

/**
 * The demo storefront's language switch (top bar): the crypto components speak the language at once, the SDK
 * sends it as x-medusa-locale from then on, and the page's <html lang> follows it.
 */
async function setLanguage(page: Page, language: "en" | "de" | "fr" | "es"): Promise<void> {
  await page.getByTestId("language-switch").selectOption(language)
  await page.locator(`html[lang="${language}"]`).waitFor({ state: "attached", timeout: STEP_MS })
}

/**
 * The demo storefront's region switch (top bar), by the region's label ("Europe (EUR)"): the shop's prices and
 * the cart's are in its currency from then on. Resolves once the switch shows it and is enabled again (a cart
 * moves to the region first).
 */
async function setRegion(page: Page, label: string): Promise<void> {
  const select = page.getByTestId("region-switch")
  await select.selectOption({ label })
  await page
    .locator('[data-testid="region-switch"]:enabled')
    .locator("option:checked", { hasText: label })
    .waitFor({ state: "attached", timeout: STEP_MS })
}

/** The demo cart's crypto session (its data, as the storefront reads it), through the store API. */
async function cryptoSessionOfPage(page: Page, shop: Shop): Promise<CryptoSessionData> {
  const cartId = await page.evaluate(() => localStorage.getItem("crypto-demo-cart"))
  if (!cartId) throw new Error("the storefront has no cart")
  const { cart } = (await shop.storeApi.get(`/store/carts/${cartId}`)).data
  const session = (cart.payment_collection?.payment_sessions ?? []).find(
    (s: { provider_id: string; status: string }) => s.provider_id.startsWith("pp_crypto_") && s.status === "pending"
  )
  if (!session) throw new Error(`cart ${cartId} has no pending crypto session`)
  return session.data as CryptoSessionData
}

/** Money as an English page writes it: "$86.74", "€80.00". */
const moneyText = (amount: string | number, currency: string) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency }).format(Number(amount))

/** The order page's crypto box in a state (data-state of CryptoPaymentBox; data-verdict holds the verdict). */
const box = (page: Page, state?: string) =>
  page.locator(state ? `[data-testid="crypto-payment"][data-state="${state}"]` : '[data-testid="crypto-payment"]')

/*
 * What a wallet gets: the box's "Open in a wallet app" link and its QR code, against the URI the test builds
 * itself from the service's address and amount (BIP-21, EIP-681) — not from anything the plugin computed.
 */

/** The USDT contract on BNB Smart Chain (chain id 56), 18 decimals: https://bscscan.com/token/0x55d398326f99059ff775485246999027b3197955 */
const BEP20_USDT = "0x55d398326f99059fF775485246999027B3197955"

/** An EVM address with its EIP-55 checksum (https://eips.ethereum.org/EIPS/eip-55), written here from the EIP. */
function eip55(address: string): string {
  const hex = address.toLowerCase().replace(/^0x/, "")
  const hash = bytesToHex(keccak_256(utf8ToBytes(hex)))
  return `0x${Array.from(hex, (c, i) => (parseInt(hash[i], 16) >= 8 ? c.toUpperCase() : c)).join("")}`
}

/** A decimal amount in base units (10^-places), rounded up: "84.5" at 18 places → 84500000000000000000n. */
function baseUnits(amount: string, places: number): bigint {
  const [whole, fraction = ""] = amount.split(".")
  const kept = BigInt(whole + fraction.slice(0, places).padEnd(places, "0"))
  return /[1-9]/.test(fraction.slice(places)) ? kept + 1n : kept
}

/** BIP-21's amount (https://github.com/bitcoin/bips/blob/master/bip-0021.mediawiki): BTC, at most 8 places, no trailing zeros. */
function bip21Amount(amount: string): string {
  const units = baseUnits(amount, 8).toString().padStart(9, "0")
  return `${units.slice(0, -8)}.${units.slice(-8)}`.replace(/\.?0+$/, "")
}

/** The status route's view of a payment, as the box polls it (with the storefront's publishable key). */
async function storeView(shop: Shop, paymentId: string): Promise<CryptoPaymentView> {
  return (await shop.storeApi.get(`/store/crypto/payments/${encodeURIComponent(paymentId)}`)).data.payment
}

/** The box's "Open in a wallet app" link: its href, exactly as the page has it. */
async function walletHref(page: Page): Promise<string> {
  const link = page.getByTestId("crypto-wallet-link")
  await link.waitFor({ timeout: STEP_MS })
  expectText(await link.innerText(), "Open in a wallet app", "the wallet link's text")
  return String(await link.getAttribute("href"))
}

/**
 * The box's QR code, decoded: the <img> the customer sees drawn on a canvas in the page (scaled up, the SVG
 * drawn anew at that size), its RGBA pixels read here by jsQR.
 */
async function decodedQr(page: Page): Promise<string> {
  const image = page.getByTestId("crypto-qr")
  await image.waitFor({ timeout: STEP_MS })
  const size = 480
  const pixels = await image.evaluate(async (element, size) => {
    const img = element as HTMLImageElement
    await img.decode()
    const canvas = document.createElement("canvas")
    canvas.width = size
    canvas.height = size
    const context = canvas.getContext("2d")
    if (!context) throw new Error("no 2d canvas")
    context.imageSmoothingEnabled = false
    context.fillStyle = "#ffffff"
    context.fillRect(0, 0, size, size)
    context.drawImage(img, 0, 0, size, size)
    const data = context.getImageData(0, 0, size, size).data
    let binary = ""
    for (let i = 0; i < data.length; i += 0x8000) {
      binary += String.fromCharCode(...Array.from(data.subarray(i, i + 0x8000)))
    }
    return btoa(binary)
  }, size)
  const code = jsQR(new Uint8ClampedArray(Buffer.from(pixels, "base64")), size, size)
  if (!code) throw new Error("the QR code on the page could not be decoded")
  return code.data
}

/** The wallet link is `expected` exactly, and the QR code on the page decodes to that link. */
async function expectWalletUri(page: Page, expected: string, what: string): Promise<void> {
  const href = await walletHref(page)
  if (href !== expected) {
    const caseOnly =
      href.toLowerCase() === expected.toLowerCase() ? " (they differ in letter case only: the checksum)" : ""
    throw new Error(`${what}: the wallet link is\n  ${href}\nnot\n  ${expected}${caseOnly}`)
  }
  const decoded = await decodedQr(page)
  if (decoded !== href) throw new Error(`${what}: the QR code decodes to\n  ${decoded}\nnot the link\n  ${href}`)
}

/** The address the box shows (its <code>), which must be the store view's. */
async function expectShownAddress(page: Page, view: CryptoPaymentView): Promise<void> {
  const shown = await page.getByTestId("crypto-address").locator("code").innerText()
  if (shown !== view.address) throw new Error(`the page shows the address ${shown}, the store view ${view.address}`)
}

async function openPaymentPage(context: BrowserContext, page: Page): Promise<{ hosted: Page; paymentId: string }> {
  const [hosted] = await Promise.all([
    context.waitForEvent("page"),
    page.getByTestId("crypto-invoice-link").first().click(),
  ])
  await hosted.waitForLoadState()
  const paymentId = decodeURIComponent(new URL(hosted.url()).pathname.split("/").pop()!)
  return { hosted, paymentId }
}

const orderIdOf = (page: Page) => new URL(page.url()).hash.split("/").pop()!

async function adminOrder(admin: AxiosInstance, orderId: string) {
  const fields = "id,status,payment_status,total,currency_code,shipping_address.country_code"
  return (await admin.get(`/admin/orders/${orderId}`, { params: { fields } })).data.order as {
    status: string
    payment_status: string
    total: number
    currency_code: string
    shipping_address?: { country_code?: string | null } | null
  }
}

/** An order paid in crypto and captured: Medusa's order and the crypto payment's id. */
type PaidOrder = { orderId: string; paymentId: string }

/** Buys and pays in BTC through the order page; answers the paid order (undefined if it did not get paid). */
async function beforePaymentInvoice(browser: Browser, shop: Shop): Promise<PaidOrder | undefined> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  let hosted: Page | undefined
  let paymentId = ""
  let paid: PaidOrder | undefined
  try {
    await check("places the order awaiting payment; the order page links to the payment page", async () => {
      await checkout(page, shop, undefined, "storefront-checkout-payment.png")
      await page.getByTestId("place-order").click()
      await page.waitForURL(/#\/order\/order_/, { timeout: STEP_MS })
      await box(page, "choose_coin").waitFor({ timeout: STEP_MS })
      expectText(await page.getByTestId("order-payment-status").innerText(), "Awaiting payment", "order payment")
      expectText(await box(page).innerText(), /Expires in \d+:\d\d/, "countdown")
      await page.screenshot({ path: SHOTS.path("storefront-order-choose-coin.png"), fullPage: true })
      ;({ hosted, paymentId } = await openPaymentPage(context, page))
    })

    await check(
      "after a coin is chosen on the payment page: address, amount and QR code on the order page",
      async () => {
        if (!hosted) throw new Error("no payment page")
        await hosted.locator('#coins button[data-coin="BTC"]').click()
        await hosted.locator("#qr:not([hidden])").waitFor({ timeout: STEP_MS })
        await hosted.screenshot({ path: SHOTS.path("sandbox-hosted-page.png"), fullPage: true })
        const at = await shop.control.payment(paymentId)
        await box(page, "awaiting_funds").waitFor({ timeout: STEP_MS })
        expectText(await page.getByTestId("crypto-amount").innerText(), `${at.requiredAmount} BTC`, "amount")
        expectText(await page.getByTestId("crypto-address").innerText(), String(at.address), "address")
        const qr = page.locator("img.crypto-qr")
        await qr.waitFor({ timeout: STEP_MS })
        expectText(String(await qr.getAttribute("src")), /^data:image\/svg\+xml/, "QR image")
        await page.screenshot({ path: SHOTS.path("storefront-order-awaiting-funds.png"), fullPage: true })
      }
    )

    await check(
      "BTC: the wallet link is BIP-21 for the address and amount, and the QR code decodes to it",
      async () => {
        if (!paymentId) throw new Error("no payment")
        const at = await shop.control.payment(paymentId)
        if (!at.address) throw new Error("the service has no address for the payment")
        const view = await storeView(shop, paymentId)
        await expectShownAddress(page, view)
        if (view.address !== at.address) throw new Error(`the view's address ${view.address} is not ${at.address}`)
        await expectWalletUri(page, `bitcoin:${at.address}?amount=${bip21Amount(at.requiredAmount)}`, "BTC")
        // a coin on its own chain: no network warning
        if (await page.getByTestId("crypto-network").count()) throw new Error("a BTC payment shows a network warning")
        await page.screenshot({ path: SHOTS.path("storefront-awaiting-btc.png"), fullPage: true })
      }
    )

    await check(
      "switched to German: the box waits for the payment in German, amount with a decimal comma",
      async () => {
        if (!paymentId) throw new Error("no payment")
        const at = await shop.control.payment(paymentId)
        await setLanguage(page, "de")
        try {
          const payment = box(page, "awaiting_funds")
          await page
            .getByTestId("crypto-payment-title")
            .filter({ hasText: "Zahlung ausstehend" })
            .waitFor({ timeout: STEP_MS })
          expectText(
            await page.getByTestId("crypto-payment-detail").innerText(),
            /^Senden Sie .+ BTC an .+, bevor das Zahlungsfenster schließt\.$/,
            "what to do, in German"
          )
          expectText(
            await page.getByTestId("crypto-countdown").innerText(),
            /^Läuft ab in \d+(:\d\d){1,2}$/,
            "countdown"
          )
          // the amount as German writes numbers: a decimal comma, every digit kept
          const amount = await page.getByTestId("crypto-amount").innerText()
          expectText(amount, `${formatCryptoAmount(at.requiredAmount, "de")} BTC`, "amount")
          if (at.requiredAmount.includes(".")) expectText(amount, /\d,\d+ BTC/, "decimal comma")
          expectText(await payment.innerText(), "Senden Sie genau", "amount's label")
          expectText(await page.getByTestId("order-payment-status").innerText(), "Zahlung ausstehend", "order payment")
          await payment.locator("img.crypto-qr").waitFor({ timeout: STEP_MS })
          await payment.screenshot({ path: SHOTS.path("storefront-payment-box-de.png") })
        } finally {
          await setLanguage(page, "en")
        }
        await page
          .getByTestId("crypto-payment-title")
          .filter({ hasText: "Awaiting payment" })
          .waitFor({ timeout: STEP_MS })
        expectText(await page.getByTestId("crypto-countdown").innerText(), /^Expires in \d+(:\d\d){1,2}$/, "countdown")
      }
    )

    await check("shows the confirmations as they come, then says paid; the order is captured", async () => {
      if (!hosted) throw new Error("no payment page")
      await hosted.getByRole("button", { name: "Pay in full" }).click()
      await hosted.getByRole("button", { name: "+1 confirmation" }).click()
      await box(page, "confirming").waitFor({ timeout: STEP_MS })
      await page.getByTestId("crypto-confirmations").filter({ hasText: "1 of 3" }).waitFor({ timeout: STEP_MS })
      // money on its way is not paid: the order page says so until the shop captured it
      await page.getByTestId("order-payment-status").filter({ hasText: "Confirming" }).waitFor({ timeout: STEP_MS })
      await page.screenshot({ path: SHOTS.path("storefront-order-confirming.png"), fullPage: true })
      await hosted.getByRole("button", { name: "Confirm fully" }).click()
      await page
        .getByTestId("order-payment-status")
        .filter({ hasText: /^Paid$/ })
        .waitFor({ timeout: STEP_MS })
      await page.locator('[data-testid="crypto-payment"][data-state="paid"][data-verdict="paid"]').waitFor({
        timeout: STEP_MS,
      })
      expectText(await page.getByTestId("crypto-payment-title").innerText(), "Paid", "the box's title")
      await page.screenshot({ path: SHOTS.path("storefront-order-paid.png"), fullPage: true })
      const order = await adminOrder(shop.admin, orderIdOf(page))
      if (order.payment_status !== "captured") throw new Error(`the order is ${order.payment_status}, not captured`)
      paid = { orderId: orderIdOf(page), paymentId }
    })
  } finally {
    await context.close()
  }
  return paid
}

const BTC_MAINNET = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
const BTC_TESTNET = "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx"

/** An owed record of a crypto payment, as `GET /admin/crypto/payments/:id` lists it under `refund.records`. */
type OwedRecord = {
  id: string
  kind: string
  coin_amount: string | null
  base_amount: string
  sent_at: string | null
  refund_address: string | null
  address_given_by: string | null
}

/** The refund-address page (docs/storefront's CryptoRefundPage) in a state (its data-state). */
const refundBox = (page: Page, state: string) => page.locator(`[data-testid="crypto-refund"][data-state="${state}"]`)

/** What the refund page shows of a refund: the same on every page of the same link. */
async function refundShown(page: Page): Promise<Record<string, string>> {
  const shown: Record<string, string> = {}
  for (const id of ["title", "detail", "amount", "network", "address", "expiry"]) {
    shown[id] = await page.getByTestId(`crypto-refund-${id}`).innerText()
  }
  return shown
}

/** Every request a page makes from now on (Playwright's request events), to look for the token in afterwards. */
function requestsOf(page: Page): Request[] {
  const seen: Request[] = []
  page.on("request", (request) => seen.push(request))
  return seen
}

/** A request's headers as sent (a request that never got them: the ones Chromium announced). */
async function sentHeaders(request: Request): Promise<Record<string, string>> {
  let timer: NodeJS.Timeout | undefined
  const announced = new Promise<Record<string, string>>((resolve) => {
    timer = setTimeout(() => resolve(request.headers()), 5_000)
  })
  try {
    return await Promise.race([request.allHeaders().catch(() => request.headers()), announced])
  } finally {
    clearTimeout(timer)
  }
}

/** The page called the refund routes at least `least` times, each with the token in its header and not in its URL. */
function expectRefundCalls(requests: Request[], token: string, least: number): void {
  const calls = requests.filter((r) => r.url().includes("/store/crypto/refunds") && r.method() !== "OPTIONS")
  if (calls.length < least) throw new Error(`${calls.length} calls of the refund routes, not at least ${least}`)
  const wrong = calls.filter((r) => r.headers()["x-crypto-refund-token"] !== token || !/\/refunds$/.test(r.url()))
  if (wrong.length) throw new Error(`not the token's header or not the bare route: ${wrong.map((r) => r.url())}`)
}

/**
 * The requests that carry the link's secret (the token after its last dot) in their URL or their Referer. A URL
 * is taken without its fragment, which a browser never sends; `except` is a request allowed to carry it in its
 * URL (an older link's own page: its path is the token), never in its Referer.
 */
async function tokenLeaks(requests: Request[], token: string, except?: (request: Request) => boolean) {
  const secret = token.slice(token.lastIndexOf(".") + 1)
  const carries = (text: string | undefined) =>
    !!text && (text.includes(secret) || text.includes(encodeURIComponent(secret)))
  const found = await Promise.all(
    requests.map(async (request) => {
      const sent = request.url().split("#")[0]
      const referer = (await sentHeaders(request))["referer"]
      const leaks: string[] = []
      if (carries(sent) && !except?.(request)) leaks.push(`${request.method()} ${sent}`)
      if (carries(referer)) leaks.push(`${request.method()} ${sent} with Referer ${referer}`)
      return leaks
    })
  )
  return found.flat()
}

/**
 * The customer's refund-address link: the paid order refunded $10 in Medusa's admin API (the provider records
 * what is owed), the link the admin copies opened in the demo storefront as it is, /crypto-refund#<token>, and as
 * a link sent before the token moved after `#`, /crypto-refund/<token>; a testnet address refused next to the
 * field, a mainnet one saved and shown masked; frozen once the admin starts the payout. No request of either page
 * carries the token in its URL (the older link's own page aside) or in its Referer.
 */
async function refundAddressPage(browser: Browser, shop: Shop, paid: PaidOrder | undefined): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  const requests = requestsOf(page)
  let owed: OwedRecord | undefined
  let token = ""
  let opened = false
  try {
    await check("a refund in the admin gives a link; its page shows what is owed", async () => {
      if (!paid) throw new Error("no paid order to refund (the first purchase did not get paid)")
      const { order } = (
        await shop.admin.get(`/admin/orders/${paid.orderId}`, {
          params: { fields: "id,*payment_collections,*payment_collections.payments" },
        })
      ).data as { order: { payment_collections: Array<{ payments?: Array<{ id: string }> }> } }
      const payment = order.payment_collections.flatMap((c) => c.payments ?? [])[0]
      if (!payment) throw new Error(`order ${paid.orderId} has no payment`)
      await shop.admin.post(`/admin/payments/${payment.id}/refund`, { amount: 10 })
      const { refund } = (await shop.admin.get(`/admin/crypto/payments/${paid.paymentId}`)).data.payment as {
        refund: { records: OwedRecord[] }
      }
      owed = refund.records.find((r) => r.kind === "refund" && !r.sent_at)
      if (!owed) throw new Error(`the refund left nothing owed: ${JSON.stringify(refund)}`)
      const { link } = (await shop.admin.get(`/admin/crypto/payments/${paid.paymentId}/owed/${owed.id}/link`)).data as {
        link: { token: string; url: string | null; path: string; expires_at: string }
      }
      token = link.token
      // the link the admin copies (and the refund email carries) opens this storefront, the token after #
      const url = `${shop.storefrontUrl}/crypto-refund#${token}`
      if (link.url !== url) throw new Error(`the link is ${link.url}, not ${url}`)
      if (`${shop.storefrontUrl}${link.path}` !== url) throw new Error(`the link's path is ${link.path}`)

      await page.goto(link.url)
      await refundBox(page, "awaiting_address").waitFor({ timeout: STEP_MS })
      // the address bar keeps the link as it is (the customer may bookmark it)
      if (page.url() !== link.url) throw new Error(`the page moved to ${page.url()}`)
      const amount = await page.getByTestId("crypto-refund-amount").innerText()
      if (owed.coin_amount) expectText(amount, `${formatCryptoAmount(owed.coin_amount, "en")} BTC`, "the coins owed")
      expectText(amount, moneyText(owed.base_amount, "USD"), "their worth")
      expectText(amount, "$10.00", "the refund's amount")
      expectText(await page.getByTestId("crypto-refund-network").innerText(), "Bitcoin", "the network")
      expectText(await page.getByTestId("crypto-refund-address").innerText(), "Not given yet", "no address yet")
      expectText(
        await page.getByTestId("crypto-refund-expiry").innerText(),
        /^This link works until .+\d{4}\.$/,
        "expiry"
      )
      expectText(await page.getByTestId("crypto-refund-detail").innerText(), "The shop is refunding you", "what it is")
      // a Bitcoin address cannot be mistaken for another network's: nothing to confirm
      if (await page.getByTestId("crypto-refund-confirm-network").count())
        throw new Error("a Bitcoin refund asks to confirm the network")
      opened = true
    })

    await check("a link sent before, /crypto-refund/<token>, opens the same refund", async () => {
      if (!opened) throw new Error("the refund page did not open")
      const older = await context.newPage()
      const requested = requestsOf(older)
      const olderLink = `${shop.storefrontUrl}/crypto-refund/${token}`
      try {
        await older.goto(olderLink)
        await refundBox(older, "awaiting_address").waitFor({ timeout: STEP_MS })
        const [shown, before] = [await refundShown(older), await refundShown(page)]
        if (JSON.stringify(shown) !== JSON.stringify(before))
          throw new Error(`the older link shows ${JSON.stringify(shown)}, the link ${JSON.stringify(before)}`)
        expectRefundCalls(requested, token, 1)
        // its own page is the one request whose path holds the token (that is the older link): none else, and
        // no Referer either
        const ownPage = (r: Request) => r.isNavigationRequest() && r.url().split("#")[0] === olderLink
        const leaks = await tokenLeaks(requested, token, ownPage)
        if (leaks.length) throw new Error(`the token left the browser:\n${leaks.join("\n")}`)
      } finally {
        await older.close()
      }
    })

    await check("a testnet address is refused next to the field, saying why", async () => {
      if (!opened) throw new Error("the refund page did not open")
      await page.getByTestId("crypto-refund-address-input").fill(BTC_TESTNET)
      await page.getByTestId("crypto-refund-save").click()
      const error = page.getByTestId("crypto-refund-address-error")
      await error.waitFor({ timeout: STEP_MS })
      expectText(await error.innerText(), /testnet/i, "the field's error")
      if ((await error.innerText()).includes(BTC_TESTNET)) throw new Error("the error repeats the address")
      const input = page.getByTestId("crypto-refund-address-input")
      if ((await input.getAttribute("aria-invalid")) !== "true") throw new Error("the field is not marked invalid")
      await refundBox(page, "awaiting_address").waitFor({ timeout: STEP_MS })
      expectText(await page.getByTestId("crypto-refund-address").innerText(), "Not given yet", "still no address")
      await page.screenshot({ path: SHOTS.path("storefront-refund-page-error.png"), fullPage: true })
    })

    await check("a mainnet address is saved, shown masked, and recorded as the customer's", async () => {
      if (!opened || !paid || !owed) throw new Error("the refund page did not open")
      await page.getByTestId("crypto-refund-address-input").fill(BTC_MAINNET)
      await page.getByTestId("crypto-refund-address-error").waitFor({ state: "detached", timeout: STEP_MS })
      await page.getByTestId("crypto-refund-save").click()
      await refundBox(page, "address_given").waitFor({ timeout: STEP_MS })
      await page.getByTestId("crypto-refund-address").filter({ hasText: "bc1qar…5mdq" }).waitFor({ timeout: STEP_MS })
      if ((await page.getByTestId("crypto-refund-address").innerText()).includes(BTC_MAINNET))
        throw new Error("the page shows the whole address")
      expectText(await page.getByTestId("crypto-refund-notice").innerText(), "Address saved", "the notice")
      expectText(await page.getByTestId("crypto-refund-save").innerText(), "Change the address", "the button")
      const { refund } = (await shop.admin.get(`/admin/crypto/payments/${paid.paymentId}`)).data.payment as {
        refund: { records: OwedRecord[] }
      }
      const record = refund.records.find((r) => r.id === owed!.id)
      if (record?.refund_address !== BTC_MAINNET || record.address_given_by !== "customer")
        throw new Error(`the admin sees ${JSON.stringify(record)}`)
      await page.screenshot({ path: SHOTS.path("storefront-refund-page.png"), fullPage: true })
    })

    await check("once the admin starts the payout, the page says the address is frozen", async () => {
      if (!opened || !paid || !owed) throw new Error("the refund page did not open")
      await shop.admin.post(`/admin/crypto/payments/${paid.paymentId}/owed/${owed.id}/payout`, { address: BTC_MAINNET })
      await page.reload()
      await refundBox(page, "frozen").waitFor({ timeout: STEP_MS })
      expectText(await page.getByTestId("crypto-refund-title").innerText(), "Being sent", "the badge")
      expectText(
        await page.getByTestId("crypto-refund-notice").innerText(),
        "it can no longer change",
        "the frozen notice"
      )
      expectText(await page.getByTestId("crypto-refund-address").innerText(), "bc1qar…5mdq", "the address")
      if (await page.getByTestId("crypto-refund-form").count()) throw new Error("the frozen page still has the form")
    })

    await check("no request of the link's page carries the token in its URL or its Referer", async () => {
      if (!opened) throw new Error("the refund page did not open")
      // the first read, the two addresses given, the read after the reload: each with the token's header
      expectRefundCalls(requests, token, 4)
      const leaks = await tokenLeaks(requests, token)
      if (leaks.length) throw new Error(`the token left the browser:\n${leaks.join("\n")}`)
    })
  } finally {
    await context.close()
  }
}

async function paymentExpires(browser: Browser, shop: Shop): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  try {
    await check("a coin picked at checkout expires unpaid: order canceled, the page starts again", async () => {
      await checkout(page, shop, "LTC")
      await page.getByTestId("place-order").click()
      await page.waitForURL(/#\/order\/order_/, { timeout: STEP_MS })
      // a payment has its address at once: no trip to the payment page needed to pay
      await box(page, "awaiting_funds").waitFor({ timeout: STEP_MS })
      expectText(await page.getByTestId("crypto-amount").innerText(), "LTC", "amount in LTC")
      const { hosted } = await openPaymentPage(context, page)
      await hosted.getByRole("button", { name: "Let it expire" }).click()
      await box(page, "expired").waitFor({ timeout: STEP_MS })
      expectText(await page.getByTestId("crypto-payment-title").innerText(), "Expired", "the box's title")
      await page.getByTestId("order-payment-status").filter({ hasText: "Canceled" }).waitFor({ timeout: STEP_MS })
      const order = await adminOrder(shop.admin, orderIdOf(page))
      if (order.status !== "canceled") throw new Error(`the order is ${order.status}, not canceled`)
      await page.bringToFront()
      await page.screenshot({ path: SHOTS.path("storefront-order-expired.png"), fullPage: true })
      await page.getByTestId("crypto-start-again").click()
      await page.waitForURL(/#\/checkout$/, { timeout: STEP_MS })
      expectText(await page.locator("aside").innerText(), "1 × Hardware wallet", "the new cart")
    })
  } finally {
    await context.close()
  }
}

/**
 * USDT on BNB Smart Chain picked at checkout (a single-coin payment): the network line the customer cannot
 * miss, the EIP-681 link (the token's contract at chain 56, `transfer` to the payment's address with its EIP-55
 * checksum, the amount in base units at 18 decimals) and the QR code decoded to it; once part arrives, both
 * carry only the rest.
 */
async function tokenPayment(browser: Browser, shop: Shop): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  let paymentId = ""
  let address = ""
  try {
    await check(
      "USDT_BEP20 picked at checkout: the network line says BNB Smart Chain (BEP-20), the wallet link is EIP-681 and the QR code decodes to it",
      async () => {
        // the EIP's own example, so that the checksum written here is the EIP's
        const example = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
        if (eip55(example.toLowerCase()) !== example) throw new Error(`EIP-55 here gives ${eip55(example)}`)

        await checkout(page, shop, "USDT_BEP20")
        const placeOrder = page.getByTestId("place-order")
        const failed = page.getByTestId("checkout-error")
        await placeOrder.or(failed).first().waitFor({ timeout: STEP_MS })
        if (await failed.isVisible()) throw new Error(`the checkout failed: ${await failed.innerText()}`)
        const session = await cryptoSessionOfPage(page, shop)
        if (session.currency !== "USDT_BEP20") throw new Error(`the session is in ${session.currency}, not USDT_BEP20`)
        paymentId = session.paymentId
        await placeOrder.click()
        await page.waitForURL(/#\/order\/order_/, { timeout: STEP_MS })
        await box(page, "awaiting_funds").waitFor({ timeout: STEP_MS })

        const network = page.getByTestId("crypto-network")
        await network.waitFor({ state: "visible", timeout: STEP_MS })
        expectText(await network.innerText(), "BNB Smart Chain (BEP-20)", "the network line")
        expectText(await network.innerText(), "Send USDT on BNB Smart Chain (BEP-20) only", "the network line")

        const at = await shop.control.payment(paymentId)
        if (!at.address) throw new Error("the service has no address for the payment")
        address = eip55(at.address)
        const view = await storeView(shop, paymentId)
        // the address as the view gives it, with its EIP-55 checksum, and the page shows it so
        if (view.address !== address) throw new Error(`the view's address is ${view.address}, not ${address} (EIP-55)`)
        await expectShownAddress(page, view)
        expectText(
          await page.getByTestId("crypto-amount").innerText(),
          `${formatCryptoAmount(at.requiredAmount, "en")} USDT BEP20`,
          "the amount"
        )
        const units = baseUnits(at.requiredAmount, 18)
        const expected = `ethereum:${BEP20_USDT}@56/transfer?address=${address}&uint256=${units}`
        await expectWalletUri(page, expected, "USDT_BEP20")
        // the session data carries it too, for the whole amount
        if (session.walletUri !== expected) throw new Error(`the session's walletUri is ${session.walletUri}`)
        await page.screenshot({ path: SHOTS.path("storefront-awaiting-usdt-bep20.png"), fullPage: true })
      }
    )

    await check("USDT_BEP20 partly paid: the wallet link and the QR code carry only the rest", async () => {
      if (!paymentId || !address) throw new Error("no USDT_BEP20 payment")
      await shop.control.pay(paymentId, { mode: "partial" })
      await box(page, "underpaid").waitFor({ timeout: STEP_MS })
      const at = await shop.control.payment(paymentId)
      const rest = baseUnits(at.requiredAmount, 18) - baseUnits(at.currentBalance, 18)
      if (rest <= 0n) throw new Error(`nothing is left to send: ${JSON.stringify(at)}`)
      const expected = `ethereum:${BEP20_USDT}@56/transfer?address=${address}&uint256=${rest}`
      // the box reads the rest from its next poll: the link follows
      await page
        .locator(`[data-testid="crypto-wallet-link"][href="${expected}"]`)
        .waitFor({ state: "attached", timeout: STEP_MS })
      await expectWalletUri(page, expected, "USDT_BEP20, the rest")
      await page.getByTestId("crypto-network").waitFor({ state: "visible", timeout: STEP_MS })
    })
  } finally {
    await context.close()
  }
}

async function euroPurchase(browser: Browser, shop: Shop): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  let session: CryptoSessionData | undefined
  try {
    await check(
      "in the Europe region: prices in euros, the crypto step shows the amount and its USD price at the ECB rate",
      async () => {
        await page.goto(shop.storefrontUrl)
        await setRegion(page, "Europe (EUR)")
        // the shop's price in euros (the product is $79 in the US region, €75 in Europe)
        await page
          .getByTestId("product")
          .filter({ hasText: "Hardware wallet" })
          .locator(".price", { hasText: /^€75\.00$/ })
          .waitFor({ timeout: STEP_MS })
        await addToCart(page)
        expectText(await page.locator("table.lines").innerText(), "€75.00", "the cart's line")
        await toReview(page, undefined, "storefront-checkout-payment-eur.png")
        // the review step with the crypto session, or the checkout's error (no rate, a stale one) to say why not
        const line = page.getByTestId("crypto-exchange")
        const failed = page.getByTestId("checkout-error")
        await line.or(failed).first().waitFor({ timeout: STEP_MS })
        if (await failed.isVisible()) throw new Error(`the checkout failed: ${await failed.innerText()}`)
        // the demo's address in the region: Germany (Berlin), the checkout's default for Europe
        expectText(await page.getByTestId("step-address").innerText(), "Berlin", "the address")
        const aside = await page.locator("aside").innerText()
        expectText(aside, "€5.00", "the shipping")
        expectText(await page.getByTestId("summary-total").innerText(), "€80.00", "the total")
        if (aside.includes("$")) throw new Error(`the cart shows dollars: ${JSON.stringify(aside)}`)

        session = await cryptoSessionOfPage(page, shop)
        const exchange = session.exchange
        if (!exchange) throw new Error(`the EUR session has no exchange: ${JSON.stringify(session)}`)
        if (session.baseCurrency !== "EUR") throw new Error(`the session is in ${session.baseCurrency}, not EUR`)
        const text = await line.innerText()
        expectText(
          text,
          `${moneyText(session.baseAmount, "EUR")} ≈ ${moneyText(exchange.usdAmount, "USD")}`,
          "the amount and its USD price"
        )
        expectText(text, "€80.00 ≈ $", "in euros, about dollars")
        expectText(text, `at ${exchange.rate} USD/EUR`, "the rate")
        if (exchange.source === "ecb") expectText(text, `(ECB, ${exchange.publishedOn})`, "the rate's source")
        // what the crypto service was asked: the USD amount, in USD
        const at = await shop.control.payment(String(session.paymentId))
        if (at.baseCurrency.toUpperCase() !== "USD" || Number(at.baseAmount) !== Number(exchange.usdAmount)) {
          throw new Error(`the service was asked ${at.baseAmount} ${at.baseCurrency}, not ${exchange.usdAmount} USD`)
        }
        await page.screenshot({ path: SHOTS.path("storefront-checkout-review-eur.png"), fullPage: true })
      }
    )

    await check("the euro order is placed, paid on the payment page and captured; its currency is EUR", async () => {
      if (!session?.exchange) throw new Error("no crypto session in EUR")
      const usd = moneyText(session.exchange.usdAmount, "USD")
      await page.getByTestId("place-order").click()
      await page.waitForURL(/#\/order\/order_/, { timeout: STEP_MS })
      await box(page, "choose_coin").waitFor({ timeout: STEP_MS })
      // the order page's payment box shows the price beside what to pay (docs/storefront's CryptoPaymentBox)
      expectText(await page.getByTestId("crypto-price").innerText(), `€80.00 ≈ ${usd}`, "the order page's price")
      expectText(await page.getByTestId("summary-total").innerText(), "€80.00", "the order's total")
      const { hosted } = await openPaymentPage(context, page)
      await hosted.locator('#coins button[data-coin="BTC"]').click()
      await hosted.locator("#qr:not([hidden])").waitFor({ timeout: STEP_MS })
      await hosted.getByRole("button", { name: "Pay in full" }).click()
      await hosted.getByRole("button", { name: "Confirm fully" }).click()
      await page
        .getByTestId("order-payment-status")
        .filter({ hasText: /^Paid$/ })
        .waitFor({ timeout: STEP_MS })
      await page.screenshot({ path: SHOTS.path("storefront-order-paid-eur.png"), fullPage: true })
      const order = await adminOrder(shop.admin, orderIdOf(page))
      if (order.payment_status !== "captured") throw new Error(`the order is ${order.payment_status}, not captured`)
      if (order.currency_code !== "eur") throw new Error(`the order is in ${order.currency_code}, not eur`)
      const country = order.shipping_address?.country_code
      if (country !== "de") throw new Error(`the order ships to ${country}, not de`)
    })
  } finally {
    await context.close()
  }
}

async function afterPayment(browser: Browser, shop: Shop): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  try {
    await check("placeOrder after_payment: pay on the checkout, the order is placed once paid", async () => {
      await checkout(page, shop, "ETH")
      const button = page.getByTestId("place-order")
      expectText(await button.innerText(), "Pay with crypto", "review button")
      await button.click()
      await box(page, "awaiting_funds").waitFor({ timeout: STEP_MS })
      if (!page.url().includes("#/checkout")) throw new Error(`left the checkout before paying: ${page.url()}`)
      await page.screenshot({ path: SHOTS.path("storefront-checkout-after-payment.png"), fullPage: true })
      const { hosted } = await openPaymentPage(context, page)
      await hosted.getByRole("button", { name: "Pay in full" }).click()
      await hosted.getByRole("button", { name: "Confirm fully" }).click()
      await page.waitForURL(/#\/order\/order_/, { timeout: STEP_MS })
      await page
        .getByTestId("order-payment-status")
        .filter({ hasText: /^Paid$/ })
        .waitFor({ timeout: STEP_MS })
      const order = await adminOrder(shop.admin, orderIdOf(page))
      if (order.payment_status !== "captured") throw new Error(`the order is ${order.payment_status}, not captured`)
    })
  } finally {
    await context.close()
  }
}

async function storefrontChecks(running: RunningStore): Promise<void> {
  let browser: Browser | undefined
  try {
    const storeApi = axios.create({
      baseURL: running.backendUrl,
      headers: { "x-publishable-api-key": running.store.publishableKey },
    })
    const shop: Shop = {
      storefrontUrl: running.storefrontUrl!,
      admin: running.admin,
      storeApi,
      control: running.control,
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS })

    say(`\n▸ A customer buys through the demo storefront (${shop.storefrontUrl}), order placed before payment`)
    const paid = await beforePaymentInvoice(browser, shop)
    await paymentExpires(browser, shop)
    await tokenPayment(browser, shop)
    await euroPurchase(browser, shop)

    say("\n▸ The customer gives the refund's address through the link the shop sends")
    await refundAddressPage(browser, shop, paid)

    say("\n▸ The same storefront against a store that places orders after payment")
    await running.crash()
    await running.restart({ CRYPTO_PLACE_ORDER: "after_payment" })
    await afterPayment(browser, shop)
  } finally {
    await browser?.close()
  }
}

/** Restarts Medusa for its last run: with other suites on its store, it goes last. */
export const storefrontSuite: BrowserSuite = {
  name: "a customer on the demo storefront",
  store: { storefront: true, env: { CRYPTO_STATUS_CACHE_SECONDS: "2", CRYPTO_PLACE_ORDER: "before_payment" } },
  run: storefrontChecks,
  counts,
  shots: SHOTS,
}

if (require.main === module) runSuites("storefront", [storefrontSuite])
