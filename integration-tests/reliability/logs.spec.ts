import fs from "node:fs"
import path from "node:path"
import axios, { AxiosInstance } from "axios"
import { shippedCart } from "../../scripts/demo/checkout"
import { databaseFromEnv, RunningStore, startDemoStore } from "../../scripts/demo/store"
import { waitFor } from "../helpers/wait"
import { recordFigure } from "./figures"
import { keepAnswers, keepLogFiles } from "./seen"

/**
 * R16 secrets in logs: a Medusa of its own with request logging on (NODE_ENV development: Medusa logs
 * no request under `test`), driven as a storefront, the service and a hostile client would, and its
 * whole output read for the refund link's secret and the webhook token — in paths, `referrer`, error
 * lines. What remains logged is said in docs/operations.md's security notes.
 */
jest.setTimeout(600_000)

const STOREFRONT = "http://localhost:8000"

describe("R16 secrets in logs", () => {
  let store: RunningStore
  let stop: (() => Promise<void>) | undefined

  beforeAll(async () => {
    store = await startDemoStore({
      adminDashboard: false,
      say: () => undefined,
      onStop: (s) => (stop = s),
      env: { LOG_LEVEL: "http" },
      ...databaseFromEnv(),
    })
    keepAnswers("logs", store.admin)
    await store.control.setWebhooks({ enabled: false })
  })

  afterAll(async () => {
    await stop?.()
    if (store) keepLogFiles("logs", store.logDir)
  })

  /** A paid BTC order refunded $5: its refund link's token, and its payment's webhook path. */
  async function refundLink(storeApi: AxiosInstance) {
    const { cartId, collectionId } = await shippedCart(storeApi, store.store, "logs@example.com")
    const { payment_collection } = (
      await storeApi.post(`/store/payment-collections/${collectionId}/payment-sessions`, {
        provider_id: "pp_crypto_crypto",
        data: { currency: "BTC" },
      })
    ).data
    const paymentId: string = payment_collection.payment_sessions[0].data.paymentId
    const { order } = (await storeApi.post(`/store/carts/${cartId}/complete`, {})).data
    await store.control.pay(paymentId)
    await store.control.confirm(paymentId)
    const webhookPath = new URL((await store.control.payment(paymentId)).webhookUrl!).pathname
    await axios.post(`${store.backendUrl}${webhookPath}`, { id: paymentId }, { validateStatus: () => true })
    const payment = await waitFor(
      async () =>
        (
          await store.admin.get(`/admin/orders/${order.id}`, {
            params: { fields: "id,*payment_collections.payments,*payment_collections.payments.captures" },
          })
        ).data.order.payment_collections[0].payments[0],
      (p) => p.captures?.length > 0,
      { what: "the capture" }
    )
    await store.admin.post(`/admin/payments/${payment.id}/refund`, { amount: 5 })
    const [owed] = (await store.admin.get(`/admin/crypto/payments/${paymentId}`)).data.payment.refund.records
    const { link } = (await store.admin.get(`/admin/crypto/payments/${paymentId}/owed/${owed.id}/link`)).data
    return { token: link.token as string, url: link.url as string, webhookPath }
  }

  it("no request a storefront, the service or a hostile client makes puts a refund secret or a webhook token in a log line", async () => {
    const started = Date.now()
    const key = store.store.publishableKey
    const storeApi = axios.create({ baseURL: store.backendUrl, headers: { "x-publishable-api-key": key } })
    const { token, url, webhookPath } = await refundLink(storeApi)
    expect(url).toBe(`${STOREFRONT}/crypto-refund#${token}`)
    const secret = token.split(".").pop()!
    const webhookToken = webhookPath.split("/").pop()!
    const webhookSignature = webhookToken.split(".").pop()!
    const plain = { validateStatus: () => true, transformRequest: [(d: unknown) => d] }
    // a browser on the link's page: the page's URL without its fragment is the Referer
    const browser = { origin: STOREFRONT, referer: `${STOREFRONT}/crypto-refund`, "x-crypto-refund-token": token }
    const sent: Array<Promise<{ status: number }>> = [
      // CORS preflight of the component's read (its headers are not "simple")
      axios.options(`${store.backendUrl}/store/crypto/refunds`, {
        ...plain,
        headers: {
          origin: STOREFRONT,
          "access-control-request-method": "GET",
          "access-control-request-headers": "x-publishable-api-key,x-crypto-refund-token",
        },
      }),
      axios.get(`${store.backendUrl}/store/crypto/refunds`, {
        ...plain,
        headers: { ...browser, "x-publishable-api-key": key },
      }),
      // Medusa's publishable-key refusal
      axios.get(`${store.backendUrl}/store/crypto/refunds`, { ...plain, headers: browser }),
      // a body the JSON parser refuses
      axios.post(`${store.backendUrl}/store/crypto/refunds`, "{not json", {
        ...plain,
        headers: { ...browser, "x-publishable-api-key": key, "content-type": "application/json" },
      }),
      // the token in the body, and a form post refused
      axios.post(`${store.backendUrl}/store/crypto/refunds`, JSON.stringify({ token, coin: "BTC", address: "x" }), {
        ...plain,
        headers: { "x-publishable-api-key": key, "content-type": "application/json" },
      }),
      axios.post(`${store.backendUrl}/store/crypto/refunds`, `token=${token}&coin=BTC`, {
        ...plain,
        headers: { "x-publishable-api-key": key, "content-type": "application/x-www-form-urlencoded" },
      }),
      // the service's notification, a duplicate with a broken body, one too large, a GET, a forged one
      axios.post(`${store.backendUrl}${webhookPath}`, JSON.stringify({ id: "x" }), {
        ...plain,
        headers: { "content-type": "application/json" },
      }),
      axios.post(`${store.backendUrl}${webhookPath}`, "{broken", {
        ...plain,
        headers: { "content-type": "application/json" },
      }),
      axios.post(`${store.backendUrl}${webhookPath}`, JSON.stringify({ pad: "x".repeat(40_000) }), {
        ...plain,
        headers: { "content-type": "application/json" },
      }),
      axios.get(`${store.backendUrl}${webhookPath}`, plain),
      axios.post(`${store.backendUrl}/hooks/crypto/${webhookToken}x`, "{}", {
        ...plain,
        headers: { "content-type": "application/json" },
      }),
    ]
    const statuses = (await Promise.all(sent)).map((r) => r.status)
    expect(statuses).toEqual([204, 200, 400, 400, 400, 415, 200, 200, 413, 404, 401])

    // the request logger ran: every one of these was logged, with its path
    const logFile = path.join(store.logDir, "medusa.log")
    const lines = await waitFor(
      async () => fs.readFileSync(logFile, "utf8").split("\n"),
      (all) => all.filter((l) => l.includes("/hooks/crypto/:token")).length >= 5,
      { what: "the request log lines" }
    )
    const requestLines = lines.filter((l) => /\/store\/crypto\/refunds|\/hooks\/crypto/.test(l))
    expect(requestLines.length).toBeGreaterThanOrEqual(statuses.length)
    expect(lines.some((l) => l.includes(`← ${STOREFRONT}/crypto-refund`))).toBe(true)
    // Medusa's local notification provider (development only) prints each email it would send, the
    // refund link in it: the email is where the link belongs; docs/operations.md says to use a real provider
    const printedEmails = lines.filter((l) => l.includes("Attempting to send a notification"))
    const leaks = lines
      .filter((l) => !printedEmails.includes(l))
      .filter((l) => [secret, webhookSignature].some((s) => l.includes(s)))
    expect(leaks.map((l) => l.replace(secret, "«secret»").replace(webhookSignature, "«token»").slice(0, 300))).toEqual(
      []
    )

    recordFigure({
      id: "R16",
      title: "secrets in logs",
      count: statuses.length,
      result: `a Medusa with request logging on (NODE_ENV development, LOG_LEVEL http), ${statuses.length} requests carrying a refund link's token or a webhook token — a CORS preflight, a read from the link's page (its Referer), a publishable-key refusal, a body the JSON parser refused, the token in a body, a form post (415), the service's notification, a broken and a 40 KB one (413), a GET and a forged token on the webhook path: ${lines.length} log lines, ${requestLines.length} of them for these routes, found the refund secret or the webhook token ${leaks.length} times (the webhook path is logged as /hooks/crypto/:token; the ${printedEmails.length} emails Medusa's local notification provider prints, the link in them, are left out: a development provider)`,
      ms: Date.now() - started,
    })
  })
})
