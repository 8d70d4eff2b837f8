import type { CryptoSuite } from "../../helpers/runner"
import type { SandboxHandle } from "../../helpers/sandbox"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { Knex } from "knex"
import {
  addCryptoSession,
  addItemByOrderEdit,
  adminOrder,
  completeCart,
  createCryptoCart,
  CryptoStore,
  failing,
  paidCryptoOrder,
  startCryptoSession,
  payInFull as payAndConfirm,
} from "../../helpers/checkout"
import { holdReconciliationInEachTest, notifyFromService } from "../../helpers/reconciliation"
import { CRYPTO_PAYMENT_MODULE, CryptoPaymentModuleService } from "../../../src/modules/crypto-payment"
import { cryptoCore } from "../../../src/modules/crypto-payment/core"
import { ExchangeRates } from "../../../src/modules/crypto-payment/core/exchange-rates"
import { RateStore } from "../../../src/modules/crypto-payment/rate-store"
import { rateFileFetcher } from "../../../src/modules/crypto-payment/core/rate-file-fetch"
import { pluginLog } from "../../../src/lib/runtime/log"
import { CRYPTO_PROVIDER_ID } from "../../helpers/store"
import { ledgerRowOf } from "../../helpers/ledger"
import { waitFor } from "../../helpers/wait"

/** The sandbox's default ECB rates: USD 1.0842, GBP 0.86100 per EUR. A 25 EUR cart asks 25 × 1.0842 = 27.105 → 27.11 USD. */
const EUR_25_IN_USD = "27.11"

/**
 * Store currencies the service does not take (issue 33): a shop in EUR, as Medusa's starter seeds it,
 * priced in USD at a recorded rate, every later amount at that payment's rate.
 */
export function storeCurrenciesTests(
  { api, getContainer }: CryptoSuite,
  sandbox: SandboxHandle,
  fileShop: () => CryptoStore
) {
  let shop: CryptoStore
  holdReconciliationInEachTest(getContainer)

  beforeEach(async () => {
    shop = fileShop()
    await sandbox.control().setWebhooks({ enabled: false })
  })

  const cryptoPayment = (): CryptoPaymentModuleService => getContainer().resolve(CRYPTO_PAYMENT_MODULE)
  const db = (): Knex => getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const row = (paymentId: string) => ledgerRowOf(getContainer(), paymentId)
  const refreshRates = async () => (await cryptoCore(getContainer(), CRYPTO_PROVIDER_ID)).exchangeRates("refresh")
  const ecbUrl = () => `${sandbox.sandbox().url}/ecb/eurofxref-daily.xml`
  const creates = async () =>
    (await sandbox.control().requests()).filter((r) => /create_(invoice|payment)/.test(r.path)).length
  const fetches = async () => (await sandbox.control().ecbState()).served
  const payInFull = (paymentId: string, coin?: string) => payAndConfirm(sandbox.control(), paymentId, coin)
  const adminPayment = async (paymentId: string) =>
    (await api.get(`/admin/crypto/payments/${paymentId}`, shop.admin)).data.payment
  const today = () => new Date().toISOString().slice(0, 10)
  /** The stored rates as if their publication were `daysOld` days before today, and due for a refresh. */
  const ageStoredRates = (daysOld: number) =>
    db().raw(
      `update "crypto_exchange_rate" set "published_on" = to_char(now() at time zone 'UTC' - make_interval(days => ?), 'YYYY-MM-DD'),
           "attempted_at" = now() - interval '1 day'`,
      [daysOld]
    )
  /** The source publishes today's file with these rates (merged over its defaults). */
  const publishToday = (rates: Record<string, string> = {}) => sandbox.control().ecb({ date: today(), rates })
  const health = async () => (await api.get("/admin/crypto/health", shop.admin)).data
  const ratesLine = async () =>
    (await health()).checks.find((c: { id: string }) => c.id === "exchange_rates") as {
      level: string
      detail: string
    }

  it("prices a EUR cart paid by invoice in USD at the ECB rate, records the rate, and captures the order", async () => {
    const cart = await createCryptoCart(api, shop)
    const { session } = await startCryptoSession(api, shop, cart.id)
    const published = (await sandbox.control().ecbState()).file.date
    expect(session.data).toMatchObject({
      kind: "invoice",
      baseAmount: "25.00",
      baseCurrency: "EUR",
      exchange: {
        usdAmount: EUR_25_IN_USD,
        rate: "1.0842",
        source: "ecb",
        publishedOn: published,
        markupPercent: "0",
      },
    })
    const paymentId: string = session.data.paymentId
    const atService = (await sandbox.control().payments()).find((p) => p.paymentId === paymentId)
    expect(atService?.baseAmount).toBe(Number(EUR_25_IN_USD))
    expect(await row(paymentId)).toMatchObject({
      base_amount: "25.00",
      base_currency: "EUR",
      usd_amount: EUR_25_IN_USD,
      exchange_rate: "1.0842",
      rate_source: "ecb",
      rate_url: ecbUrl(),
      rate_published_on: published,
      rate_markup_percent: "0",
    })

    const { order } = await completeCart(api, shop, cart.id)
    await payInFull(paymentId, "BTC")
    expect((await notifyFromService(sandbox.control(), paymentId)).data).toMatchObject({ applied: "capture" })
    expect((await adminOrder(api, shop, order.id)).payment_status).toBe("captured")
    const view = await adminPayment(paymentId)
    expect(view).toMatchObject({
      base_amount: "25.00",
      base_currency: "EUR",
      exchange: { usd_amount: EUR_25_IN_USD, rate: "1.0842", source: "ecb", published_on: published },
    })
    // a second EUR checkout prices from the stored rate: the file was fetched once
    const again = await createCryptoCart(api, shop)
    await startCryptoSession(api, shop, again.id)
    expect(await fetches()).toBe(1)
  })

  it("prices a coin picked at checkout, captured, and owes half the coins for a half refund in EUR", async () => {
    const { order, paymentId } = await paidCryptoOrder(api, shop, sandbox.control())
    const paid = await row(paymentId)
    expect(paid).toMatchObject({ kind: "payment", base_currency: "EUR", usd_amount: EUR_25_IN_USD })
    const medusaPayment = (await adminOrder(api, shop, order.id)).payment_collections[0].payments[0]
    await api.post(`/admin/payments/${medusaPayment.id}/refund`, { amount: 12.5 }, shop.admin)
    const owed = await adminPayment(paymentId)
    expect(owed.refund.records).toEqual([
      expect.objectContaining({ kind: "refund", base_amount: "12.50", base_currency: "EUR" }),
    ])
    // exactly half the coins the service required for 25.00 EUR (rounded down to the satoshi)
    const required = BigInt(Math.round(Number(paid.required_amount) * 1e8))
    expect(owed.refund.records[0].coin_amount).toBe((Number(required / 2n) / 1e8).toFixed(8))
  })

  it("owes the excess of a EUR payment in EUR, at the payment's rate", async () => {
    const cart = await createCryptoCart(api, shop)
    const { session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
    await completeCart(api, shop, cart.id)
    const paymentId: string = session.data.paymentId
    await sandbox.control().pay(paymentId, { mode: "over" })
    await sandbox.control().confirm(paymentId)
    expect((await notifyFromService(sandbox.control(), paymentId)).data).toMatchObject({ applied: "capture" })
    const view = await adminPayment(paymentId)
    const [excess] = view.refund.records
    expect(excess).toMatchObject({ kind: "excess", base_currency: "EUR" })
    // the excess's EUR worth is its coins at this payment's coins per euro
    const perEuro = Number(view.amount_required) / 25
    expect(Number(excess.base_amount)).toBeCloseTo(Number(excess.coin_amount) / perEuro, 1)
  })

  it("prices an order edit's outstanding amount at the rate of its creation, the checkout's keeps its own", async () => {
    const { order, paymentId } = await paidCryptoOrder(api, shop, sandbox.control())
    await publishToday({ USD: "1.1000" })
    // the next publication: the job's refresh stores it (a move of 1.5 %, not held)
    await ageStoredRates(1)
    await refreshRates()
    await addItemByOrderEdit(api, shop, order.id)
    const outstanding = (await adminOrder(api, shop, order.id)).payment_collections.find(
      (c: { status: string }) => c.status === "not_paid"
    )
    const edit = (await addCryptoSession(api, shop, outstanding.id, { currency: "BTC" })).data
    expect(edit).toMatchObject({
      baseAmount: "25.00",
      baseCurrency: "EUR",
      exchange: { usdAmount: "27.50", rate: "1.1" },
    })
    expect(await row(paymentId)).toMatchObject({ usd_amount: EUR_25_IN_USD, exchange_rate: "1.0842" })
    await payInFull(edit.paymentId)
    expect((await notifyFromService(sandbox.control(), edit.paymentId)).data).toMatchObject({ applied: "capture" })
    expect((await adminOrder(api, shop, order.id)).payment_status).toBe("captured")
  })

  it("creates nothing when Medusa updates a session with its unchanged amount", async () => {
    const cart = await createCryptoCart(api, shop)
    const { session } = await startCryptoSession(api, shop, cart.id)
    const before = await creates()
    const payment = getContainer().resolve(Modules.PAYMENT)
    await payment.updatePaymentSession({
      id: session.id,
      amount: session.amount,
      currency_code: "eur",
      data: session.data,
    })
    expect(await creates()).toBe(before)
  })

  it("keeps pricing from a fresh stored rate with the source down, and refuses clearly once it is stale", async () => {
    const first = await createCryptoCart(api, shop)
    await startCryptoSession(api, shop, first.id)
    await sandbox.control().ecb({ status: "down" })
    await ageStoredRates(2)
    await refreshRates()
    const stillFresh = await createCryptoCart(api, shop)
    const { session } = await startCryptoSession(api, shop, stillFresh.id)
    expect(session.data.exchange.usdAmount).toBe(EUR_25_IN_USD)
    expect(await ratesLine()).toMatchObject({ level: expect.stringMatching(/green|amber/) })

    await ageStoredRates(7)
    const before = await creates()
    const stale = await createCryptoCart(api, shop)
    const { data: collection } = await api.post(
      "/store/payment-collections",
      { cart_id: stale.id },
      shop.store.storeHeaders
    )
    const refused = await failing(
      api.post(
        `/store/payment-collections/${collection.payment_collection.id}/payment-sessions`,
        { provider_id: CRYPTO_PROVIDER_ID },
        shop.store.storeHeaders
      )
    )
    expect(refused.status).toBe(400)
    expect(refused.data).toMatchObject({ code: "crypto.rate_stale" })
    expect(refused.data.message).toMatch(
      /not available for EUR carts right now: the exchange rate to USD is out of date/
    )
    expect(await creates()).toBe(before)
    const line = await ratesLine()
    expect(line.level).toBe("red")
    expect(line.detail).toMatch(/Region EUR \(EUR\).*h old/)
  })

  it("holds a publication that moved a rate more than 20 %, until an admin accepts it", async () => {
    const cart = await createCryptoCart(api, shop)
    await startCryptoSession(api, shop, cart.id)
    await publishToday({ USD: "1.4000" })
    await ageStoredRates(1)
    await refreshRates()
    const { settings } = (await api.get("/admin/crypto/settings", shop.admin)).data
    expect(settings[0].exchange_rates).toMatchObject({
      source: "ecb",
      held: { moved: expect.arrayContaining([{ currency: "EUR", percent: "29.1" }]) },
      rates: expect.objectContaining({ EUR: "1.0842" }),
    })
    expect((await ratesLine()).level).toBe("amber")
    const heldBack = await createCryptoCart(api, shop)
    expect((await startCryptoSession(api, shop, heldBack.id)).session.data.exchange.rate).toBe("1.0842")

    await api.post("/admin/crypto/settings", { accept_held_rates: true }, shop.admin)
    const accepted = await createCryptoCart(api, shop)
    expect((await startCryptoSession(api, shop, accepted.id)).session.data.exchange).toMatchObject({
      rate: "1.4",
      usdAmount: "35.00",
    })
    const { changes } = (await api.get("/admin/crypto/settings", shop.admin)).data
    expect(changes[0]).toMatchObject({ field: "exchange_rates" })
    expect((await failing(api.post("/admin/crypto/settings", { accept_held_rates: true }, shop.admin))).status).toBe(
      400
    )
  })

  it("fetches once for two processes and concurrent checkouts when no rate is stored", async () => {
    const log = pluginLog(getContainer().resolve(ContainerRegistrationKeys.LOGGER))
    // what another process holds: its own rates object over the same database
    const other = new ExchangeRates({
      option: { source: "ecb", url: ecbUrl(), maxAgeHours: 144, markupPercent: 0, refreshMinutes: 60 },
      store: new RateStore(db),
      fetchFile: rateFileFetcher(3000),
      log,
      checkoutWaitMs: 1000,
    })
    await sandbox.control().ecb({ status: "slow" })
    // one after the other: two carts created at once for one email race in Medusa's customer creation
    const carts = [await createCryptoCart(api, shop), await createCryptoCart(api, shop)]
    const collections = await Promise.all(
      carts.map(
        async (c) =>
          (await api.post("/store/payment-collections", { cart_id: c.id }, shop.store.storeHeaders)).data
            .payment_collection.id as string
      )
    )
    const otherRate = other.rateFor("EUR")
    // the slow file answers after the fetch timeout: nobody waits for it longer than a second, nobody gets a
    // rate, and the file was asked once
    const outcomes = await Promise.allSettled([...collections.map((id) => addCryptoSession(api, shop, id)), otherRate])
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected", "rejected"])
    expect(await fetches()).toBe(1)
    // the fetch went on after the refusals, until its timeout recorded the failure
    const settled = await waitFor(
      async () =>
        (await db().raw(`select "attempted_at", "settled_at", "last_error" from "crypto_exchange_rate"`)).rows[0],
      (row) => !!row?.settled_at && row.settled_at >= row.attempted_at,
      { what: "the slow fetch to end" }
    )
    expect(settled.last_error).toMatch(/no answer within/)
    // a checkout now refuses at once, without fetching: the failure is known
    await expect(other.rateFor("EUR")).rejects.toMatchObject({ code: "crypto.rate_stale" })
    expect(await fetches()).toBe(1)

    // once the source answers, the next checkout fetches (the failed claim is old enough) and all share it
    await sandbox.control().ecb({ status: "up" })
    await db().raw(`update "crypto_exchange_rate" set "attempted_at" = now() - interval '1 minute'`)
    const [session] = await Promise.all(collections.map((id) => addCryptoSession(api, shop, id)))
    expect(session.data.exchange.rate).toBe("1.0842")
    expect((await other.rateFor("EUR")).rate).toBe("1.0842")
    expect(await fetches()).toBe(2)
  })
}
