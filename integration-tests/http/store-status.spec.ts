import { cryptoIntegrationRunner } from "../helpers/runner"
import { useSandbox, SANDBOX_API_KEY } from "../helpers/sandbox"
import { createCryptoCart, CryptoStore, failing, shopForFile, startCryptoSession } from "../helpers/checkout"
import { decodeQrSvg } from "../helpers/qr"
import { waitFor } from "../helpers/wait"
import { SERVICE_CALLS_CACHE_SECONDS, serviceCallTests } from "./parts/service-calls"

const sats = (amount: string) => BigInt(amount.replace(".", ""))
const btc = (units: bigint) => {
  const digits = units.toString().padStart(9, "0")
  return `${digits.slice(0, -8)}.${digits.slice(-8)}`.replace(/\.?0+$/, "")
}

/** A wallet URI as BIP-21 and EIP-681 write it, from the contracts and chains those coins live on. */
function expectedUri(coin: string, address: string, amount: string): string {
  const [whole, fraction = ""] = amount.split(".")
  const units = (places: number) => BigInt(whole + fraction.padEnd(places, "0").slice(0, places)).toString()
  switch (coin) {
    case "BTC":
    case "LTC":
      return `${coin === "BTC" ? "bitcoin" : "litecoin"}:${address}?amount=${amount.replace(/\.?0+$/, "")}`
    case "ETH":
      return `ethereum:${address}@1?value=${units(18)}`
    case "USDT_ERC20":
      return `ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=${address}&uint256=${units(6)}`
    default:
      return `ethereum:0x55d398326f99059fF775485246999027B3197955@56/transfer?address=${address}&uint256=${units(18)}`
  }
}

jest.setTimeout(120_000)

// the job out of the way; placeOrder is Medusa's default, before_payment
const sandbox = useSandbox({
  CRYPTO_RECONCILE_INTERVAL_SECONDS: "3600",
  CRYPTO_STATUS_CACHE_SECONDS: String(SERVICE_CALLS_CACHE_SECONDS),
})

cryptoIntegrationRunner({
  testSuite: (options) => {
    const { api, getContainer } = options
    const fileShop = shopForFile(options)
    describe("service-calls", () => serviceCallTests("before_payment", options, sandbox, fileShop))
    let shop: CryptoStore

    beforeEach(async () => {
      shop = fileShop()
    })

    const status = (paymentId: string) => api.get(`/store/crypto/payments/${paymentId}`, shop.store.storeHeaders)

    it("shows a payment's public status: confirmations x/required, received/required, coin and address", async () => {
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
      await sandbox.control().pay(session.data.paymentId)
      await sandbox.control().confirm(session.data.paymentId, 1)
      const { data, headers } = await status(session.data.paymentId)
      expect(data.payment).toEqual({
        paymentId: session.data.paymentId,
        kind: "payment",
        status: "PENDING",
        verdict: "confirming",
        final: false,
        confirmations: 1,
        requiredConfirmations: 3,
        receivedAmount: session.data.amount.toFixed(8),
        requiredAmount: session.data.amount.toFixed(8),
        currency: "BTC",
        address: session.data.address,
        qrCode: session.data.qrCode,
        // all of it arrived: nothing left to send
        walletUri: null,
        invoiceUrl: session.data.invoiceUrl,
        expiresAt: session.data.expiresAt,
        underpaid: false,
        overpaid: false,
        checkedAt: expect.any(String),
      })
      // the server shares reads; a browser must ask again to see a webhook's news
      expect(headers["cache-control"]).toBe("private, no-cache")
      expect(JSON.stringify(data)).not.toContain(SANDBOX_API_KEY)
    })

    it("shows an invoice without coin or address until the customer picks one", async () => {
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id)
      const { data } = await status(session.data.paymentId)
      expect(data.payment).toMatchObject({
        kind: "invoice",
        status: "PENDING",
        currency: null,
        address: null,
        qrCode: null,
        walletUri: null,
      })
      const qr = await failing(api.get(`/store/crypto/payments/${session.data.paymentId}/qr`, shop.store.storeHeaders))
      expect(qr.status).toBe(404)
      expect(qr.data.message).toMatch(/has not chosen a coin/)

      // once the customer picks a coin on the hosted page, the view carries its wallet URI (shared reads: 2 s)
      await sandbox.control().select(session.data.paymentId, "USDT_BEP20")
      const chosen = await pollView(session.data.paymentId, (view) => view.walletUri !== null)
      expect(chosen.walletUri).toBe(expectedUri("USDT_BEP20", chosen.address, chosen.requiredAmount))
      expect(decodeQrSvg(await qrSvg(session.data.paymentId))).toBe(chosen.walletUri)
    })

    const qrSvg = async (paymentId: string) =>
      String((await api.get(`/store/crypto/payments/${paymentId}/qr`, shop.store.storeHeaders)).data)

    /** The store view once `ready` holds (reads are shared for CRYPTO_STATUS_CACHE_SECONDS). */
    const pollView = (paymentId: string, ready: (view: Record<string, any>) => boolean) =>
      waitFor(async () => (await status(paymentId)).data.payment, ready, { timeoutMs: 15_000, what: "the view" })

    it("gives every coin a wallet URI with its address, network and exact amount, and a QR code that reads as it", async () => {
      for (const coin of ["BTC", "LTC", "ETH", "USDT_ERC20", "USDT_BEP20"]) {
        const cart = await createCryptoCart(api, shop)
        const { session } = await startCryptoSession(api, shop, cart.id, { currency: coin })
        const view = (await status(session.data.paymentId)).data.payment
        const expected = expectedUri(coin, view.address, view.requiredAmount)
        expect([coin, view.walletUri]).toEqual([coin, expected])
        expect(session.data.walletUri).toBe(expected)
        // the service's own payload stays as it wrote it
        expect(view.qrCode).toBe(session.data.qrCode)
        expect(decodeQrSvg(await qrSvg(session.data.paymentId))).toBe(expected)
        if (coin !== "BTC" && coin !== "LTC") {
          expect(view.address).toMatch(/[A-F]/)
          // the session data as the view: EIP-55
          expect(session.data.address).toBe(view.address)
        }
      }
    })

    it("asks for what is still to send once part arrived, and for nothing once all did", async () => {
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
      const paymentId = session.data.paymentId
      const first = (await status(paymentId)).data.payment
      const part = await sandbox.control().pay(paymentId, { mode: "partial" })
      const rest = sats(first.requiredAmount) - sats(part.currentBalance)
      expect(rest).toBeGreaterThan(0n)
      const partly = await pollView(paymentId, (view) => view.receivedAmount !== first.receivedAmount)
      expect(partly.walletUri).toBe(`bitcoin:${first.address}?amount=${btc(rest)}`)
      expect(decodeQrSvg(await qrSvg(paymentId))).toBe(partly.walletUri)

      await sandbox.control().pay(paymentId)
      const paid = await pollView(paymentId, (view) => view.walletUri === null)
      expect(paid.walletUri).toBeNull()
      const qr = await failing(api.get(`/store/crypto/payments/${paymentId}/qr`, shop.store.storeHeaders))
      expect(qr.status).toBe(404)
      expect(qr.data).toMatchObject({ code: "crypto.nothing_to_send" })
    })

    it("answers 404 for an unknown id and for a payment this store did not create", async () => {
      expect((await failing(status("pay_doesnotexist"))).status).toBe(404)
      const foreign = await fetch(`${sandbox.sandbox().url}/v1/create_payment`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": SANDBOX_API_KEY },
        body: JSON.stringify({ amount: 10, amountCurrency: "USD", currency: "BTC" }),
      }).then((r) => r.json())
      expect((await failing(status(foreign.data.paymentId))).status).toBe(404)
      expect((await failing(status("../../admin"))).status).toBe(404)
    })

    it("serves 100 concurrent pollers with at most a handful of upstream status reads", async () => {
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id, { currency: "ETH" })
      await sandbox.control().clearRequests()
      const answers = await Promise.all(Array.from({ length: 100 }, () => status(session.data.paymentId)))
      expect(answers.every((a) => a.data.payment.status === "PENDING")).toBe(true)
      const reads = await sandbox.control().requests(`/v1/invoice/${session.data.paymentId}/status`)
      expect(reads.length).toBeGreaterThanOrEqual(1)
      expect(reads.length).toBeLessThanOrEqual(3)
    })

    it("returns the QR code of a payment as SVG", async () => {
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id, { currency: "LTC" })
      const res = await api.get(`/store/crypto/payments/${session.data.paymentId}/qr`, shop.store.storeHeaders)
      expect(res.headers["content-type"]).toMatch(/^image\/svg\+xml/)
      const svg = String(res.data)
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*viewBox="0 0 \d+ \d+"/)
      expect(svg.trim().endsWith("</svg>")).toBe(true)
      expect(svg).toContain("<path")
      expect((await failing(api.get("/store/crypto/payments/pay_unknown/qr", shop.store.storeHeaders))).status).toBe(
        404
      )
    })

    it("serves the last known status while the service rate-limits reads", async () => {
      const cart = await createCryptoCart(api, shop)
      const { session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
      await status(session.data.paymentId)
      await sandbox.control().addFault({ kind: "rate_limit", path: "/status", retryAfter: 300, times: 10 })
      // wait out the 2 s share period (statusCacheSeconds): the cache reads the real clock, so move past it by polling
      const deadline = Date.now() + 15_000
      let answer = await status(session.data.paymentId)
      while (!answer.data.stale && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 500))
        answer = await status(session.data.paymentId)
      }
      expect(answer.data).toMatchObject({ stale: true, payment: { status: "PENDING" } })
    })
  },
})
